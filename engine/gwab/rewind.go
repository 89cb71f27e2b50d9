package gwab

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// A book's steps can be taken back (/undo), so the game keeps what its
// last step changed. Most steps move or mark a few elements of the
// ninety or so of a big battle: the rewind keeps those elements as they
// were, and a copy of the rest of the state, rather than a whole copy.

// rewind is what a step changed in a book (see [State.Since]).
type rewind struct {
	rest *State // the state before the step, without its elements
	// changed are the elements that differed, as they were before the
	// step, by their place in the list; or, when the step raised or
	// removed elements, the whole list as it was (isWhole).
	changed []changedElement
	whole   []Element
	isWhole bool
}

type changedElement struct {
	i  int
	at Element
}

var _ engine.Rewinder = (*State)(nil)

// Since returns what turns s back into before, s being before with one
// step applied.
func (s *State) Since(before engine.State) engine.Rewind {
	b := before.(*State)
	rest := *b
	rest.Elements = nil
	r := &rewind{rest: engine.Copy(&rest)}
	if len(b.Elements) != len(s.Elements) {
		r.whole, r.isWhole = slices.Clone(b.Elements), true
		return r
	}
	for i := range b.Elements {
		if b.Elements[i] != s.Elements[i] {
			r.changed = append(r.changed, changedElement{i, b.Elements[i]})
		}
	}
	return r
}

// Rewind returns a copy of s as it stood before the step.
func (r *rewind) Rewind(s engine.State) engine.State {
	out := engine.Copy(r.rest)
	if r.isWhole {
		out.Elements = slices.Clone(r.whole)
		return out
	}
	out.Elements = slices.Clone(s.(*State).Elements)
	for _, c := range r.changed {
		out.Elements[c.i] = c.at
	}
	return out
}
