package render_test

import (
	"bytes"
	"context"
	"fmt"
	"image/color"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/fogleman/gg"
	"github.com/golang/freetype/truetype"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/systems"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
)

// viewRecorder is a bot.Renderer that keeps the views it is asked to
// draw and draws nothing.
type viewRecorder struct {
	mu    sync.Mutex
	views []engine.View
}

func (v *viewRecorder) PNG(view engine.View) ([]byte, error) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.views = append(v.views, view)
	return []byte("png"), nil
}

// recordingRouter is a router on a new database st, with every rule
// system and table directives, whose games take seed and whose pictures
// are only recorded.
func recordingRouter(b testing.TB, seed uint64) (*bot.Router, *viewRecorder, *store.Store) {
	b.Helper()
	st, err := store.Open(context.Background(), filepath.Join(b.TempDir(), "views.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { st.Close() })
	rec := &viewRecorder{}
	r := bot.NewRouter(bot.Config{
		Store:      st,
		Rulesets:   systems.All(),
		Renderer:   rec,
		Directives: true,
		Seed:       func() uint64 { return seed },
	})
	return r, rec, st
}

// playedViews plays system key's demonstration (bot/demos: moves, fire
// and melee, every draw stacked or loaded) through the bot's router and
// returns the view of every picture the bot would send, in order.
func playedViews(b testing.TB, key string) []engine.View {
	b.Helper()
	script, ok := bot.Demo(key)
	if !ok {
		b.Fatalf("no demonstration for %s", key)
	}
	r, rec, _ := recordingRouter(b, bot.DemoSeed)
	l := &bot.Local{Router: r, Guild: "g", Channel: "c", User: "player"}
	if err := l.Run(context.Background(), strings.NewReader(script), io.Discard); err != nil {
		b.Fatal(err)
	}
	if len(rec.views) == 0 {
		b.Fatalf("the %s demonstration drew no picture", key)
	}
	return rec.views
}

// battles are the played battles of BenchmarkPlayedPictures: for each
// rule system, how a book is opened on one of its prepared scenarios
// for two players, alice and bob (the lines the local table reads, as
// cmd/rhapsode's arena opens them), and how many turns it runs.
var battles = map[string][]string{
	"btg": {
		"@gm /book open rules:btg turns:10",
		"@gm /scenario load name:river",
		`@alice /army build name:Spartans tag:SPA civ:greek units:"2 phalanx spear 12, 1 hvy-inf spear 12, 2 lt-inf javelin 8, 1 lt-inf bow 8, 1 cav spear 8, 1 leader"`,
		`@bob /army build name:Athenians tag:ATH civ:greek units:"2 phalanx spear 12, 1 hvy-inf spear 12, 2 lt-inf javelin 8, 1 lt-inf bow 8, 1 cav spear 8, 1 leader"`,
	},
	"goliath": {
		"@gm /book open rules:goliath method:move turns:10",
		"@gm /scenario load name:ford",
		`@alice /army raise name:"the Kingdom" tag:KIN units:"12 heavy infantry, 12 medium infantry, 8 longbowmen, 6 heavy cavalry"`,
		`@bob /army raise name:"the March" tag:MAR units:"12 heavy infantry, 12 medium infantry, 8 longbowmen, 6 heavy cavalry"`,
	},
	"gwab": {
		"@gm /book open rules:gwab terrain:on",
		"@gm /scenario load name:river",
		"@alice /clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,sword,bow,javelin",
		"@alice /clan raise name:Lycians hero:Sarpedon side:antagonist warbands:spear,sword,bow,javelin",
		"@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow,javelin",
		"@bob /clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,sword,bow,javelin",
		"@gm /book start",
	},
	"sgboh": {
		"@gm /book open rules:sgboh scenario:plain",
		"@alice /side take side:1",
		"@bob /side take side:2",
		"@gm /start",
	},
	"sweet": {
		"@gm /book open rules:sweet size:10x8 turns:4",
		"@gm /scenario load name:village",
		`@alice /army build name:Romans tag:ROM units:"1 CMD, 3 HI, 2 LI, 1 LC, 1 HC"`,
		`@bob /army build name:Gauls tag:GAU units:"1 CMD, 3 HI, 2 LI, 1 LC, 1 HC"`,
	},
}

// battleSteps bounds a played battle's steps after its opening: a book
// still going then is ended by its game master.
const battleSteps = 400

// battleViews plays system key's battle (battles) through the bot's
// router, both players greedy (engine.Greedy: the legal command that
// scores best one step ahead), from a fixed seed, and returns the view
// of every picture the bot would send, in order. They move and shoot in
// every system, and fight melee in gwab, sgboh and sweet (btg's and
// goliath's greedy players never charge).
func battleViews(b testing.TB, key string) []engine.View {
	b.Helper()
	rs, ok := systems.ByID(key)
	if !ok {
		b.Fatalf("no rule system %s", key)
	}
	ctx := context.Background()
	r, rec, st := recordingRouter(b, 38)
	send := func(user engine.PlayerID, c engine.Command) []bot.Reply {
		return r.Handle(ctx, bot.Request{Guild: "g", Channel: "c", User: user, Command: c})
	}
	for _, text := range battles[key] {
		l, err := engine.ParseLine(text)
		if err != nil {
			b.Fatalf("%s: %q: %v", key, text, err)
		}
		for _, rep := range send(l.User, l.Command) {
			if rep.Ephemeral {
				b.Logf("%s: %q: %s", key, text, rep.Text)
			}
		}
	}
	aw := rs.(engine.Awaiter)
	rng := rand.New(rand.NewPCG(38, 0xba771e))
	game := func() *engine.Game {
		row, err := st.ActiveGame(ctx, "g", "c")
		if err != nil {
			return nil
		}
		g, err := bot.Load(ctx, st, rs, row.ID)
		if err != nil {
			b.Fatal(err)
		}
		return g
	}
	g := game()
	if g == nil {
		b.Fatalf("%s: the battle did not open", key)
	}
	for range battleSteps {
		awaits := aw.Awaited(g.State)
		if g.State.Over() || len(awaits) == 0 {
			break
		}
		who := awaits[0].Player
		seq := g.Seq
		if c, err := engine.Greedy(g, who, rng); err == nil {
			send(who, c)
		}
		if g = game(); g != nil && g.Seq == seq && awaits[0].Timeout.Name != "" {
			send(who, awaits[0].Timeout)
			g = game()
		}
		if g == nil || g.Seq == seq {
			break
		}
	}
	if g != nil && !g.State.Over() {
		send("gm", engine.Command{Name: "book end", Options: map[string]string{"reason": "time"}})
	}
	if len(rec.views) == 0 {
		b.Fatalf("the %s battle drew no picture", key)
	}
	return rec.views
}

// BenchmarkPlayedPictures draws every picture of two corpora of each
// rule system at the size the bot sends (1040 pixels wide, read at 520),
// as the bot does, and beside each the same view drawn the naive way
// (plainDrawer: gg draws everything, image/png encodes), interleaved so
// that both see the same load. The corpora are demo, the system's
// demonstration (bot/demos: 17 to 48 pictures, every draw stacked or
// loaded), and battle, a whole book on one of its prepared scenarios
// between two greedy players (battleViews: 40 to 180 pictures). Each op is
// one pass over a corpus. It reports, per corpus and system:
//
//   - pictures: how many the corpus draws;
//   - static-redraw-%: of those, the share that had to draw the static
//     layer (the ground of the whole table, static.go), from a new
//     renderer through the corpus once (the goal is at most 5%);
//   - pieces-found-%: of the pieces of rows compressed on their own
//     (png.go), the share found already compressed, over the same pass;
//   - static-draws and tables: how many it drew, and how many different
//     tables (size and the shapes of the terrain; zones are tinted over
//     the ground) the corpus shows, each of which must be drawn at least
//     once (at each scale it is shown at);
//   - ms-median, naive-ms-median and median-ratio: the median picture's
//     wall time, the naive one's, and the median of each picture's time
//     over its naive time;
//   - cpu-ms-median, naive-cpu-ms-median and cpu-median-ratio: the same
//     in processor time, the whole process's (processCPU), on every core
//     the picture used. The goal (at most 0.10) is judged on this ratio:
//     the renderer spreads a picture over the cores while the naive draw
//     uses one, so on a bot whose cores are busy with other channels'
//     pictures the wall ratio flatters it, and the wall time of either
//     swings with the machine's load (±0.05 in the ratio for one binary
//     between runs), while processor time does not count time spent
//     waiting for a core. The wall ratio is kept for a quiet machine's
//     latency;
//   - KB-median and KB-max: the sizes of the PNG files (the goal is a
//     median of at most 120 KB).
func BenchmarkPlayedPictures(b *testing.B) {
	corpora := []struct {
		name  string
		views func(testing.TB, string) []engine.View
	}{{"demo", playedViews}, {"battle", battleViews}}
	for _, c := range corpora {
		b.Run(c.name, func(b *testing.B) {
			for _, key := range bot.DemoKeys() {
				b.Run(key, func(b *testing.B) { drawPlayed(b, c.views(b, key)) })
			}
		})
	}
}

// drawPlayed is BenchmarkPlayedPictures on one corpus of views.
func drawPlayed(b *testing.B, views []engine.View) {
	opts := render.Options{Width: 2 * render.PreviewWidth, SeenAt: render.PreviewWidth}
	fresh := render.New(opts)
	for _, v := range views {
		if _, err := fresh.PNG(v); err != nil {
			b.Fatal(err)
		}
	}
	redraws := render.StaticDraws(fresh)
	found := render.PiecesFound(fresh)
	tables := map[string]bool{}
	for _, v := range views {
		table := fmt.Sprint(v.Kind, v.Width, v.Depth)
		for _, t := range v.Terrain {
			table += fmt.Sprint(t.Kind, t.Outline)
		}
		tables[table] = true
	}

	plain := newPlainDrawer(b, opts)
	var ts, naive, cpu, naiveCPU []time.Duration
	var ratios, cpuRatios []float64
	var sizes []int
	for b.Loop() {
		// Each pass is the battle as it was played, on a renderer that
		// has seen none of it: another pass on the same one would find
		// every compressed piece of every picture kept.
		r := render.New(opts)
		for _, v := range views {
			c0, t0 := processCPU(), time.Now()
			pic, err := r.PNG(v)
			if err != nil {
				b.Fatal(err)
			}
			c1, t1 := processCPU(), time.Now()
			if _, err := plain.png(r, v); err != nil {
				b.Fatal(err)
			}
			c2, t2 := processCPU(), time.Now()
			ts = append(ts, t1.Sub(t0))
			naive = append(naive, t2.Sub(t1))
			ratios = append(ratios, float64(t1.Sub(t0))/float64(t2.Sub(t1)))
			cpu = append(cpu, c1-c0)
			naiveCPU = append(naiveCPU, c2-c1)
			if c2 > c1 {
				cpuRatios = append(cpuRatios, float64(c1-c0)/float64(c2-c1))
			}
			sizes = append(sizes, len(pic))
		}
	}
	for _, s := range [][]time.Duration{ts, naive, cpu, naiveCPU} {
		slices.Sort(s)
	}
	slices.Sort(ratios)
	slices.Sort(cpuRatios)
	slices.Sort(sizes)
	b.ReportMetric(float64(len(views)), "pictures")
	b.ReportMetric(100*float64(redraws)/float64(len(views)), "static-redraw-%")
	b.ReportMetric(float64(redraws), "static-draws")
	b.ReportMetric(float64(len(tables)), "tables")
	b.ReportMetric(100*found, "pieces-found-%")
	b.ReportMetric(float64(ts[len(ts)/2])/1e6, "ms-median")
	b.ReportMetric(float64(naive[len(naive)/2])/1e6, "naive-ms-median")
	b.ReportMetric(ratios[len(ratios)/2], "median-ratio")
	b.ReportMetric(float64(cpu[len(cpu)/2])/1e6, "cpu-ms-median")
	b.ReportMetric(float64(naiveCPU[len(naiveCPU)/2])/1e6, "naive-cpu-ms-median")
	if len(cpuRatios) > 0 {
		b.ReportMetric(cpuRatios[len(cpuRatios)/2], "cpu-median-ratio")
	}
	b.ReportMetric(float64(sizes[len(sizes)/2])/1000, "KB-median")
	b.ReportMetric(float64(sizes[len(sizes)-1])/1000, "KB-max")
}

// plainDrawer draws a view the way a first programme would: the same
// picture (the renderer's frame, size and places, from render.LayoutOf)
// with gg's own calls for every shape and string, on a new canvas each
// time, encoded by image/png with its default settings. It is the
// reference the renderer's speed is measured against; it draws less
// finely than the renderer (no hatching, halos or placed labels), so it
// is if anything cheaper than a plain drawing of everything would be.
type plainDrawer struct {
	k           float64
	text, small font.Face
	bold        font.Face
}

func newPlainDrawer(b testing.TB, opts render.Options) *plainDrawer {
	k := float64(opts.Width) / render.DefaultWidth
	if opts.SeenAt > 0 && opts.SeenAt < 1150 {
		k *= 1150 / float64(opts.SeenAt)
	}
	reg, err := truetype.Parse(goregular.TTF)
	if err != nil {
		b.Fatal(err)
	}
	bold, err := truetype.Parse(gobold.TTF)
	if err != nil {
		b.Fatal(err)
	}
	return &plainDrawer{
		k:     k,
		text:  truetype.NewFace(reg, &truetype.Options{Size: 13 * k}),
		small: truetype.NewFace(reg, &truetype.Options{Size: 10 * k}),
		bold:  truetype.NewFace(bold, &truetype.Options{Size: 17 * k}),
	}
}

// plainColors are the groups' colours (Okabe–Ito, as the renderer's).
var plainColors = []color.RGBA{
	{230, 159, 0, 255}, {86, 180, 233, 255}, {0, 158, 115, 255}, {240, 228, 66, 255},
	{0, 114, 178, 255}, {213, 94, 0, 255}, {204, 121, 167, 255}, {0, 0, 0, 255},
}

func (d *plainDrawer) png(r *render.Renderer, v engine.View) ([]byte, error) {
	l, err := render.LayoutOf(r, v)
	if err != nil {
		return nil, err
	}
	k := d.k
	fv := &l.View
	dc := gg.NewContext(l.W, l.H)
	dc.SetRGB(1, 1, 1)
	dc.Clear()
	// Header.
	dc.SetColor(color.Black)
	dc.SetFontFace(d.bold)
	dc.DrawStringAnchored(fv.Title, 12*k, 8*k, 0, 1)
	dc.SetFontFace(d.text)
	dc.DrawStringAnchored(fv.Caption, 12*k, 30*k, 0, 1)
	// The board.
	t := l.Table
	dc.SetRGB255(236, 226, 198)
	dc.DrawRectangle(float64(t.Min.X), float64(t.Min.Y), float64(t.Dx()), float64(t.Dy()))
	dc.Fill()
	dc.SetFontFace(d.small)
	for _, cell := range l.Cells {
		dc.MoveTo(cell[0].X, cell[0].Y)
		for _, p := range cell[1:] {
			dc.LineTo(p.X, p.Y)
		}
		dc.ClosePath()
		dc.SetRGB255(236, 226, 198)
		dc.FillPreserve()
		dc.SetRGB255(120, 110, 90)
		dc.SetLineWidth(1.2 * k)
		dc.Stroke()
	}
	if fv.Kind == engine.HexGrid {
		// Each hex's number near its top (its place in the list, for
		// the cost; the renderer prints the map's number).
		dc.SetRGB255(90, 80, 60)
		for i, cell := range l.Cells {
			var cx, cy float64
			for _, p := range cell {
				cx, cy = cx+p.X/float64(len(cell)), cy+p.Y/float64(len(cell))
			}
			dc.DrawStringAnchored(fmt.Sprintf("%04d", i), cx, cy-0.6*l.Scale, 0.5, 1)
		}
	}
	if fv.Kind == engine.OpenTable {
		dc.SetRGB255(215, 205, 178)
		dc.SetLineWidth(k)
		for x := float64(t.Min.X); x < float64(t.Max.X); x += 5 * l.Scale {
			dc.DrawLine(x, float64(t.Min.Y), x, float64(t.Max.Y))
			dc.Stroke()
			dc.DrawStringAnchored(fmt.Sprint(int((x-float64(t.Min.X))/l.Scale)), x, float64(t.Max.Y)+4*k, 0.5, 1)
		}
		for y := float64(t.Min.Y); y < float64(t.Max.Y); y += 5 * l.Scale {
			dc.DrawLine(float64(t.Min.X), y, float64(t.Max.X), y)
			dc.Stroke()
		}
	}
	for _, z := range fv.Zones {
		a, c := l.Px(z.Min), l.Px(z.Max)
		dc.SetRGBA255(90, 120, 200, 50)
		if z.Side == 1 {
			dc.SetRGBA255(220, 140, 60, 50)
		}
		dc.DrawRectangle(math.Min(a.X, c.X), math.Min(a.Y, c.Y), math.Abs(c.X-a.X), math.Abs(c.Y-a.Y))
		dc.FillPreserve()
		dc.SetDash(6*k, 4*k)
		dc.Stroke()
		dc.SetDash()
		dc.SetColor(color.Black)
		dc.DrawStringAnchored(z.Label, math.Min(a.X, c.X)+4*k, math.Min(a.Y, c.Y)+4*k, 0, 1)
	}
	for _, tr := range fv.Terrain {
		for i, p := range tr.Outline {
			q := l.Px(p)
			if i == 0 {
				dc.MoveTo(q.X, q.Y)
			} else {
				dc.LineTo(q.X, q.Y)
			}
		}
		dc.ClosePath()
		dc.SetRGB255(170, 190, 130)
		dc.FillPreserve()
		dc.SetRGB255(90, 110, 60)
		dc.SetLineWidth(2 * k)
		dc.Stroke()
		if len(tr.Outline) > 0 {
			q := l.Px(tr.Outline[0])
			dc.DrawStringAnchored(tr.Label, q.X, q.Y, 0.5, 0.5)
		}
	}
	// Trails and pairings under the pieces.
	for _, m := range fv.Marks {
		a, c := l.Px(m.From), l.Px(m.To)
		switch m.Kind {
		case engine.KillMark:
			continue
		case engine.FireMark:
			dc.SetColor(color.Black)
			dc.SetLineWidth(1.5 * k)
		default:
			dc.SetColor(plainColors[max(m.Group, 0)%len(plainColors)])
			dc.SetLineWidth(3 * k)
		}
		dc.DrawLine(a.X, a.Y, c.X, c.Y)
		dc.Stroke()
		dc.DrawCircle(c.X, c.Y, 4*k)
		dc.Fill()
		if m.Label != "" {
			dc.SetRGB255(250, 220, 80)
			dc.DrawRectangle((a.X+c.X)/2-20*k, (a.Y+c.Y)/2-8*k, 40*k, 16*k)
			dc.Fill()
			dc.SetColor(color.Black)
			dc.DrawStringAnchored(m.Label, (a.X+c.X)/2, (a.Y+c.Y)/2, 0.5, 0.5)
		}
	}
	for _, p := range fv.Pieces {
		c := l.Px(p.Base.Center)
		w, h := p.Base.Width*l.Scale, p.Base.Depth*l.Scale
		if fv.Kind != engine.OpenTable {
			w, h = 0.7*l.Scale, 0.7*l.Scale
		}
		col := plainColors[max(p.Group, 0)%len(plainColors)]
		dc.Push()
		dc.Translate(c.X, c.Y)
		dc.Rotate(gg.Radians(float64(p.Base.Facing)))
		dc.DrawRectangle(-w/2, -h/2, w, h)
		dc.SetColor(col)
		dc.FillPreserve()
		dc.SetColor(color.Black)
		dc.SetLineWidth(1.3 * k)
		dc.Stroke()
		dc.SetColor(color.White)
		dc.SetLineWidth(3 * k)
		dc.DrawLine(-w/2, -h/2, w/2, -h/2)
		dc.Stroke()
		dc.Pop()
		dc.SetColor(color.Black)
		dc.DrawStringAnchored(p.Kind, c.X, c.Y, 0.5, 0.5)
		dc.SetFontFace(d.text)
		lx := c.X + w/2 + 4*k
		dc.DrawStringAnchored(p.Label, lx, c.Y-h/2, 0, 0.5)
		tw, _ := dc.MeasureString(p.Label)
		for i := range min(p.Limit, 8) {
			dc.DrawCircle(lx+tw+6*k+float64(i)*7*k, c.Y-h/2, 2.6*k)
			if i < p.Wounds {
				dc.SetRGB255(200, 30, 30)
				dc.FillPreserve()
			}
			dc.SetColor(color.Black)
			dc.SetLineWidth(k)
			dc.Stroke()
		}
		if p.Crew != "" {
			dc.DrawStringAnchored(p.Crew, lx, c.Y-h/2+14*k, 0, 0.5)
		}
		dc.SetFontFace(d.small)
	}
	for _, tk := range fv.Tokens {
		c := l.Px(tk.At)
		dc.DrawCircle(c.X, c.Y, 5*k)
		dc.SetColor(plainColors[max(tk.Group, 0)%len(plainColors)])
		dc.FillPreserve()
		dc.SetColor(color.Black)
		dc.Stroke()
	}
	for _, m := range fv.Marks {
		if m.Kind != engine.KillMark {
			continue
		}
		c := l.Px(m.From)
		dc.SetRGB255(200, 0, 0)
		dc.SetLineWidth(3 * k)
		dc.DrawLine(c.X-8*k, c.Y-8*k, c.X+8*k, c.Y+8*k)
		dc.Stroke()
		dc.DrawLine(c.X-8*k, c.Y+8*k, c.X+8*k, c.Y-8*k)
		dc.Stroke()
	}
	// Legend.
	dc.SetFontFace(d.text)
	y := float64(t.Max.Y) + 40*k
	for i, g := range fv.Groups {
		x := 12*k + float64(i%3)*float64(l.W)/3
		yy := y + float64(i/3)*22*k
		dc.SetColor(plainColors[i%len(plainColors)])
		dc.DrawRectangle(x, yy, 24*k, 12*k)
		dc.Fill()
		dc.SetColor(color.Black)
		dc.DrawStringAnchored(g.Name+" — "+g.Player, x+30*k, yy+6*k, 0, 0.5)
	}
	var buf bytes.Buffer
	if err := png.Encode(&buf, dc.Image()); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
