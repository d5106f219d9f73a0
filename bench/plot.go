package bench

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"path/filepath"
	"strconv"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"

	"github.com/patience-gym/patience/internal/atomicfile"
	"github.com/patience-gym/patience/stats"
)

// palette is the Okabe–Ito palette, distinguishable with the common forms
// of colour blindness.
var palette = []color.Color{
	color.RGBA{0x00, 0x72, 0xB2, 0xff}, // blue
	color.RGBA{0xE6, 0x9F, 0x00, 0xff}, // orange
	color.RGBA{0x00, 0x9E, 0x73, 0xff}, // bluish green
	color.RGBA{0xCC, 0x79, 0xA7, 0xff}, // reddish purple
	color.RGBA{0x56, 0xB4, 0xE9, 0xff}, // sky blue
	color.RGBA{0xD5, 0x5E, 0x00, 0xff}, // vermillion
	color.RGBA{0xF0, 0xE4, 0x42, 0xff}, // yellow
	color.RGBA{0x99, 0x99, 0x99, 0xff}, // grey
}

// PlotFormats are the file formats WritePlot draws, by file extension.
var PlotFormats = []string{"png", "svg", "pdf", "jpg", "jpeg", "tif", "tiff", "eps"}

// PlotFormat returns the format of a chart file from its extension
// ("chart.png" → "png"), or an error naming the supported ones.
func PlotFormat(path string) (string, error) {
	ext := strings.ToLower(strings.TrimPrefix(filepath.Ext(path), "."))
	for _, f := range PlotFormats {
		if ext == f {
			return f, nil
		}
	}
	return "", fmt.Errorf("cannot draw a chart as %q: name the file with one of the extensions %s",
		filepath.Base(path), strings.Join(PlotFormats, ", "))
}

// bars is one panel's data: for each agent and game a value with its
// interval, all as percentages.
type bars struct {
	title, ylabel string
	value         func(Summary) (float64, stats.Interval)
}

// errorBars implements plotter.XYer and plotter.YErrorer.
type errorBars struct {
	x, y, lo, hi []float64
}

func (e errorBars) Len() int                    { return len(e.x) }
func (e errorBars) XY(i int) (float64, float64) { return e.x[i], e.y[i] }
func (e errorBars) YError(i int) (float64, float64) {
	return e.y[i] - e.lo[i], e.hi[i] - e.y[i]
}

// plainTicks are gonum's default ticks labelled without trailing zeros
// ("50", not "50.00").
type plainTicks struct{}

// Ticks returns the default ticks between lo and hi with plain labels.
func (plainTicks) Ticks(lo, hi float64) []plot.Tick {
	ts := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ts {
		if ts[i].Label != "" {
			ts[i].Label = strconv.FormatFloat(math.Round(ts[i].Value*1e6)/1e6, 'f', -1, 64)
		}
	}
	return ts
}

// panel draws one grouped bar chart: games along x, one bar per agent,
// the interval as an error bar.
func (r *Result) panel(b bars, legend bool) (*plot.Plot, error) {
	p := plot.New()
	p.Title.Text = b.title
	p.Y.Label.Text = b.ylabel
	p.X.Min, p.X.Max = -0.5, float64(len(r.Games))-0.5
	var ticks []plot.Tick
	for i, g := range r.Games {
		label := r.Titles[g]
		if label == "" {
			label = g
		}
		ticks = append(ticks, plot.Tick{Value: float64(i), Label: label})
	}
	p.X.Tick.Marker = plot.ConstantTicks(ticks)
	p.Y.Min = 0
	p.Y.Tick.Marker = plainTicks{}
	grid := plotter.NewGrid()
	grid.Vertical.Color = nil // horizontal lines only
	p.Add(grid)

	const group = 0.8 // the width of a game's group of bars, in x units
	k := len(r.Agents)
	width := group / float64(k)
	top := 0.0
	for ai, a := range r.Agents {
		col := palette[ai%len(palette)]
		var eb errorBars
		var first *plotter.Polygon
		for gi, g := range r.Games {
			s, ok := r.Summary(g, a)
			if !ok {
				continue
			}
			v, iv := b.value(s)
			if math.IsNaN(v) {
				continue
			}
			x := float64(gi) - group/2 + (float64(ai)+0.5)*width
			h := width * 0.45
			poly, err := plotter.NewPolygon(plotter.XYs{{X: x - h, Y: 0}, {X: x + h, Y: 0}, {X: x + h, Y: v}, {X: x - h, Y: v}})
			if err != nil {
				return nil, fmt.Errorf("drawing %s on %s: %w", a, g, err)
			}
			poly.Color = col
			poly.LineStyle.Width = 0
			p.Add(poly)
			if first == nil {
				first = poly
			}
			top = math.Max(top, v)
			if iv.Defined() {
				eb.x = append(eb.x, x)
				eb.y = append(eb.y, v)
				eb.lo = append(eb.lo, iv.Lo)
				eb.hi = append(eb.hi, iv.Hi)
				top = math.Max(top, iv.Hi)
			}
		}
		if eb.Len() > 0 {
			e, err := plotter.NewYErrorBars(eb)
			if err != nil {
				return nil, fmt.Errorf("drawing the intervals of %s: %w", a, err)
			}
			e.LineStyle.Width = vg.Points(1)
			e.CapWidth = vg.Points(4)
			p.Add(e)
		}
		if legend && first != nil {
			p.Legend.Add(a, first)
		}
	}
	// Leave room above the bars for the legend, a line per agent.
	if top <= 0 {
		top = 1
	}
	room := 1.05 + 0.08*float64(k)
	if !legend {
		room = 1.05
	}
	p.Y.Max = top * room
	p.Legend.Top = true
	p.Legend.Left = false
	p.Legend.ThumbnailWidth = vg.Points(14)
	return p, nil
}

// WritePlot draws the chart in format (one of PlotFormats) to w: two
// panels, the win rate and the mean final progress per game, a bar per
// agent with its confidence interval as an error bar.
func (r *Result) WritePlot(w io.Writer, format string) error {
	lv := level(r.Confidence)
	var plots [][]*plot.Plot
	for _, b := range []bars{{
		title:  fmt.Sprintf("Win rate, %s Wilson interval (%d deals from %d)", lv, r.Deals, r.SeedStart),
		ylabel: "games won (%)",
		value:  func(s Summary) (float64, stats.Interval) { return percent(s.Wins.P, s.Wins.CI) },
	}, {
		title:  fmt.Sprintf("Mean final progress, %s t interval", lv),
		ylabel: "cards placed (% of all)",
		value:  func(s Summary) (float64, stats.Interval) { return percent(s.Progress.Mean, s.Progress.CI) },
	}} {
		p, err := r.panel(b, true)
		if err != nil {
			return err
		}
		plots = append(plots, []*plot.Plot{p})
	}
	width := vg.Length(math.Max(7, 1.1*float64(len(r.Games))+0.35*float64(len(r.Games)*len(r.Agents)))) * vg.Inch
	height := 8 * vg.Inch
	c, err := draw.NewFormattedCanvas(width, height, format)
	if err != nil {
		return fmt.Errorf("drawing the chart: %w", err)
	}
	tiles := draw.Tiles{Rows: 2, Cols: 1, PadTop: vg.Points(8), PadBottom: vg.Points(8),
		PadLeft: vg.Points(8), PadRight: vg.Points(12), PadY: vg.Points(18)}
	canvases := plot.Align(plots, tiles, draw.New(c))
	for i, row := range plots {
		row[0].Draw(canvases[i][0])
	}
	if _, err := c.WriteTo(w); err != nil {
		return fmt.Errorf("writing the chart: %w", err)
	}
	return nil
}

// percent returns a share and its interval in percent.
func percent(v float64, ci stats.Interval) (float64, stats.Interval) {
	return 100 * v, stats.Interval{Lo: 100 * ci.Lo, Hi: 100 * ci.Hi}
}

// SavePlot draws the chart into the file path, in the format its extension
// names. The file appears complete or not at all.
func (r *Result) SavePlot(path string) error {
	format, err := PlotFormat(path)
	if err != nil {
		return err
	}
	return atomicfile.Write(path, func(w io.Writer) error { return r.WritePlot(w, format) })
}

// SaveCSV writes WriteCSV's output into the file path.
func (r *Result) SaveCSV(path string) error {
	return atomicfile.Write(path, r.WriteCSV)
}

// SaveJSON writes WriteJSON's output into the file path.
func (r *Result) SaveJSON(path string) error {
	return atomicfile.Write(path, r.WriteJSON)
}
