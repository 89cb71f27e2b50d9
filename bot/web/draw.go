package web

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"sync"

	"github.com/rhapsode/rhapsode/engine"
)

// Drawing a picture takes tens of milliseconds and some megabytes, and a
// visitor can ask for any step of any published book. The pages draw on
// a small pool of painters of their own, so that the bot's steps, which
// draw on the router's, never wait behind them; a few requests more may
// wait for a painter, and the rest are told to come back shortly (503).
// What was drawn is kept, keyed by what the picture shows (a digest of
// its view), up to a number of bytes.

// Pool sizes: the painters, the requests that may wait for one, and the
// bytes of pictures kept.
const (
	defaultPainters = 1
	maxWaiting      = 8
	maxPictureBytes = 24 << 20
)

// errBusy is a picture not drawn because every painter and every place
// in the queue is taken.
var errBusy = errors.New("web: every painter is busy")

// pictureKey is what a picture shows: a digest of its view.
type pictureKey [sha256.Size]byte

// gallery is the pictures drawn, the newest last, and the painters.
type gallery struct {
	painters chan struct{}
	waiting  chan struct{}

	mu      sync.Mutex
	pics    map[pictureKey][]byte
	order   []pictureKey
	bytes   int
	pending map[pictureKey]*drawCall
}

type drawCall struct {
	done chan struct{}
	pic  []byte
	err  error
}

func newGallery(painters int) *gallery {
	if painters <= 0 {
		painters = defaultPainters
	}
	return &gallery{painters: make(chan struct{}, painters), waiting: make(chan struct{}, painters+maxWaiting),
		pics: map[pictureKey][]byte{}, pending: map[pictureKey]*drawCall{}}
}

// keyOf is the digest of what v shows.
func keyOf(v engine.View) (pictureKey, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return pictureKey{}, err
	}
	return sha256.Sum256(data), nil
}

// picture returns v's picture, drawing it with draw on one of the
// gallery's painters unless it was drawn before, or is being drawn. It
// fails with errBusy when the queue is full.
func (gl *gallery) picture(ctx context.Context, v engine.View, draw func(engine.View) ([]byte, error)) ([]byte, error) {
	key, err := keyOf(v)
	if err != nil {
		return nil, err
	}
	gl.mu.Lock()
	if pic, ok := gl.pics[key]; ok {
		gl.mu.Unlock()
		return pic, nil
	}
	if c, ok := gl.pending[key]; ok {
		gl.mu.Unlock()
		select {
		case <-c.done:
			return c.pic, c.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	select {
	case gl.waiting <- struct{}{}:
	default:
		gl.mu.Unlock()
		return nil, errBusy
	}
	c := &drawCall{done: make(chan struct{})}
	gl.pending[key] = c
	gl.mu.Unlock()

	// The queue is short and a picture is drawn in well under a second,
	// so the drawer waits its turn whatever its own request does: others
	// may be waiting for the same picture.
	gl.painters <- struct{}{}
	c.pic, c.err = draw(v)
	<-gl.painters
	<-gl.waiting
	gl.mu.Lock()
	delete(gl.pending, key)
	if c.err == nil {
		gl.keep(key, c.pic)
	}
	gl.mu.Unlock()
	close(c.done)
	return c.pic, c.err
}

// keep adds a picture, dropping the oldest while the gallery holds more
// than maxPictureBytes. gl.mu is held.
func (gl *gallery) keep(key pictureKey, pic []byte) {
	if _, ok := gl.pics[key]; ok {
		return
	}
	gl.pics[key] = pic
	gl.order = append(gl.order, key)
	gl.bytes += len(pic)
	for gl.bytes > maxPictureBytes && len(gl.order) > 1 {
		old := gl.order[0]
		gl.bytes -= len(gl.pics[old])
		delete(gl.pics, old)
		gl.order = gl.order[1:]
	}
}
