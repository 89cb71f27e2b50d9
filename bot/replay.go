package bot

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"image"
	"image/color/palette"
	"image/draw"
	"image/gif"
	"image/png"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// A replay: /book replay posts the channel's book as an animated picture,
// a frame for each step that changed the board, each frame the board as
// it stood after that step with the step's marks and the header saying
// whose turn came next, so that a club can watch last week's battle again.

var replaySpec = engine.CommandSpec{Name: "book replay", Flags: engine.Reads,
	Help:    "An animated picture of this channel's book, a frame for each step, to watch again; from: and to: choose the steps.",
	Example: "/book replay from:10 to:40",
	Options: []engine.OptionSpec{
		{Name: "from", Help: "the first step to show, counting the book's opening as step 1", Kind: engine.OptInt},
		{Name: "to", Help: "the last step to show (default: the last)", Kind: engine.OptInt},
	}}

const (
	// maxReplayBytes keeps a replay within what Discord takes as an
	// attachment everywhere: 10 MiB for a bot on a server without boosts,
	// less what the rest of the message needs.
	maxReplayBytes = 8 << 20
	// maxReplayFrames bounds a replay's frames; a longer book is shown by
	// steps spread evenly over it, its last step always among them.
	maxReplayFrames = 120
	frameDelay      = 120 // hundredths of a second a frame stays
	lastFrameDelay  = 400
)

// replay answers /book replay with an animated GIF of the channel's newest
// book.
func (r *Router) replay(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	rend := r.cfg.ReplayRenderer
	if rend == nil {
		rend = r.cfg.Renderer
	}
	if rend == nil {
		return nil, engine.Refuse("", "This table draws no pictures, so there is nothing to replay.")
	}
	info, err := r.cfg.Store.LatestGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No book has been played in this channel yet.")
	}
	if err != nil {
		return nil, err
	}
	from, err := req.Command.Int("from", 1)
	if err != nil {
		return nil, err
	}
	to, err := req.Command.Int("to", 0)
	if err != nil {
		return nil, err
	}
	rp, err := r.Replay(ctx, rend, info, from, to)
	if err != nil {
		return nil, err
	}
	return []Reply{{User: req.User, Text: rp.Caption(), Image: rp.GIF}}, nil
}

// A Replayed is a book's replay: the animated GIF and the steps its
// frames show, in order.
type Replayed struct {
	GIF   []byte
	Steps []int
}

// Caption says what a replay shows: the steps of its first and last
// frames and how many frames there are.
func (rp Replayed) Caption() string {
	pics := engine.Plural(len(rp.Steps), "picture", "pictures")
	if len(rp.Steps) == 1 {
		return fmt.Sprintf("The book, step %d, in %s.", rp.Steps[0], pics)
	}
	return fmt.Sprintf("The book, steps %d to %d, in %s.", rp.Steps[0], rp.Steps[len(rp.Steps)-1], pics)
}

// Replay draws the replay of the book info from step from to step to (0:
// its last) with rend: a frame for each step of the range that has a
// board to show, or, when they are more than maxReplayFrames or the GIF
// would pass maxReplayBytes, steps spread evenly over the range. A range
// outside the book or without a board is refused.
func (r *Router) Replay(ctx context.Context, rend Renderer, info store.Game, from, to int) (Replayed, error) {
	rs, ok := r.rules[info.Ruleset]
	if !ok {
		return Replayed{}, fmt.Errorf("game %d is played by unknown rules %q", info.ID, info.Ruleset)
	}
	viewer, ok := rs.(engine.Viewer)
	if !ok {
		return Replayed{}, engine.Refuse("", "%s books have no board to replay.", rs.Title())
	}
	recs, err := r.cfg.Store.Events(ctx, info.ID, 0, 0)
	if err != nil {
		return Replayed{}, err
	}
	events := make([]engine.Event, len(recs))
	for i, rec := range recs {
		if events[i], err = engine.DecodeRecord(rs, rec); err != nil {
			return Replayed{}, err
		}
	}
	// A first pass finds the steps of the range that have a board to
	// show; a second draws those chosen.
	var shown []int
	total, err := WalkSteps(rs, events, func(n int, g *engine.Game, step []engine.Event) error {
		if n < from || to > 0 && n > to || nothingToDraw(step) {
			return nil
		}
		if v := viewer.View(g, step); v.Width > 0 && v.Depth > 0 {
			shown = append(shown, n)
		}
		return nil
	})
	if err != nil {
		return Replayed{}, err
	}
	if to == 0 || to > total {
		to = total
	}
	if from < 1 || from > to {
		return Replayed{}, engine.Refuse("", "from: and to: must name steps from 1 to %d, from: no later than to:.", total)
	}
	if len(shown) == 0 {
		return Replayed{}, engine.Refuse("", "Those steps have no board to show: the armies take the table when the book starts.")
	}
	// A replay is drawn by one painter, like one picture at a time.
	select {
	case r.painters <- struct{}{}:
	case <-ctx.Done():
		return Replayed{}, ctx.Err()
	}
	defer func() { <-r.painters }()
	for n := min(len(shown), maxReplayFrames); ; n /= 2 {
		chosen := spread(shown, n)
		data, err := encodeReplay(rend, viewer, rs, events, chosen, r.names.view)
		if err != nil {
			return Replayed{}, err
		}
		if len(data) <= maxReplayBytes || n <= 2 {
			return Replayed{GIF: data, Steps: chosen}, nil
		}
	}
}

// WalkSteps plays events from the start of a game of rs and calls fn
// with each step's number (from 1), the game as the step left it, and the
// step's events. It returns the number of steps.
func WalkSteps(rs engine.Ruleset, events []engine.Event, fn func(n int, g *engine.Game, step []engine.Event) error) (int, error) {
	g := engine.NewGame(rs)
	n, start := 0, 0
	for i, e := range events {
		if err := g.Apply(e); err != nil {
			return n, err
		}
		if i+1 < len(events) && !events[i+1].Step {
			continue
		}
		n++
		if err := fn(n, g, events[start:i+1]); err != nil {
			return n, err
		}
		start = i + 1
	}
	return n, nil
}

// spread returns n of steps, evenly spread, the last always among them.
func spread(steps []int, n int) []int {
	if n >= len(steps) {
		return steps
	}
	out := make([]int, n)
	for i := range n {
		out[i] = steps[(i+1)*len(steps)/n-1]
	}
	return out
}

// encodeReplay plays the game again, draws the steps chosen, and writes
// them as an animated GIF.
//
// The pictures of a book are not all of one height: each frames the part
// of the table its step happened on. A GIF has one canvas, which decoders
// take from its header or its first frame, and a frame smaller than the
// canvas leaves the pixels the frame before it left. So the canvas is as
// tall as the tallest picture, and every frame covers all of it: the
// picture at the top, the rows below it in the picture's own background
// colour; each frame is disposed of before the next is drawn.
func encodeReplay(rend Renderer, viewer engine.Viewer, rs engine.Ruleset, events []engine.Event, chosen []int, name func(*engine.View)) ([]byte, error) {
	want := map[int]bool{}
	for _, n := range chosen {
		want[n] = true
	}
	var pics []*image.Paletted
	_, err := WalkSteps(rs, events, func(n int, g *engine.Game, step []engine.Event) error {
		if !want[n] {
			return nil
		}
		v := viewer.View(g, step)
		name(&v)
		pic, err := rend.PNG(v)
		if err != nil {
			return fmt.Errorf("replay: draw step %d: %w", n, err)
		}
		img, err := png.Decode(bytes.NewReader(pic))
		if err != nil {
			return fmt.Errorf("replay: read picture: %w", err)
		}
		frame, ok := img.(*image.Paletted)
		if !ok {
			frame = image.NewPaletted(img.Bounds(), palette.Plan9)
			draw.FloydSteinberg.Draw(frame, img.Bounds(), img, image.Point{})
		}
		pics = append(pics, frame)
		return nil
	})
	if err != nil {
		return nil, err
	}
	var canvas image.Rectangle
	for _, p := range pics {
		canvas = canvas.Union(image.Rect(0, 0, p.Rect.Dx(), p.Rect.Dy()))
	}
	anim := &gif.GIF{Config: image.Config{Width: canvas.Dx(), Height: canvas.Dy()}}
	for _, p := range pics {
		anim.Image = append(anim.Image, fill(p, canvas))
		anim.Delay = append(anim.Delay, frameDelay)
		anim.Disposal = append(anim.Disposal, gif.DisposalBackground)
	}
	if len(anim.Delay) > 0 {
		anim.Delay[len(anim.Delay)-1] = lastFrameDelay
	}
	var buf bytes.Buffer
	if err := gif.EncodeAll(&buf, anim); err != nil {
		return nil, fmt.Errorf("replay: encode: %w", err)
	}
	return buf.Bytes(), nil
}

// fill returns pic placed at the top left of a frame of size canvas, the
// rest of the frame in the colour of pic's bottom left pixel (its
// margin).
func fill(pic *image.Paletted, canvas image.Rectangle) *image.Paletted {
	b := pic.Rect
	if b.Min == (image.Point{}) && b.Size() == canvas.Size() {
		return pic
	}
	frame := image.NewPaletted(canvas, pic.Palette)
	bg := pic.ColorIndexAt(b.Min.X, b.Max.Y-1)
	for i := range frame.Pix {
		frame.Pix[i] = bg
	}
	for y := range b.Dy() {
		copy(frame.Pix[y*frame.Stride:], pic.Pix[y*pic.Stride:y*pic.Stride+b.Dx()])
	}
	return frame
}

// ImageKind names what an image attachment is: its file extension and
// media type, a board picture (PNG) or a replay (GIF).
func ImageKind(data []byte) (ext, mediaType string) {
	if bytes.HasPrefix(data, []byte("GIF8")) {
		return "gif", "image/gif"
	}
	return "png", "image/png"
}
