package render

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/png"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

var update = flag.Bool("update", false, "write the golden pictures in testdata/")

// Golden pictures are compared pixel by pixel after decoding, never byte
// by byte: floating point may differ a little between CPUs, which moves
// an antialiased edge here and there. A pixel differs when a channel is
// off by more than channelSlack; a picture differs when more than
// pixelSlack of its pixels do.
const (
	channelSlack = 48
	pixelSlack   = 0.003
)

func scenes() []struct {
	name string
	view func() engine.View
} {
	return []struct {
		name string
		view func() engine.View
	}{
		{"skirmish", skirmish},
		{"battle12", battle12},
		{"square", squareScene},
		{"hex", hexScene},
	}
}

func TestGolden(t *testing.T) {
	r := New(Options{})
	for _, sc := range scenes() {
		t.Run(sc.name, func(t *testing.T) {
			got, err := r.PNG(sc.view())
			if err != nil {
				t.Fatal(err)
			}
			if len(got) > 150<<10 {
				t.Errorf("picture is %d bytes; want at most 150 KB", len(got))
			}
			golden := filepath.Join("testdata", sc.name+".png")
			actual := filepath.Join("testdata", sc.name+".actual.png")
			if *update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				os.Remove(actual)
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if msg := compare(t, got, want); msg != "" {
				os.WriteFile(actual, got, 0o644)
				t.Errorf("%s differs from %s: %s; wrote %s", sc.name, golden, msg, actual)
			} else {
				os.Remove(actual)
			}
		})
	}
}

// compare decodes two PNGs and describes how they differ beyond the
// slack, or returns "".
func compare(t *testing.T, got, want []byte) string {
	t.Helper()
	g, err := png.Decode(bytes.NewReader(got))
	if err != nil {
		t.Fatalf("decode picture: %v", err)
	}
	w, err := png.Decode(bytes.NewReader(want))
	if err != nil {
		t.Fatalf("decode golden: %v", err)
	}
	if g.Bounds() != w.Bounds() {
		return fmt.Sprintf("size %v, want %v", g.Bounds().Size(), w.Bounds().Size())
	}
	diff := 0
	b := g.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := g.At(x, y).RGBA()
			r2, g2, b2, _ := w.At(x, y).RGBA()
			if off(r1, r2) || off(g1, g2) || off(b1, b2) {
				diff++
			}
		}
	}
	if frac := float64(diff) / float64(b.Dx()*b.Dy()); frac > pixelSlack {
		return fmt.Sprintf("%d pixels (%.2f%%) differ", diff, 100*frac)
	}
	return ""
}

func off(a, b uint32) bool {
	d := int(a>>8) - int(b>>8)
	return d > channelSlack || d < -channelSlack
}

// TestSizes checks the picture's shape: width as asked, a paletted PNG
// (the fast path), small enough for Discord on a phone.
func TestSizes(t *testing.T) {
	for _, w := range []int{0, 640, 1920} {
		r := New(Options{Width: w})
		pic, err := r.PNG(battle12())
		if err != nil {
			t.Fatal(err)
		}
		img, err := png.Decode(bytes.NewReader(pic))
		if err != nil {
			t.Fatal(err)
		}
		want := w
		if w == 0 {
			want = DefaultWidth
		}
		if img.Bounds().Dx() != want || r.Width() != want {
			t.Errorf("width %d: picture is %d wide", w, img.Bounds().Dx())
		}
		if _, ok := img.(*image.Paletted); !ok {
			t.Errorf("width %d: picture is %T, want a paletted image", w, img)
		}
		if h := img.Bounds().Dy(); h < want/2 || h > want {
			t.Errorf("width %d: picture is %d high", w, h)
		}
	}
}

// TestSizeWithoutDrawing: Size gives the size of the picture PNG draws,
// for every kind of board, without drawing it.
func TestSizeWithoutDrawing(t *testing.T) {
	r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
	for name, v := range map[string]engine.View{"skirmish": skirmish(), "battle": battle12(), "square": squareScene(), "hex": hexScene()} {
		w, h, err := r.Size(v)
		if err != nil {
			t.Fatal(err)
		}
		pic, err := r.PNG(v)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(bytes.NewReader(pic))
		if err != nil {
			t.Fatal(err)
		}
		if w != cfg.Width || h != cfg.Height {
			t.Errorf("%s: Size says %dx%d, the picture is %dx%d", name, w, h, cfg.Width, cfg.Height)
		}
	}
}

// TestCached checks that a picture drawn over the cached static layer
// is the same as one drawn afresh. Not to the bit: the board is drawn
// shifted down by the header's height, and rounding to the rasteriser's
// 1/64 pixel moves antialiased edges by a shade.
func TestCached(t *testing.T) {
	r := New(Options{})
	for _, sc := range scenes() {
		v := sc.view()
		a, err := r.draw(&v, true)
		if err != nil {
			t.Fatal(err)
		}
		ap := append([]byte(nil), a.whole().Pix...)
		r.done(a)
		c, err := r.draw(&v, false)
		if err != nil {
			t.Fatal(err)
		}
		b := c.img
		r.done(c)
		diff := 0
		for i := range ap {
			if d := int(ap[i]) - int(b.Pix[i]); d > 8 || d < -8 {
				diff++
			}
		}
		if diff > len(ap)/4000 {
			t.Errorf("%s: cached and fresh pictures differ in %d channels", sc.name, diff)
		}
	}
}

// TestConcurrent draws from many goroutines at once (run with -race):
// every picture must come out as it does alone.
func TestConcurrent(t *testing.T) {
	r := New(Options{})
	var want [][]byte
	for _, sc := range scenes() {
		p, err := r.PNG(sc.view())
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, p)
	}
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 2; i++ {
				for j, sc := range scenes() {
					p, err := r.PNG(sc.view())
					if err != nil {
						errs <- err
						return
					}
					if !bytes.Equal(p, want[j]) {
						errs <- fmt.Errorf("%s drawn concurrently differs", sc.name)
						return
					}
				}
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestBadViews(t *testing.T) {
	r := New(Options{})
	for _, v := range []engine.View{
		{},
		{Kind: engine.OpenTable, Width: 0, Depth: 40},
		{Kind: engine.OpenTable, Width: 60, Depth: -1},
		{Kind: engine.SquareGrid, Width: 0, Depth: 8},
		{Kind: engine.SquareGrid, Width: 500, Depth: 8},
		{Kind: engine.HexGrid, Width: 120, Depth: 10},
		{Kind: engine.BoardKind(9), Width: 10, Depth: 10},
	} {
		if _, err := r.PNG(v); !errors.Is(err, ErrBadView) {
			t.Errorf("PNG(%+v) = %v, want ErrBadView", v, err)
		}
	}
}

// TestOddViews draws views a careless rule system might produce: they
// must draw, not panic.
func TestOddViews(t *testing.T) {
	r := New(Options{Width: 480})
	odd := []engine.View{
		{Kind: engine.OpenTable, Width: 3, Depth: 2},
		{Kind: engine.OpenTable, Width: 1000, Depth: 1},
		{Kind: engine.OpenTable, Width: 10, Depth: 300, Pieces: []engine.Piece{{Label: "X", Group: 7, Base: at(warband, 5, 5, 33)}}},
		{Kind: engine.SquareGrid, Width: 1, Depth: 1, Pieces: []engine.Piece{{Label: "", Group: -1}}},
		{Kind: engine.HexGrid, Width: 1, Depth: 1, Marks: []engine.Mark{{Kind: engine.MarkKind(42)}}},
		{Kind: engine.HexGrid, Width: 3, Depth: 3, Pieces: []engine.Piece{{Label: "A", Base: engine.Base{Center: engine.Vec{X: 0, Y: 0}}}}},
		{Kind: engine.OpenTable, Width: 20, Depth: 20, Title: strings.Repeat("long title ", 100),
			Groups: []engine.Group{{Name: strings.Repeat("N", 500), Player: strings.Repeat("p", 500)}},
			Pieces: []engine.Piece{
				{Label: strings.Repeat("L", 10000), Crew: strings.Repeat("c", 1000), Base: at(warband, 10, 10, 0), Limit: 1000, Wounds: -3},
				{Label: "nan", Base: at(warband, math.NaN(), math.Inf(1), 0)},
				{Label: "far", Base: at(warband, 1e12, -1e12, 1e9)},
			},
			Marks: []engine.Mark{
				{Kind: engine.FireMark, From: engine.Vec{X: -1e15, Y: 3}, To: engine.Vec{X: 1e15, Y: math.NaN()}},
				{Kind: engine.MeleeMark, From: engine.Vec{X: 3, Y: 3}, To: engine.Vec{X: 4, Y: 4}, Label: strings.Repeat("x", 5000)},
			},
			Terrain: []engine.Terrain{{Kind: engine.Rough, Outline: []engine.Vec{{X: 1e300, Y: 0}, {X: 0, Y: 1e300}, {X: -1e300, Y: -1e300}}}},
			Zones:   []engine.Zone{{Label: strings.Repeat("z", 400), Min: engine.Vec{X: -1e300}, Max: engine.Vec{X: 1e300, Y: 1e300}}},
		},
	}
	for _, v := range odd {
		if _, err := r.PNG(v); err != nil {
			t.Errorf("PNG(%v by %v kind %d): %v", v.Width, v.Depth, v.Kind, err)
		}
	}
	// Random views on each board.
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 30; i++ {
		v := engine.View{Kind: engine.BoardKind(i % 3), Width: float64(1 + rng.IntN(30)), Depth: float64(1 + rng.IntN(30)), Title: "random"}
		for g := 0; g < rng.IntN(18); g++ {
			v.Groups = append(v.Groups, engine.Group{Name: fmt.Sprint("G", g), Side: rng.IntN(3)})
		}
		pos := func() engine.Vec { return engine.Vec{X: rng.Float64() * v.Width, Y: rng.Float64() * v.Depth} }
		for p := 0; p < rng.IntN(40); p++ {
			v.Pieces = append(v.Pieces, engine.Piece{
				Label: fmt.Sprint("G-", p), Kind: "W", Group: rng.IntN(20) - 1,
				Base:   engine.Base{Center: pos(), Width: rng.Float64() * 3, Depth: rng.Float64() * 3, Facing: engine.Heading(rng.Float64() * 360)},
				Wounds: rng.IntN(12), Limit: rng.IntN(12), Crew: "crew",
			})
		}
		for m := 0; m < rng.IntN(10); m++ {
			v.Marks = append(v.Marks, engine.Mark{Kind: engine.MarkKind(rng.IntN(6)), From: pos(), To: pos(), Hit: rng.IntN(2) == 0, Label: "x"})
			v.Tokens = append(v.Tokens, engine.Token{Kind: engine.TokenKind(rng.IntN(4)), At: pos(), Label: "t", Group: rng.IntN(3)})
		}
		v.Terrain = append(v.Terrain, engine.Terrain{Kind: engine.TerrainKind(rng.IntN(5)), Label: "t", Outline: []engine.Vec{pos(), pos(), pos()}})
		v.Zones = append(v.Zones, engine.Zone{Label: "z", Min: pos(), Max: pos(), Side: rng.IntN(2)})
		if _, err := r.PNG(v); err != nil {
			t.Errorf("random view %d: %v", i, err)
		}
	}
}

func TestGroupStyles(t *testing.T) {
	v := battle12()
	st := groupStyles(&v)
	type cue struct {
		fill       [3]uint8
		side, ring int
	}
	seen := map[cue]string{}
	for i, s := range st {
		c := cue{[3]uint8{s.fill.R, s.fill.G, s.fill.B}, s.side, s.ring}
		if other, ok := seen[c]; ok {
			t.Errorf("%s and %s look alike", v.Groups[i].Name, other)
		}
		seen[c] = v.Groups[i].Name
		if s.prefix != names12[i]+"-" {
			t.Errorf("%s: prefix %q", v.Groups[i].Name, s.prefix)
		}
	}
	// With up to eight groups every colour differs.
	v.Groups = v.Groups[:8]
	st = groupStyles(&v)
	colours := map[[3]uint8]bool{}
	for _, s := range st {
		colours[[3]uint8{s.fill.R, s.fill.G, s.fill.B}] = true
	}
	if len(colours) != 8 {
		t.Errorf("8 groups got %d colours", len(colours))
	}
}

var names12 = []string{"MYR", "ITH", "ARG", "SPA", "PYL", "CRE", "TRO", "DAR", "LYC", "THR", "AMA", "ETH"}

func TestRulerSteps(t *testing.T) {
	for _, c := range []struct {
		scale, step, minor float64
	}{
		{16.7, 5, 1},
		{30, 2, 1},
		{100, 0.5, 0.5},
		{1, 50, 10},
	} {
		step, minor := rulerSteps(c.scale, 1)
		if step != c.step || minor != c.minor {
			t.Errorf("rulerSteps(%v) = %v, %v; want %v, %v", c.scale, step, minor, c.step, c.minor)
		}
	}
}

func TestStaticCacheEvicts(t *testing.T) {
	r := New(Options{Width: 480})
	for i := 0; i < 40; i++ {
		v := engine.View{Kind: engine.OpenTable, Width: float64(10 + i), Depth: 10}
		if _, err := r.PNG(v); err != nil {
			t.Fatal(err)
		}
	}
	if n := r.static.len(); n > r.static.max || r.static.order.Len() != n {
		t.Errorf("cache holds %d layers (%d in order), max %d", n, r.static.order.Len(), r.static.max)
	}
	// The most recently used stays.
	keep := engine.View{Kind: engine.OpenTable, Width: 10, Depth: 10}
	for i := 0; i < 3*r.static.max; i++ {
		r.PNG(keep)
		r.PNG(engine.View{Kind: engine.OpenTable, Width: float64(100 + i), Depth: 10})
	}
	b, _, _ := newBoard(&keep, r.width, r.k)
	if !r.static.has(keyOf(&keep, &b)) {
		t.Error("the table drawn every other picture fell out of the cache")
	}
}

// TestRepeatable draws a picture before and after others: nothing of
// one picture (reused buffers, caches) may leak into the next.
func TestRepeatable(t *testing.T) {
	r := New(Options{})
	first, err := r.PNG(skirmish())
	if err != nil {
		t.Fatal(err)
	}
	for _, sc := range scenes() {
		if _, err := r.PNG(sc.view()); err != nil {
			t.Fatal(err)
		}
	}
	again, _ := r.PNG(skirmish())
	fresh, _ := New(Options{}).PNG(skirmish())
	if !bytes.Equal(first, again) || !bytes.Equal(first, fresh) {
		t.Error("the same view drew differently after other pictures")
	}
}

// TestCalloutsLeaveTypeLettersClear: in the crowded twelve-clan battle, no
// piece's label and no melee result is placed over another piece's type
// letters (the code in the middle of its base), which say what it is.
func TestCalloutsLeaveTypeLettersClear(t *testing.T) {
	r := New(Options{})
	var covered []string
	r.laidOut = func(s *scene) {
		for _, ps := range s.pieces {
			if ps.p.Kind == "" {
				continue
			}
			f := s.fs.kind
			hw, hh := f.width(ps.p.Kind)/2, f.ascent*0.36
			code := rect{ps.c.x - hw, ps.c.y - hh, ps.c.x + hw, ps.c.y + hh}
			for _, l := range s.labels {
				if l.at.overlap(code) > 0 {
					covered = append(covered, fmt.Sprintf("%s's code %s under the label %s", ps.p.Label, ps.p.Kind, l.text))
				}
			}
			for _, p := range s.plates {
				if p.at.overlap(code) > 0 {
					covered = append(covered, fmt.Sprintf("%s's code %s under the result %s", ps.p.Label, ps.p.Kind, p.text))
				}
			}
		}
	}
	if _, err := r.PNG(battle12()); err != nil {
		t.Fatal(err)
	}
	if len(covered) > 0 {
		t.Errorf("%d type codes are covered:\n%s", len(covered), strings.Join(covered, "\n"))
	}
}

// whole returns c's picture with every row its layers show copied onto
// it, as the PNG has them.
func (c *canvas) whole() *image.RGBA {
	c.touchRows(c.img, 0, len(c.touched))
	return c.img
}

// TestKeptRowsAsPainted draws each test scene at the bot's size and at
// the default one, then again with every row of its static layer and
// legend copied onto the picture: the files must be the same, byte for
// byte. They differ if anything is painted on a row that its pieces,
// marks and labels did not say they reach, as that row is then taken
// from the layer as it is.
func TestKeptRowsAsPainted(t *testing.T) {
	for _, opts := range []Options{{}, {Width: 2 * PreviewWidth, SeenAt: PreviewWidth}} {
		r, all := New(opts), New(opts)
		all.copyAll = true
		for _, sc := range scenes() {
			for step := range 2 { // a frame drawn, then the same kept
				got, err := r.PNG(sc.view())
				if err != nil {
					t.Fatal(err)
				}
				want, err := all.PNG(sc.view())
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%s at %d pixels, picture %d: the rows kept from the layers and those all painted differ", sc.name, r.Width(), step)
				}
			}
		}
	}
}
