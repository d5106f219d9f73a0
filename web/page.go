package web

import (
	"html/template"
	"net/http"
	"strings"

	"github.com/patience-gym/patience/render"
)

func (s *Server) page(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	title := s.e.Spec().Title
	defs := render.NewDefs(render.Options{})
	s.mu.Unlock()
	defs.UseAll()
	var d strings.Builder
	if _, err := defs.WriteTo(&d); err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_ = pageTmpl.Execute(w, struct {
		Title string
		Style template.CSS
		Defs  template.HTML
	}{title, template.CSS(render.PageStyle), template.HTML(d.String())})
}

var pageTmpl = template.Must(template.New("play").Parse(`<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}} — patience</title>
<style>{{.Style}}</style>
</head><body>
{{.Defs}}
<header><h1 id="title">{{.Title}}</h1><span id="status"></span></header>
<main>
<div id="end" role="status"></div>
<div id="board"></div>
<div class="controls">
<button id="undo" title="take back the last move (u)">Undo</button>
<button id="restart" title="start the deal again">Restart</button>
<span class="legend">Click a card: its legal destinations light up in blue; click one to play. A click on the stock turns or deals.</span>
</div>
<div id="message" aria-live="polite"></div>
<dl class="facts">
<dt>legal moves</dt><dd><div id="moves" class="moves"></div></dd>
</dl>
</main>
<script>
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  let state = null;
  let sel = null; // {kind: "from" | "to", place, pos, moves}

  function say(text, error) {
    const m = $("message");
    m.textContent = text || "";
    m.className = error ? "error" : "";
  }
  function matches(spot, place, pos) {
    return !!spot && spot.place === place && (spot.pos < 0 || spot.pos === pos);
  }
  function groups() { return Array.from(document.querySelectorAll("#board g.pl")); }
  function light() {
    for (const g of groups()) {
      const place = g.dataset.place, pos = Number(g.dataset.pos);
      let target = false, selected = false;
      if (sel) {
        selected = sel.place === place && (sel.pos === pos || sel.whole);
        for (const m of sel.moves) {
          const spot = sel.kind === "from" ? m.to : m.from;
          if (matches(spot, place, pos)) target = true;
        }
      }
      g.classList.toggle("target", target);
      g.classList.toggle("selected", selected && !target);
    }
  }
  function show(st) {
    state = st;
    sel = null;
    $("board").innerHTML = st.svg;
    $("status").textContent = "deal " + st.seed + " · step " + st.step + " · " + st.progress + "/" + st.cards + " cards placed";
    const end = $("end");
    end.textContent = st.end;
    end.classList.toggle("shown", !!st.end);
    document.body.dataset.version = String(st.version);
    document.body.dataset.outcome = st.outcome;
    const moves = $("moves");
    moves.textContent = "";
    for (const m of st.moves) {
      const b = document.createElement("button");
      b.className = "move";
      b.textContent = m.name;
      b.dataset.id = String(m.id);
      b.onclick = () => post("/api/move", { action: m.id });
      moves.appendChild(b);
    }
    if (st.moves.length === 0) moves.textContent = st.end ? "none: the game is over" : "none";
    $("undo").disabled = !st.canUndo;
    light();
  }
  async function post(url, body) {
    body.version = state.version;
    let res, data;
    try {
      res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
      data = await res.json();
    } catch (err) {
      say("The server did not answer: " + err, true);
      return false;
    }
    if (!res.ok) {
      show(data.state);
      say(data.error, true);
      document.body.dataset.refused = String(Number(document.body.dataset.refused || 0) + 1);
      return false;
    }
    show(data);
    say("");
    return true;
  }
  function click(place, pos) {
    if (!state) return;
    if (sel) {
      const spot = (m) => (sel.kind === "from" ? m.to : m.from);
      const exact = sel.moves.filter((m) => matches(spot(m), place, pos));
      const loose = sel.moves.filter((m) => spot(m) && spot(m).place === place);
      const hit = exact.length ? exact : loose;
      if (hit.length > 0) {
        post("/api/move", { action: hit[0].id });
        return;
      }
      if (sel.place === place && (sel.whole || sel.pos === pos)) {
        sel = null; light(); say("");
        return;
      }
      // Not a legal destination: let the rules say why.
      const from = sel.kind === "from" ? { place: sel.place, pos: sel.pos } : { place: place, pos: pos };
      const to = sel.kind === "from" ? { place: place, pos: pos } : { place: sel.place, pos: sel.pos };
      post("/api/move", { from: from, to: to });
      return;
    }
    choose(place, pos);
  }
  function choose(place, pos) {
    const fwd = state.moves.filter((m) => matches(m.from, place, pos));
    if (fwd.length > 0) {
      const direct = fwd.filter((m) => !m.to);
      if (direct.length === fwd.length && direct.length === 1) {
        post("/api/move", { action: direct[0].id });
        return;
      }
      const whole = fwd.every((m) => m.from.pos < 0);
      sel = { kind: "from", place: place, pos: pos, whole: whole, moves: fwd.filter((m) => m.to) };
      light();
      say(fwd.map((m) => m.name).join("  ·  "));
      return;
    }
    const back = state.moves.filter((m) => matches(m.to, place, pos) && m.from);
    if (back.length > 0) {
      sel = { kind: "to", place: place, pos: pos, whole: true, moves: back };
      light();
      say(back.map((m) => m.name).join("  ·  "));
      return;
    }
    say(state.end ? state.end : "No legal move starts there.", false);
  }
  $("board").addEventListener("click", (ev) => {
    const g = ev.target.closest && ev.target.closest("g.pl");
    if (!g) { sel = null; light(); return; }
    click(g.dataset.place, Number(g.dataset.pos));
  });
  $("undo").onclick = () => post("/api/undo", {});
  $("restart").onclick = () => post("/api/restart", {});
  document.addEventListener("keydown", (ev) => {
    if (ev.key === "u" && !ev.ctrlKey && !ev.metaKey) post("/api/undo", {});
    if (ev.key === "Escape") { sel = null; light(); say(""); }
  });
  fetch("/api/state").then((r) => r.json()).then(show).catch((err) => say("Cannot load the game: " + err, true));
  window.play = { click: click, state: () => state };
})();
</script>
</body></html>
`))
