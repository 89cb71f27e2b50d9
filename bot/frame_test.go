package bot

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"path/filepath"
	"testing"

	"github.com/rhapsode/rhapsode/render"
)

// TestPicturesHoldStillWhenNothingMoves: when the turn passes and no piece
// moves (a clan stands aloof), the next picture frames the table as the
// one before it: every label and piece stays on the same pixels, and only
// the header, which says whose turn it is, changes.
func TestPicturesHoldStillWhenNothingMoves(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "still.db"))
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true,
		Renderer: render.New(render.Options{Width: render.PreviewWidth, SeenAt: render.PreviewWidth})})
	doAll(t, r, practiceSetup)
	var pics []image.Image
	for _, line := range []string{"@alice /aloof", "@bob /aloof"} {
		reps := do(t, r, line)
		if len(reps) == 0 || reps[0].Image == nil {
			t.Fatalf("%s: no picture in %+v", line, reps)
		}
		img, err := png.Decode(bytes.NewReader(reps[0].Image))
		if err != nil {
			t.Fatal(err)
		}
		pics = append(pics, img)
	}
	a, b := pics[0], pics[1]
	if a.Bounds() != b.Bounds() {
		t.Fatalf("the pictures are %v and %v", a.Bounds(), b.Bounds())
	}
	// The header is the top band (this book's long title takes two lines,
	// so a fifth of the picture); below it nothing may differ (beyond the
	// small shifts of colour a picture's own palette makes).
	header := a.Bounds().Dy() / 5
	lowest := -1
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			if differ(a.At(x, y), b.At(x, y)) {
				lowest = y
				break
			}
		}
	}
	if lowest < 0 {
		t.Fatal("the two pictures are the same: the header should name the next clan")
	}
	if lowest >= header {
		t.Errorf("the pictures differ down to row %d of %d: the frame moved although no piece did", lowest, a.Bounds().Dy())
	}
}

// differ reports whether two pixels differ by more than a palette's
// rounding: a label moved puts ink where paper was.
func differ(a, b color.Color) bool {
	ar, ag, ab, _ := a.RGBA()
	br, bg, bb, _ := b.RGBA()
	d := func(x, y uint32) uint32 {
		if x > y {
			return (x - y) >> 8
		}
		return (y - x) >> 8
	}
	return max(d(ar, br), d(ag, bg), d(ab, bb)) > 40
}
