package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"math"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestTextContrast draws every scene, at the bot's sizes, with each face
// telling what it draws: every string must have at least 4.5:1 contrast
// (WCAG 2, 1.4.3) with the colour under its letters: its halo's, when it
// has one, else the colour most of the pixels under it had.
func TestTextContrast(t *testing.T) {
	views := scenes()
	for _, opts := range []Options{{}, {Width: 2 * PreviewWidth, SeenAt: PreviewWidth}} {
		r := New(opts)
		var mu sync.Mutex
		var scene string
		drawn, low := 0, map[string]bool{}
		r.faces.watch(func(d drawnText) {
			mu.Lock()
			defer mu.Unlock()
			drawn++
			if c := contrast(d.ink, d.under); c < minContrast {
				low[fmt.Sprintf("%s at %d px wide: %q in %s on %s: %.2f:1", scene, r.Width(), d.text, hex(d.ink), hex(d.under), c)] = true
			}
		})
		for _, sc := range views {
			scene = sc.name
			v := sc.view()
			c, err := r.draw(&v, false)
			if err != nil {
				t.Fatal(err)
			}
			r.done(c)
		}
		if drawn < 100 {
			t.Fatalf("only %d strings seen drawn", drawn)
		}
		var lines []string
		for l := range low {
			lines = append(lines, l)
		}
		sort.Strings(lines)
		if len(lines) > 0 {
			t.Errorf("%d strings of %d lack contrast:\n%s", len(lines), drawn, strings.Join(lines, "\n"))
		}
	}
}

func hex(c color.RGBA) string { return fmt.Sprintf("#%02X%02X%02X", c.R, c.G, c.B) }

// TestLongTitlesWrapRatherThanCut: at Discord's preview a title too long
// for one line is drawn whole on two, a caption too long for its face is
// drawn whole a size smaller, and only a title too long for two lines is
// cut, with an ellipsis.
func TestLongTitlesWrapRatherThanCut(t *testing.T) {
	r := New(Options{Width: 2 * PreviewWidth, SeenAt: PreviewWidth})
	var mu sync.Mutex
	drawn := map[string]*face{}
	for _, f := range []*face{r.faces.title, r.faces.caption, r.faces.legend} {
		f.seen = func(d drawnText) {
			mu.Lock()
			defer mu.Unlock()
			drawn[d.text] = f
		}
	}
	v := battle12()
	v.Title = "Gang Warfare in the Age of Bronze: the battle at the ships, round 7"
	v.Caption = "Next: the Lycians (dave), in round 7, who must move or stand aloof at once"
	long := v
	long.Title = strings.Repeat("Gang Warfare in the Age of Bronze ", 4)
	for _, v := range []engine.View{v, long} {
		c, err := r.draw(&v, false)
		if err != nil {
			t.Fatal(err)
		}
		r.done(c)
	}
	var lines []string
	for s, f := range drawn {
		if f == r.faces.title && strings.HasPrefix(v.Title, s) || f == r.faces.title && strings.HasSuffix(v.Title, s) {
			lines = append(lines, s)
		}
	}
	if drawn[v.Title] != nil || len(lines) != 2 {
		t.Errorf("the title %q was not drawn whole on two lines in the title's face: %q", v.Title, lines)
	}
	if f := drawn[v.Caption]; f != r.faces.legend {
		t.Errorf("the caption %q was not drawn whole a size smaller: %v", v.Caption, drawn)
	}
	cut := false
	for s, f := range drawn {
		cut = cut || f == r.faces.title && strings.HasSuffix(s, "…") && strings.Contains(long.Title, strings.TrimSuffix(s, "…"))
	}
	if !cut {
		t.Errorf("a title too long for two lines was not cut")
	}
}

// TestTextColoursContrast checks the inks against every ground they are
// drawn on, beyond what the scenes happen to show: a type letter on every
// group colour, a hex number on every ground a hex can have, a zone's name
// on its zone and on its halo.
func TestTextColoursContrast(t *testing.T) {
	check := func(what string, ink, on color.RGBA) {
		t.Helper()
		if c := contrast(ink, on); c < minContrast {
			t.Errorf("%s: %s on %s is %.2f:1", what, hex(ink), hex(on), c)
		}
	}
	for _, fill := range append(groupPalette[:], unknownGroup) {
		check("a type letter", textOn(fill), fill)
	}
	for _, ground := range []color.RGBA{tableSand, zoneFill[0], zoneFill[1], roughFill, coverFill, streamFill, roadFill} {
		check("a hex number", hexLabel, ground)
	}
	for side := range zoneText {
		check("a zone's name", zoneText[side], zoneFill[side])
		check("a zone's name", zoneText[side], white)
	}
	check("the ruler", rulerInk, tableSand)
	check("a wound pip's count", woundFill, white)
	// WCAG's own figures: black on white is 21:1; a colour on itself 1:1.
	if c := contrast(rgb(0), white); math.Abs(c-21) > 1e-9 {
		t.Errorf("black on white: %.4f:1, want 21:1", c)
	}
	if c := contrast(groupPalette[0], groupPalette[0]); c != 1 {
		t.Errorf("a colour on itself: %.4f:1", c)
	}
}

// TestCoverOverAsImageDraw lays random coverage masks over random
// alpha pictures, some hanging off their edges, and checks every byte
// against image/draw's DrawMask with an opaque source.
func TestCoverOverAsImageDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 300 {
		mask := randomMask(rng, image.Rect(rng.IntN(5), rng.IntN(5), 5+rng.IntN(30), 5+rng.IntN(20)))
		got := image.NewAlpha(image.Rect(0, 0, 30, 20))
		for i := range got.Pix {
			got.Pix[i] = uint8(rng.IntN(256))
		}
		want := image.NewAlpha(got.Rect)
		copy(want.Pix, got.Pix)
		r := image.Rect(rng.IntN(40)-10, rng.IntN(30)-10, 0, 0)
		r.Max = r.Min.Add(image.Pt(rng.IntN(30), rng.IntN(20)))
		mp := image.Pt(rng.IntN(10), rng.IntN(10))
		coverOver(got, r, mask, mp)
		draw.DrawMask(want, r, image.Opaque, image.Point{}, mask, mp, draw.Over)
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Fatalf("mask %v at %v over %v: differs from image/draw", mask.Rect, mp, r)
		}
	}
}

// TestPasteOverAsImageDraw draws sprites of every kind of pixel (clear,
// opaque, see-through, premultiplied) over random pictures, some hanging
// off their edges, and checks every byte against image/draw's Over.
func TestPasteOverAsImageDraw(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for range 300 {
		sp := image.NewRGBA(image.Rect(0, 0, 1+rng.IntN(12), 1+rng.IntN(12)))
		for i := 0; i < len(sp.Pix); i += 4 {
			a := [3]uint8{0, 0xFF, uint8(rng.IntN(256))}[rng.IntN(3)]
			for j := range 3 {
				sp.Pix[i+j] = uint8(rng.IntN(int(a) + 1))
			}
			sp.Pix[i+3] = a
		}
		got := image.NewRGBA(image.Rect(0, 0, 20, 15))
		for i := range got.Pix {
			got.Pix[i] = uint8(rng.IntN(256))
		}
		want := image.NewRGBA(got.Rect)
		copy(want.Pix, got.Pix)
		p := image.Pt(rng.IntN(30)-8, rng.IntN(25)-8)
		pasteOver(got, sp, p)
		draw.Draw(want, sp.Rect.Add(p), sp, image.Point{}, draw.Over)
		if !bytes.Equal(got.Pix, want.Pix) {
			t.Fatalf("a %v sprite at %v: differs from image/draw", sp.Rect.Size(), p)
		}
	}
}
