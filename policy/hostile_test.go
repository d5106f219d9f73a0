package policy

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// TestHostileHeadersAllocateLittle: a header that declares tensors far
// larger than the file (a billion floats, a shape whose product overflows,
// a header length of 100 MB in a 50-byte file) is refused with a message
// saying what is wrong, and reading it allocates about as much as the file
// holds, not what the header declares.
func TestHostileHeadersAllocateLittle(t *testing.T) {
	cases := []struct {
		name, header string
		body         int
		want         string
	}{
		{"a billion floats", `{"w0":{"dtype":"F32","shape":[1000000000],"data_offsets":[0,4000000000]}}`, 4, "truncated"},
		{"offsets that fit, shape that does not", `{"w0":{"dtype":"F32","shape":[1000000000],"data_offsets":[0,4]}}`, 4, "needs 4000000000 bytes"},
		{"overflowing shape", `{"w0":{"dtype":"F64","shape":[4294967296,4294967296,4294967296],"data_offsets":[0,8]}}`, 8, "too large"},
		{"negative offsets", `{"w0":{"dtype":"F32","shape":[1],"data_offsets":[-4,0]}}`, 4, "invalid data_offsets"},
		{"many dimensions", `{"w0":{"dtype":"F32","shape":[` + strings.Repeat("1,", 5000) + `1],"data_offsets":[0,4]}}`, 4, ""},
	}
	for _, c := range cases {
		data := rawBytes([]byte(c.header), make([]byte, c.body))
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := Decode(data, "hostile")
		runtime.ReadMemStats(&after)
		if err == nil {
			t.Errorf("%s: accepted", c.name)
			continue
		}
		if c.want != "" && !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want a message with %q", c.name, err, c.want)
		}
		// The JSON decoder's own buffers are a few times the header; a
		// tensor of the declared size would be gigabytes.
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 1<<20+64*uint64(len(data)) {
			t.Errorf("%s: reading a %d-byte file allocated %d bytes", c.name, len(data), grew)
		}
	}
	// A header length larger than the file.
	huge := rawBytes([]byte(`{}`), nil)
	huge[0], huge[1], huge[2], huge[3] = 0, 0, 0, 5 // 80 MiB declared in a 10-byte file
	if _, err := Decode(huge, "hostile"); err == nil || !strings.Contains(err.Error(), "truncated") {
		t.Errorf("a header length beyond the file: %v, want a truncated-file error", err)
	}
}

// TestLoadModelRefusesWhatIsNoModel: a directory, a device and a file over
// MaxFileSize are refused before they are read.
func TestLoadModelRefusesWhatIsNoModel(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Errorf("a directory: %v", err)
	}
	if _, err := os.Stat("/dev/zero"); err == nil {
		if _, err := Load("/dev/zero"); err == nil || !strings.Contains(err.Error(), "not a regular file") {
			t.Errorf("/dev/zero: %v", err)
		}
	}
	big := filepath.Join(dir, "big.safetensors")
	f, err := os.Create(big)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(MaxFileSize + 1); err != nil { // sparse: no disk used
		t.Fatal(err)
	}
	f.Close()
	if _, err := Load(big); err == nil || !strings.Contains(err.Error(), "more than a model file may have") {
		t.Errorf("a file over the limit: %v", err)
	}
	if _, err := Load(filepath.Join(dir, "missing.safetensors")); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("a missing file: %v", err)
	}
}
