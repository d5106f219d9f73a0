package web_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/patience-gym/patience/env"
	_ "github.com/patience-gym/patience/env/all"
	"github.com/patience-gym/patience/web"
	"github.com/patience-gym/patience/web/webtest"
)

type client struct {
	t   *testing.T
	url string
}

// get fetches the state.
func (c client) get() web.State {
	c.t.Helper()
	res, err := http.Get(c.url + "/api/state")
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	var st web.State
	if err := json.NewDecoder(res.Body).Decode(&st); err != nil {
		c.t.Fatal(err)
	}
	return st
}

// post sends a raw body and returns the status code, the error message (if
// refused) and the state.
func (c client) post(path, body string) (int, string, web.State) {
	c.t.Helper()
	res, err := http.Post(c.url+path, "application/json", strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	if res.StatusCode == http.StatusOK {
		var st web.State
		if err := json.Unmarshal(data, &st); err != nil {
			c.t.Fatalf("%s: %v in %s", path, err, data)
		}
		return res.StatusCode, "", st
	}
	var r struct {
		Error string    `json:"error"`
		State web.State `json:"state"`
	}
	if err := json.Unmarshal(data, &r); err != nil {
		c.t.Fatalf("%s: %v in %s", path, err, data)
	}
	if r.Error == "" {
		c.t.Fatalf("%s: refused with status %d and no message", path, res.StatusCode)
	}
	return res.StatusCode, r.Error, r.State
}

func jsonBody(v map[string]any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

func start(t *testing.T) client {
	t.Helper()
	s, err := web.New(webtest.Position())
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(s)
	t.Cleanup(srv.Close)
	return client{t, srv.URL}
}

func moveNames(st web.State) []string {
	var out []string
	for _, m := range st.Moves {
		out = append(out, m.Name)
	}
	return out
}

func TestPage(t *testing.T) {
	c := start(t)
	res, err := http.Get(c.url + "/")
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	page, _ := io.ReadAll(res.Body)
	for _, want := range []string{"<!doctype html>", "Cromwell", `<g id="pc52t">`, `id="undo"`, `id="restart"`, "/api/move"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("the page lacks %q", want)
		}
	}
	res, err = http.Get(c.url + "/nothing")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound {
		t.Errorf("GET /nothing: %d, want 404", res.StatusCode)
	}
}

func TestStateDescribesTheGame(t *testing.T) {
	c := start(t)
	st := c.get()
	if st.Game != "cromwell" || st.Version != 0 || st.Step != 0 || st.Progress != 100 || st.End != "" || st.CanUndo {
		t.Fatalf("state %+v", st)
	}
	if got := strings.Join(moveNames(st), " "); got != "1>F 1>2 2>3 swap" {
		t.Fatalf("legal moves %q", got)
	}
	for _, m := range st.Moves {
		switch m.Name {
		case "1>F":
			if m.From == nil || m.From.Place != "1" || m.To == nil || m.To.Place != "F" || m.To.Pos != 7 {
				t.Errorf("1>F: from %+v to %+v", m.From, m.To)
			}
		case "swap":
			if m.From != nil || m.To != nil {
				t.Errorf("swap has no card to click: %+v %+v", m.From, m.To)
			}
		}
	}
	if !strings.Contains(st.SVG, `data-place="2" data-pos="1"`) || !strings.HasPrefix(st.SVG, "<svg") {
		t.Fatalf("the SVG does not tie cards to places: %.200s", st.SVG)
	}
}

func TestWinningLineAndRefusals(t *testing.T) {
	c := start(t)
	v := 0
	ok := func(path string, body map[string]any) web.State {
		t.Helper()
		body["version"] = v
		code, msg, st := c.post(path, jsonBody(body))
		if code != http.StatusOK {
			t.Fatalf("%s %v: refused (%d): %s", path, body, code, msg)
		}
		if st.Version != v+1 {
			t.Fatalf("version %d after %d", st.Version, v)
		}
		v = st.Version
		return st
	}
	refused := func(path, body string, wantCode int, wantMsg string) {
		t.Helper()
		before := c.get()
		code, msg, st := c.post(path, body)
		if code != wantCode || !strings.Contains(msg, wantMsg) {
			t.Fatalf("%s %s: got %d %q, want %d and a message with %q", path, body, code, msg, wantCode, wantMsg)
		}
		if st.Version != before.Version || st.Step != before.Step || st.SVG != before.SVG {
			t.Fatalf("%s %s: the refusal changed the game", path, body)
		}
	}
	spot := func(place string, pos int) map[string]any { return map[string]any{"place": place, "pos": pos} }

	// J♠ home by clicks: fan 1, then the spade foundation.
	st := ok("/api/move", map[string]any{"from": spot("1", 0), "to": spot("F", 7)})
	if st.Progress != 101 {
		t.Fatalf("progress %d", st.Progress)
	}
	// Refusals leave everything as it was.
	refused("/api/move", jsonBody(map[string]any{"version": v, "from": spot("2", 1), "to": spot("1", -1)}), http.StatusUnprocessableEntity, "never refilled")
	refused("/api/move", jsonBody(map[string]any{"version": v, "action": 3}), http.StatusUnprocessableEntity, "illegal move 4>F")
	refused("/api/move", jsonBody(map[string]any{"version": v, "action": 99999}), http.StatusUnprocessableEntity, "no such action")
	refused("/api/move", jsonBody(map[string]any{"version": v, "move": "7>banana"}), http.StatusUnprocessableEntity, "parse move")
	refused("/api/move", jsonBody(map[string]any{"version": v, "from": spot("9", 0), "to": spot("F", -1)}), http.StatusUnprocessableEntity, "fan 9 is empty")
	refused("/api/move", jsonBody(map[string]any{"version": v, "from": spot("stock", 0)}), http.StatusUnprocessableEntity, "no move")
	refused("/api/move", jsonBody(map[string]any{"version": v - 1, "action": 1}), http.StatusConflict, "has changed")
	refused("/api/move", `{"version": 1, "action": 1`, http.StatusBadRequest, "malformed")
	refused("/api/move", `{"version": 1, "action": "1"}`, http.StatusBadRequest, "malformed")
	refused("/api/move", `{"version": 1, "act": 1}`, http.StatusBadRequest, "malformed")
	refused("/api/move", `{"action": 1}`, http.StatusBadRequest, "version is missing")
	refused("/api/move", `{"version": 1, "action": 1, "move": "2>F"}`, http.StatusBadRequest, "exactly one")
	refused("/api/move", `{"version": 1}{"version": 1}`, http.StatusBadRequest, "more than one")
	refused("/api/move", `{"version": 1, "move": "`+strings.Repeat("x", 70000)+`"}`, http.StatusBadRequest, "could not be read")
	refused("/api/undo", `{}`, http.StatusBadRequest, "version is missing")

	// Undo and redo the first move.
	st = ok("/api/undo", map[string]any{})
	if st.Progress != 100 || st.CanUndo {
		t.Fatalf("after undo: progress %d, can undo %v", st.Progress, st.CanUndo)
	}
	refused("/api/undo", jsonBody(map[string]any{"version": v}), http.StatusUnprocessableEntity, "nothing to undo")
	ok("/api/move", map[string]any{"move": "1>F"})
	// Q♠ and K♥ home by action id and by clicks, K♠ by name.
	st = ok("/api/move", map[string]any{"action": 1})
	if got := strings.Join(moveNames(st), " "); got != "2>F 3>F swap" {
		t.Fatalf("moves %q", got)
	}
	ok("/api/move", map[string]any{"from": spot("2", 0), "to": spot("F", -1)})
	st = ok("/api/move", map[string]any{"move": "3>F"})
	if st.Outcome != "won" || st.End != "You won in 4 moves!" || len(st.Moves) != 0 {
		t.Fatalf("the end: %+v", st)
	}
	refused("/api/move", jsonBody(map[string]any{"version": v, "action": 0}), http.StatusUnprocessableEntity, "the game is over")
	// Restart goes back to the position the server started from.
	st = ok("/api/restart", map[string]any{})
	if st.Progress != 100 || st.Step != 0 || st.End != "" || !st.CanUndo {
		t.Fatalf("after restart: %+v", st)
	}
	st = ok("/api/undo", map[string]any{})
	if st.Outcome != "won" {
		t.Fatalf("undoing the restart: %+v", st)
	}
}

func TestConcurrentRequests(t *testing.T) {
	c := start(t)
	var wg sync.WaitGroup
	codes := make(chan int, 64)
	for i := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if i%2 == 0 {
				_ = c.get()
				return
			}
			res, err := http.Post(c.url+"/api/move", "application/json", strings.NewReader(`{"version": 0, "move": "1>F"}`))
			if err != nil {
				t.Error(err)
				return
			}
			io.Copy(io.Discard, res.Body)
			res.Body.Close()
			codes <- res.StatusCode
		}()
	}
	wg.Wait()
	close(codes)
	won, stale := 0, 0
	for code := range codes {
		switch code {
		case http.StatusOK:
			won++
		case http.StatusConflict:
			stale++
		default:
			t.Errorf("status %d", code)
		}
	}
	if won != 1 || stale != 7 {
		t.Fatalf("%d moves played and %d refused as stale, want 1 and 7", won, stale)
	}
	if st := c.get(); st.Version != 1 || st.Progress != 101 {
		t.Fatalf("state %+v", st)
	}
}

func TestEveryGameServes(t *testing.T) {
	for _, name := range env.Names() {
		e, _ := env.Make(name, env.Options{})
		e.Reset(5)
		s, err := web.New(e)
		if err != nil {
			t.Fatal(err)
		}
		srv := httptest.NewServer(s)
		c := client{t, srv.URL}
		st := c.get()
		if len(st.Moves) == 0 || st.SVG == "" {
			t.Errorf("%s: no moves or no picture", name)
		}
		// Play the first legal move by its clicks when it has them.
		m := st.Moves[0]
		body := map[string]any{"version": 0, "action": m.ID}
		if m.From != nil {
			body = map[string]any{"version": 0, "from": m.From, "to": m.To}
		}
		if code, msg, _ := c.post("/api/move", jsonBody(body)); code != http.StatusOK {
			t.Errorf("%s: %s refused: %s", name, m.Name, msg)
		}
		srv.Close()
	}
}

// request sends a request with the given Host and extra headers and returns
// the status code and body.
func (c client) request(method, path, host string, header map[string]string, body string) (int, string) {
	c.t.Helper()
	req, err := http.NewRequest(method, c.url+path, strings.NewReader(body))
	if err != nil {
		c.t.Fatal(err)
	}
	if host != "" {
		req.Host = host
	}
	for k, v := range header {
		req.Header.Set(k, v)
	}
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		c.t.Fatal(err)
	}
	defer res.Body.Close()
	data, _ := io.ReadAll(res.Body)
	return res.StatusCode, string(data)
}

// TestForeignHostRefused: a request naming another host (as a page on a
// rebinding DNS name would send) is refused, whatever its path or method;
// the server's own loopback names with its port are served.
func TestForeignHostRefused(t *testing.T) {
	c := start(t)
	port := c.url[strings.LastIndex(c.url, ":")+1:]
	move := jsonBody(map[string]any{"version": c.get().Version, "move": "1>F"})
	for _, host := range []string{"evil.example.com", "evil.example.com:" + port, "127.0.0.1:1", "10.0.0.1:" + port, "127.0.0.1", "localhost.evil.example.com:" + port} {
		for _, r := range []struct{ method, path, body string }{{"GET", "/", ""}, {"GET", "/api/state", ""}, {"POST", "/api/move", move}} {
			code, body := c.request(r.method, r.path, host, nil, r.body)
			if code != http.StatusMisdirectedRequest || !strings.Contains(body, "refused") {
				t.Errorf("%s %s with Host %q: %d %q, want 421 and a refusal", r.method, r.path, host, code, body)
			}
		}
	}
	if st := c.get(); st.Step != 0 {
		t.Fatalf("a refused move was played: step %d", st.Step)
	}
	for _, host := range []string{"127.0.0.1:" + port, "localhost:" + port} {
		if code, body := c.request("GET", "/api/state", host, nil, ""); code != http.StatusOK {
			t.Errorf("GET /api/state with Host %q: %d %q, want 200", host, code, body)
		}
	}
}

// TestCrossOriginPostRefused: a state change sent by a browser from another
// site (a cross-origin form or fetch) is refused and changes nothing; the
// page's own requests and requests without browser headers are served.
func TestCrossOriginPostRefused(t *testing.T) {
	c := start(t)
	move := func() string { return jsonBody(map[string]any{"version": c.get().Version, "move": "1>F"}) }
	for _, h := range []map[string]string{
		{"Sec-Fetch-Site": "cross-site"},
		{"Sec-Fetch-Site": "same-site"},
		{"Origin": "http://evil.example.com"},
	} {
		for _, path := range []string{"/api/move", "/api/undo", "/api/restart"} {
			code, body := c.request("POST", path, "", h, move())
			if code != http.StatusForbidden || !strings.Contains(body, "another site") {
				t.Errorf("POST %s with %v: %d %q, want 403", path, h, code, body)
			}
		}
	}
	if st := c.get(); st.Step != 0 {
		t.Fatalf("a cross-origin move was played: step %d", st.Step)
	}
	if code, body := c.request("GET", "/api/state", "", map[string]string{"Sec-Fetch-Site": "cross-site"}, ""); code != http.StatusOK {
		t.Errorf("a cross-site GET (which changes nothing) was refused: %d %q", code, body)
	}
	if code, body := c.request("POST", "/api/move", "", map[string]string{"Sec-Fetch-Site": "same-origin", "Origin": c.url}, move()); code != http.StatusOK {
		t.Fatalf("the page's own POST was refused: %d %q", code, body)
	}
	if st := c.get(); st.Step != 1 {
		t.Fatalf("after the page's own move: step %d, want 1", st.Step)
	}
}
