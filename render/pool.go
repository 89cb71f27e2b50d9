package render

// spares keeps up to a few values for reuse. Unlike a sync.Pool it is
// not emptied by the garbage collector: what it keeps (font faces with
// their caches of drawn glyphs, picture-sized buffers) costs far more to
// make again than to hold.
type spares[T any] struct{ ch chan T }

func newSpares[T any](n int) spares[T] { return spares[T]{make(chan T, n)} }

// get returns a kept value, or false when there is none.
func (s spares[T]) get() (T, bool) {
	select {
	case x := <-s.ch:
		return x, true
	default:
		var zero T
		return zero, false
	}
}

// put keeps x if there is room, and otherwise lets it go.
func (s spares[T]) put(x T) {
	select {
	case s.ch <- x:
	default:
	}
}

// drop lets every kept value go.
func (s spares[T]) drop() {
	for {
		if _, ok := s.get(); !ok {
			return
		}
	}
}
