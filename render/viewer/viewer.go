// Package viewer writes an episode as one self-contained HTML file: the
// table at every step (inline SVG drawn by package render), a slider, the
// arrow keys, play and pause, and at each step the move played, its reward,
// the progress and the legal moves. The file needs no network: its script,
// its style (render.PageStyle) and its pictures are all inside it.
//
//	rec := viewer.NewRecorder("Cromwell deal 7, random agent")
//	agents.Play(e, agent, 7, 7, func(e *env.Env, a int) bool { rec.Add(e, a); return true })
//	rec.Finish(e)
//	err := rec.WriteHTML(w)
package viewer

import (
	"bytes"
	"compress/gzip"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"html/template"
	"io"
	"strconv"
	"strings"

	"github.com/patience-gym/patience/env"
	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/render"
)

// Frame is one step of a recorded episode.
type Frame struct {
	// SVG is the table, with the cards the previous move moved lit up in
	// yellow, and the move about to be played from its card (orange) to its
	// destination (blue).
	SVG string `json:"svg"`
	// Step is the number of steps played before this position.
	Step int `json:"step"`
	// Move is the name of the move played from this position ("" at the
	// end), Reward its reward.
	Move   string  `json:"move"`
	Reward float64 `json:"reward"`
	// Return is the sum of the rewards before this position.
	Return float64 `json:"return"`
	// Progress is the cards in their final place, out of Cards.
	Progress int `json:"progress"`
	Cards    int `json:"cards"`
	// Legal names the legal moves here.
	Legal []string `json:"legal"`
	// Status says whether the episode runs or how it ended.
	Status string `json:"status"`
}

// Recorder collects the positions of one episode. It is not safe for
// concurrent use.
type Recorder struct {
	title  string
	game   string
	defs   *render.Defs
	frames []Frame
	prev   env.Table
	cur    env.Table
	after  *env.Env // the position after the last added action
	err    error
}

// NewRecorder returns an empty recorder; title heads the page.
func NewRecorder(title string) *Recorder {
	return &Recorder{title: title, defs: render.NewDefs(render.Options{})}
}

// Add records e's position and the action about to be played from it. It
// plays the action on a copy of e to learn its reward, so e is unchanged.
func (r *Recorder) Add(e *env.Env, action int) {
	c := e.Clone()
	reward, _, _, err := c.Advance(action)
	if err != nil {
		reward = 0
		c = nil
	}
	r.add(e, action, reward)
	r.after = c
}

// Finish records e's final position.
func (r *Recorder) Finish(e *env.Env) {
	r.add(e, -1, 0)
	r.after = nil
}

// FinishAfterLast records, as the final position, the position the last
// added action led to (for callers that see the positions before each step
// only). It does nothing when no action was added or the last one was
// refused.
func (r *Recorder) FinishAfterLast() {
	if r.after != nil {
		r.Finish(r.after)
	}
}

// WriteFile writes the page to path; the file appears whole or not at all.
func (r *Recorder) WriteFile(path string) error {
	if err := atomicfile.Write(path, r.WriteHTML); err != nil {
		return fmt.Errorf("viewer: %w", err)
	}
	return nil
}

// Len returns the number of positions recorded.
func (r *Recorder) Len() int { return len(r.frames) }

// Frames returns the recorded positions. The slice aliases the recorder.
func (r *Recorder) Frames() []Frame { return r.frames }

func (r *Recorder) add(e *env.Env, action int, reward float64) {
	if r.err != nil {
		return
	}
	l, ok := render.LayoutOf(e.Game())
	if !ok {
		r.err = fmt.Errorf("viewer: %s cannot describe its table (no render.Layouter)", e.Spec().Name)
		return
	}
	r.game = e.Spec().Title
	l.Layout(&r.cur)
	hl := &render.Highlight{}
	if len(r.frames) > 0 {
		hl.Moved = render.Moved(&r.prev, &r.cur, nil)
	}
	f := Frame{
		Step:     e.Steps(),
		Return:   e.Return(),
		Progress: e.Progress(),
		Cards:    e.Spec().Cards,
		Status:   Status(e),
	}
	if action >= 0 {
		f.Move = e.ActionString(action)
		f.Reward = reward
		from, to := l.ActionSpots(action)
		for i := range r.cur.Cards {
			p := &r.cur.Cards[i]
			if from.Matches(p) {
				hl.Selected = append(hl.Selected, i)
			}
			if to.Matches(p) {
				hl.Targets = append(hl.Targets, i)
			}
		}
	}
	m := e.Mask()
	if !e.Done() {
		for a := m.Next(0); a >= 0; a = m.Next(a + 1) {
			f.Legal = append(f.Legal, e.ActionString(a))
		}
	}
	var b bytes.Buffer
	if err := r.defs.Frame(&b, &r.cur, hl, false); err != nil {
		r.err = err
		return
	}
	f.SVG = b.String()
	r.frames = append(r.frames, f)
	r.prev, r.cur = r.cur, r.prev
}

// Status says where an episode stands, in words: its end as the terminal
// announces it, or how many moves it offers while it runs.
func Status(e *env.Env) string {
	if e.Done() {
		return e.EndMessage()
	}
	return fmt.Sprintf("running: %d legal moves", e.Info().Legal)
}

// WriteHTML writes the page.
func (r *Recorder) WriteHTML(w io.Writer) error {
	if r.err != nil {
		return r.err
	}
	if len(r.frames) == 0 {
		return fmt.Errorf("viewer: no position recorded")
	}
	var defs strings.Builder
	if _, err := r.defs.WriteTo(&defs); err != nil {
		return err
	}
	// The frames travel as gzip-compressed JSON in base64: the pictures of
	// consecutive steps are nearly alike, so a long episode shrinks about
	// twenty-fold. The page inflates them with the browser's own
	// DecompressionStream.
	var raw, z bytes.Buffer
	enc := json.NewEncoder(&raw)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(r.frames); err != nil {
		return fmt.Errorf("viewer: %w", err)
	}
	zw, err := gzip.NewWriterLevel(&z, gzip.BestCompression)
	if err != nil {
		return fmt.Errorf("viewer: %w", err)
	}
	if _, err := zw.Write(raw.Bytes()); err != nil {
		return fmt.Errorf("viewer: compress the frames: %w", err)
	}
	if err := zw.Close(); err != nil {
		return fmt.Errorf("viewer: compress the frames: %w", err)
	}
	frames := strconv.Quote(base64.StdEncoding.EncodeToString(z.Bytes()))
	data := struct {
		Title  string
		Game   string
		Style  template.CSS
		Defs   template.HTML
		Frames template.JS
	}{r.title, r.game, template.CSS(render.PageStyle), template.HTML(defs.String()), template.JS(frames)}
	if err := page.Execute(w, data); err != nil {
		return fmt.Errorf("viewer: write the page: %w", err)
	}
	return nil
}

var page = template.Must(template.New("viewer").Parse(pageHTML))

const pageHTML = `<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<style>{{.Style}}</style>
</head><body>
{{.Defs}}
<header><h1>{{.Title}}</h1><span id="status"></span></header>
<main>
<div id="board"></div>
<div class="controls">
<button id="first" title="first step (Home)">|◀</button>
<button id="prev" title="previous step (←)">◀</button>
<button id="play" title="play or pause (space)">▶ play</button>
<button id="next" title="next step (→)">▶</button>
<button id="last" title="last step (End)">▶|</button>
<input id="slider" type="range" min="0" value="0" aria-label="step">
<span id="stepno"></span>
</div>
<dl class="facts">
<dt>step</dt><dd id="step"></dd>
<dt>move</dt><dd id="move"></dd>
<dt>reward</dt><dd id="reward"></dd>
<dt>progress</dt><dd id="progress"></dd>
<dt>legal moves</dt><dd><div id="legal" class="moves"></div></dd>
</dl>
<p class="legend"><b class="y">yellow</b>: moved by the last move · <b class="o">orange</b>: the card the next move takes · <b class="b">blue</b>: where it goes · ← → step, space play/pause</p>
</main>
<noscript>The viewer needs JavaScript.</noscript>
<script>
"use strict";
const DATA = {{.Frames}};
(async function () {
  const $ = (id) => document.getElementById(id);
  let FRAMES;
  try {
    const bin = Uint8Array.from(atob(DATA), (c) => c.charCodeAt(0));
    const stream = new Blob([bin]).stream().pipeThrough(new DecompressionStream("gzip"));
    FRAMES = JSON.parse(await new Response(stream).text());
  } catch (err) {
    $("status").textContent = "This browser cannot unpack the episode (it needs DecompressionStream): " + err;
    return;
  }
  const slider = $("slider");
  slider.max = String(FRAMES.length - 1);
  let cur = 0, timer = null;
  function show(i) {
    i = Math.max(0, Math.min(FRAMES.length - 1, i));
    cur = i;
    const f = FRAMES[i];
    $("board").innerHTML = f.svg;
    slider.value = String(i);
    $("stepno").textContent = (i + 1) + " / " + FRAMES.length;
    $("step").textContent = String(f.step);
    $("move").textContent = f.move || "— (the end)";
    $("reward").textContent = f.move ? f.reward.toFixed(4) : "—";
    $("progress").textContent = f.progress + " / " + f.cards + " cards placed, return " + f.return.toFixed(4);
    $("status").textContent = f.status;
    const legal = $("legal");
    legal.textContent = "";
    for (const m of (f.legal || [])) {
      const s = document.createElement("span");
      s.className = "move" + (m === f.move ? " chosen" : "");
      s.textContent = m;
      legal.appendChild(s);
    }
    if (!f.legal || f.legal.length === 0) legal.textContent = "none";
    document.body.dataset.step = String(i);
    if (i === FRAMES.length - 1) pause();
  }
  function play() {
    if (cur >= FRAMES.length - 1) show(0);
    $("play").textContent = "⏸ pause";
    timer = setInterval(() => show(cur + 1), 600);
  }
  function pause() {
    if (timer) clearInterval(timer);
    timer = null;
    $("play").textContent = "▶ play";
  }
  $("first").onclick = () => { pause(); show(0); };
  $("prev").onclick = () => { pause(); show(cur - 1); };
  $("next").onclick = () => { pause(); show(cur + 1); };
  $("last").onclick = () => { pause(); show(FRAMES.length - 1); };
  $("play").onclick = () => (timer ? pause() : play());
  slider.oninput = () => { pause(); show(Number(slider.value)); };
  document.addEventListener("keydown", (ev) => {
    if (ev.target && ev.target.tagName === "INPUT" && ev.key !== "ArrowLeft" && ev.key !== "ArrowRight") return;
    switch (ev.key) {
      case "ArrowLeft": pause(); show(cur - 1); break;
      case "ArrowRight": pause(); show(cur + 1); break;
      case "Home": pause(); show(0); break;
      case "End": pause(); show(FRAMES.length - 1); break;
      case " ": timer ? pause() : play(); break;
      default: return;
    }
    ev.preventDefault();
  });
  window.viewer = { count: FRAMES.length, show: show, current: () => cur };
  show(0);
})();
</script>
</body></html>
`
