// Package web lets a person play a game in the browser: a small HTTP server
// on one machine (127.0.0.1) serves a page that draws the table (package
// render) and a JSON API that plays the moves.
//
// Click a card and its legal destinations light up; click one to play. The
// page also lists the legal moves by name, and has Undo and Restart. Every
// move goes through the same env.Env and its checks as in the terminal: an
// illegal move, a request made on a stale state (each state has a version
// that every request carries) or a malformed body is refused with a message
// and leaves the game unchanged.
//
// The API (all bodies JSON):
//
//	GET  /              the page
//	GET  /api/state     the state
//	POST /api/move      {"version": v, "action": id}
//	                    or {"version": v, "move": "7>12"} (a name, as typed in the terminal)
//	                    or {"version": v, "from": {"place": "7", "pos": 3}, "to": {"place": "12", "pos": -1}}
//	POST /api/undo      {"version": v}
//	POST /api/restart   {"version": v}
//
// A successful request answers 200 with the new state; a refused one answers
// 400 (malformed), 409 (stale version) or 422 (a move the rules refuse, or
// nothing to undo) with {"error": "...", "state": ...}, the state unchanged.
//
// # Who may call it
//
// The server answers only its own machine's browser. Every request must name
// the server itself in its Host header: a loopback address (127.0.0.1, [::1])
// or localhost, with the port the request arrived on; any other Host (a name
// a web page elsewhere made resolve to 127.0.0.1, as in DNS rebinding) is
// refused with 421 Misdirected Request. A request that changes the game
// (every POST) must come from the server's own page: a browser's cross-origin
// POST (Sec-Fetch-Site or Origin naming another site, as a form on another
// page would send) is refused with 403 Forbidden (http.CrossOriginProtection).
// Tools that send neither header, such as curl, are served.
package web

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/render"
)

// maxBody bounds a request body.
const maxBody = 1 << 16

// Server is one game played in the browser. It is safe for concurrent use.
type Server struct {
	mu      sync.Mutex
	e       *env.Env   // the game now
	start   *env.Env   // the position Restart returns to
	history []*env.Env // earlier positions, for Undo
	version int
	moved   []int // placements the last move moved
	table   env.Table
	prev    env.Table
	defs    *render.Defs
	mux     *http.ServeMux
	guarded http.Handler // mux behind the cross-origin check
}

// New returns a server playing e from its current position (after Reset or
// env.FromPosition), which Restart returns to. The game must implement
// render.Layouter. The server owns e from now on.
func New(e *env.Env) (*Server, error) {
	l, ok := render.LayoutOf(e.Game())
	if !ok {
		return nil, fmt.Errorf("web: %s cannot describe its table (no render.Layouter)", e.Spec().Name)
	}
	s := &Server{e: e, start: e.Clone(), defs: render.NewDefs(render.Options{})}
	l.Layout(&s.table)
	s.mux = http.NewServeMux()
	s.mux.HandleFunc("GET /{$}", s.page)
	s.mux.HandleFunc("GET /api/state", s.state)
	s.mux.HandleFunc("POST /api/move", s.move)
	s.mux.HandleFunc("POST /api/undo", s.undo)
	s.mux.HandleFunc("POST /api/restart", s.restart)
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusForbidden, map[string]string{"error": "refused: a request from another site may not change the game"})
	}))
	s.guarded = cop.Handler(s.mux)
	return s, nil
}

// ServeHTTP serves the page and the API to requests that name the server
// itself in their Host header and, when they change the game, come from its
// own page (see the package documentation).
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	if err := checkHost(r); err != nil {
		writeJSON(w, http.StatusMisdirectedRequest, map[string]string{"error": err.Error()})
		return
	}
	s.guarded.ServeHTTP(w, r)
}

// checkHost accepts a request whose Host is a loopback name of this server
// with the port the connection arrived on.
func checkHost(r *http.Request) error {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil {
		return fmt.Errorf("refused: Host %q names no port of this server", r.Host)
	}
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	if !ok {
		return errors.New("refused: the server cannot tell its own address")
	}
	_, localPort, err := net.SplitHostPort(local.String())
	if err != nil || port != localPort {
		return fmt.Errorf("refused: Host %q is not this server", r.Host)
	}
	if host == "localhost" {
		return nil
	}
	if ip := net.ParseIP(host); ip != nil && ip.IsLoopback() {
		return nil
	}
	return fmt.Errorf("refused: Host %q is not this server", r.Host)
}

// Spot is a place or a card of the table in the API (see env.Spot).
type Spot struct {
	Place string `json:"place"`
	Pos   int    `json:"pos"`
}

// Move is a legal move in the state.
type Move struct {
	// ID is the action id, Name its name.
	ID   int    `json:"id"`
	Name string `json:"name"`
	// From is the card to click for it, nil when it has none (it is played
	// by its name); To is the place to click next, nil when a click on From
	// plays it.
	From *Spot `json:"from"`
	To   *Spot `json:"to"`
}

// State is what the page shows.
type State struct {
	Version  int    `json:"version"`
	Game     string `json:"game"`
	Title    string `json:"title"`
	Seed     uint64 `json:"seed"`
	Step     int    `json:"step"`
	MaxSteps int    `json:"maxSteps"`
	Progress int    `json:"progress"`
	Cards    int    `json:"cards"`
	Outcome  string `json:"outcome"`
	Class    string `json:"class"`
	// End announces the end of the game, as the terminal does ("" while it
	// runs).
	End string `json:"end"`
	// SVG is the table; each card is a <g class="pl"> with data-place and
	// data-pos, the cards the last move moved lit up.
	SVG     string `json:"svg"`
	Moves   []Move `json:"moves"`
	CanUndo bool   `json:"canUndo"`
}

// request is the body of the POST requests.
type request struct {
	Version *int   `json:"version"`
	Action  *int   `json:"action"`
	Move    string `json:"move"`
	From    *Spot  `json:"from"`
	To      *Spot  `json:"to"`
}

// refusal is the body of a refused request.
type refusal struct {
	Error string `json:"error"`
	State State  `json:"state"`
}

// snapshot builds the state; s.mu is held.
func (s *Server) snapshot() State {
	e := s.e
	info := e.Info()
	st := State{
		Version:  s.version,
		Game:     e.Spec().Name,
		Title:    e.Spec().Title,
		Seed:     e.Seed(),
		Step:     info.Steps,
		MaxSteps: e.MaxSteps(),
		Progress: info.Progress,
		Cards:    info.Cards,
		Outcome:  info.Outcome.String(),
		Class:    info.Class,
		End:      e.EndMessage(),
		CanUndo:  len(s.history) > 0,
		Moves:    []Move{},
	}
	var b bytes.Buffer
	if err := s.defs.Frame(&b, &s.table, &render.Highlight{Moved: s.moved}, true); err == nil {
		st.SVG = b.String()
	}
	l, _ := render.LayoutOf(e.Game())
	if !e.Done() {
		m := e.Mask()
		for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
			mv := Move{ID: a, Name: e.ActionString(a)}
			from, to := l.ActionSpots(a)
			if from.Place != "" {
				mv.From = &Spot{from.Place, from.Pos}
			}
			if to.Place != "" {
				mv.To = &Spot{to.Place, to.Pos}
			}
			st.Moves = append(st.Moves, mv)
		}
	}
	return st
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(code)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(v)
}

// refuse answers a refused request with the unchanged state; s.mu is held.
func (s *Server) refuse(w http.ResponseWriter, code int, format string, args ...any) {
	writeJSON(w, code, refusal{Error: fmt.Sprintf(format, args...), State: s.snapshot()})
}

func (s *Server) state(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	writeJSON(w, http.StatusOK, s.snapshot())
}

// read decodes a POST body and checks its version; on failure it answers
// and returns false. s.mu is held.
func (s *Server) read(w http.ResponseWriter, r *http.Request) (request, bool) {
	var req request
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, maxBody))
	if err != nil {
		s.refuse(w, http.StatusBadRequest, "the request body could not be read (at most %d bytes): %v", maxBody, err)
		return req, false
	}
	dec := json.NewDecoder(bytes.NewReader(body))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		s.refuse(w, http.StatusBadRequest, "malformed request: %v", err)
		return req, false
	}
	if dec.More() {
		s.refuse(w, http.StatusBadRequest, "malformed request: more than one JSON value")
		return req, false
	}
	if req.Version == nil {
		s.refuse(w, http.StatusBadRequest, "malformed request: the state's version is missing")
		return req, false
	}
	if *req.Version != s.version {
		s.refuse(w, http.StatusConflict, "the game has changed since this page last saw it (version %d, now %d): it shows the game as it is now", *req.Version, s.version)
		return req, false
	}
	return req, true
}

// commit makes next the game after a move or an undo and lights up what
// moved; s.mu is held.
func (s *Server) commit(next *env.Env, pushHistory bool) {
	if pushHistory {
		s.history = append(s.history, s.e)
	}
	s.e = next
	s.version++
	s.prev, s.table = s.table, s.prev
	l, _ := render.LayoutOf(s.e.Game())
	l.Layout(&s.table)
	s.moved = render.Moved(&s.prev, &s.table, s.moved[:0])
}

func (s *Server) move(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	req, ok := s.read(w, r)
	if !ok {
		return
	}
	forms := 0
	for _, set := range []bool{req.Action != nil, req.Move != "", req.From != nil} {
		if set {
			forms++
		}
	}
	if forms != 1 {
		s.refuse(w, http.StatusBadRequest, `malformed request: give exactly one of "action", "move" or "from" (with "to")`)
		return
	}
	if s.e.Done() {
		s.refuse(w, http.StatusUnprocessableEntity, "the game is over: undo or restart")
		return
	}
	var ids []int
	switch {
	case req.Action != nil:
		ids = []int{*req.Action}
	case req.Move != "":
		var err error
		if ids, err = s.e.ParseMove(req.Move); err != nil {
			s.refuse(w, http.StatusUnprocessableEntity, "%v", err)
			return
		}
	default:
		a, err := s.resolve(*req.From, req.To)
		if err != nil {
			s.refuse(w, http.StatusUnprocessableEntity, "%v", err)
			return
		}
		ids = []int{a}
	}
	// Play the whole move on a copy, so a move of several actions is played
	// entirely or not at all.
	trial := s.e.Clone()
	for _, a := range ids {
		if _, _, _, err := trial.Advance(a); err != nil {
			s.refuse(w, http.StatusUnprocessableEntity, "%v", err)
			return
		}
	}
	s.commit(trial, true)
	writeJSON(w, http.StatusOK, s.snapshot())
}

// resolve finds the action a click on from and then on to (nil: no second
// click) stands for: the legal one when there is one, else one the rules
// refuse (so that Step says why).
func (s *Server) resolve(from Spot, to *Spot) (int, error) {
	l, _ := render.LayoutOf(s.e.Game())
	toPlace := ""
	if to != nil {
		toPlace = to.Place
	}
	if from.Place == "" {
		return 0, errors.New(`malformed request: "from" names no place`)
	}
	legal, refused := -1, -1
	m := s.e.Mask()
	for a := range s.e.Spec().Actions {
		f, t := l.ActionSpots(a)
		if f.Place != from.Place || (f.Pos >= 0 && f.Pos != from.Pos) || t.Place != toPlace {
			continue
		}
		if m.Has(a) {
			if legal >= 0 {
				return 0, fmt.Errorf("%s and %s are both legal from %s to %s: choose one by its name", s.e.ActionString(legal), s.e.ActionString(a), from.Place, toPlace)
			}
			legal = a
		} else if refused < 0 {
			refused = a
		}
	}
	switch {
	case legal >= 0:
		return legal, nil
	case refused >= 0:
		return refused, nil
	case toPlace == "":
		return 0, fmt.Errorf("no move is made by a click on %s alone", from.Place)
	}
	return 0, fmt.Errorf("no move takes a card from %s to %s", from.Place, toPlace)
}

func (s *Server) undo(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.read(w, r); !ok {
		return
	}
	if len(s.history) == 0 {
		s.refuse(w, http.StatusUnprocessableEntity, "nothing to undo")
		return
	}
	prev := s.history[len(s.history)-1]
	s.history = s.history[:len(s.history)-1]
	s.commit(prev, false)
	writeJSON(w, http.StatusOK, s.snapshot())
}

func (s *Server) restart(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.read(w, r); !ok {
		return
	}
	s.commit(s.start.Clone(), true)
	s.moved = s.moved[:0]
	writeJSON(w, http.StatusOK, s.snapshot())
}

// Run serves the game e on 127.0.0.1 at port (0 chooses a free one), prints
// the address to out, and serves until ctx is done.
func Run(ctx context.Context, e *env.Env, port int, out io.Writer) error {
	s, err := New(e)
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)))
	if err != nil {
		return fmt.Errorf("web: listen on 127.0.0.1 port %d: %w", port, err)
	}
	fmt.Fprintf(out, "%s, deal %d: open http://%s/ in a browser (Ctrl-C stops the server)\n", e.Spec().Title, e.Seed(), ln.Addr())
	return Serve(ctx, ln, s)
}

// Serve serves s on ln until ctx is done, then shuts down.
func Serve(ctx context.Context, ln net.Listener, s *Server) error {
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second}
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		return fmt.Errorf("web: %w", err)
	case <-ctx.Done():
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := srv.Shutdown(sctx); err != nil {
			return fmt.Errorf("web: shut down: %w", err)
		}
		return nil
	}
}
