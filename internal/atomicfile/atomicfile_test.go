package atomicfile

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestWriteAppearsWholeOrNotAtAll(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "a.json")
	if err := WriteFile(path, []byte("{}\n")); err != nil {
		t.Fatal(err)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "{}\n" {
		t.Fatalf("read %q, %v", b, err)
	}
	boom := errors.New("boom")
	err := Write(filepath.Join(dir, "b.json"), func(w io.Writer) error {
		w.Write([]byte("half"))
		return boom
	})
	if !errors.Is(err, boom) || !strings.Contains(err.Error(), "b.json") {
		t.Fatalf("err %v", err)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("left %v", entries)
	}
	if err := WriteFile(filepath.Join(dir, "no", "such", "dir"), nil); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("err %v", err)
	}
}

func TestCleanRemovesOnlyStaleTemporaries(t *testing.T) {
	dir := t.TempDir()
	cmd := exec.Command("true")
	if err := cmd.Run(); err != nil {
		t.Skip(err)
	}
	host, _, _ := strings.Cut(writer, ".")
	name := func(final string, pid int) string {
		p := filepath.Join(dir, "."+final+"."+host+"."+strconv.Itoa(pid)+".42"+Suffix)
		os.WriteFile(p, nil, 0o644)
		return p
	}
	dead := name("x.parquet", cmd.Process.Pid)
	deadOther := name("y.parquet", cmd.Process.Pid)
	running := name("x.parquet", os.Getppid())
	mine := name("x.parquet", os.Getpid()) // of this process, not open: left by an earlier Create
	foreign := filepath.Join(dir, ".x.parquet.otherhost.1.42"+Suffix)
	old := filepath.Join(dir, ".x.parquet.123456"+Suffix) // an older name without a writer
	os.WriteFile(foreign, nil, 0o644)
	os.WriteFile(old, nil, 0o644)
	live, err := Create(filepath.Join(dir, "x.parquet"))
	if err != nil {
		t.Fatal(err)
	}
	defer live.Abort()

	temps, err := Temps(dir)
	if err != nil || len(temps) != 7 {
		t.Fatalf("Temps: %d, %v", len(temps), err)
	}
	for _, tf := range temps {
		if b := filepath.Base(tf.Final); b != "x.parquet" && b != "y.parquet" {
			t.Errorf("%s: final name %q", tf.Path, tf.Final)
		}
	}
	removed, err := Clean(dir, func(final string) bool { return filepath.Base(final) == "x.parquet" })
	if err != nil {
		t.Fatal(err)
	}
	if len(removed) != 2 || !slices.Contains(removed, dead) || !slices.Contains(removed, mine) {
		t.Fatalf("removed %v, want %s and %s", removed, dead, mine)
	}
	for _, p := range []string{deadOther, running, foreign, old} {
		if _, err := os.Stat(p); err != nil {
			t.Errorf("%s removed", p)
		}
	}
	if _, err := live.Write([]byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := live.Commit(); err != nil {
		t.Fatalf("the open file was cleaned: %v", err)
	}
}

func TestParseTemp(t *testing.T) {
	for _, tc := range []struct {
		name, final, host string
		pid               int
		ok                bool
	}{
		{".part-00003.parquet.vm.123.456.tmp", "part-00003.parquet", "vm", 123, true},
		{".info.json.build_host_x.9.1.tmp", "info.json", "build_host_x", 9, true},
		{".part-00003.parquet.123456.tmp", "part-00003.parquet", "", 0, true},
		{"part-00003.parquet", "", "", 0, false},
		{".tmp", "", "", 0, false},
	} {
		got, ok := parseTemp(tc.name)
		if ok != tc.ok || ok && (got.Final != tc.final || got.Host != tc.host || got.PID != tc.pid) {
			t.Errorf("parseTemp(%q) = %+v, %v", tc.name, got, ok)
		}
	}
}
