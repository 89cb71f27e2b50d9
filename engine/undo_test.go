package engine

import (
	"encoding/json"
	"slices"
	"testing"
)

// rewPack is pack with undo whose state keeps a step compactly
// ([Rewinder]): notes only grow, so a rewind keeps how many there were.
// "notes A B ..." notes each in one step of several events.
type rewPack struct{ pack }

type rewState struct{ packState }

type noteRewind struct {
	notes int
	hand  []Card
	rolls []int
}

func (s *rewState) Clone() State {
	return &rewState{*s.packState.Clone().(*packState)}
}

func (s *rewState) Since(before State) Rewind {
	b := before.(*rewState)
	return &noteRewind{notes: len(b.Notes), hand: slices.Clone(b.Hand), rolls: slices.Clone(b.Rolls)}
}

func (r *noteRewind) Rewind(s State) State {
	notes := s.(*rewState).Notes[:r.notes]
	return &rewState{packState{Hand: slices.Clone(r.hand), Rolls: slices.Clone(r.rolls), Notes: slices.Clone(notes)}}
}

func (rewPack) NewState() State { return &rewState{} }
func (rewPack) DecodeState(b []byte) (State, error) {
	s := &rewState{}
	return s, json.Unmarshal(b, s)
}
func (p rewPack) Decide(tx *Tx, c Command) error {
	if c.Name == "notes" {
		for _, a := range c.Args {
			if err := tx.Emit(noted{a}); err != nil {
				return err
			}
		}
		return nil
	}
	return p.pack.Decide(tx, c)
}

// TestUndoKeptCompact takes steps back in games whose rules keep the step
// before as what it changed: the game a decision hands back, a game
// restored from a snapshot, and a game that applied a step's events one
// by one, made compact after each as if the step had ended there.
func TestUndoKeptCompact(t *testing.T) {
	rules := rewPack{pack{undo: true}}
	notes := func(g *Game) []string { return g.State.(*rewState).Notes }
	g := NewGame(rules)
	if err := g.Apply(g.Open("tester", 1)); err != nil {
		t.Fatal(err)
	}
	play(t, g, cmd("note", "a"))
	res, err := g.Decide(cmd("notes", "b", "c", "d"))
	if err != nil {
		t.Fatal(err)
	}
	after := res.After
	if after.undo == nil || after.undo.rewind == nil || after.undo.State != nil {
		t.Fatalf("the decided game keeps %+v for /undo, want the step's rewind alone", after.undo)
	}

	// A snapshot writes the state before the step whole, as the game
	// that applied the events has it.
	applied := g.Clone()
	for _, e := range res.Events {
		if err := applied.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	want, err := applied.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	got, err := after.Snapshot()
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != string(want) {
		t.Fatalf("the decided game's snapshot is\n%s\nwant\n%s", got, want)
	}
	restored, err := Restore(rules, got)
	if err != nil {
		t.Fatal(err)
	}
	if restored.undo == nil || restored.undo.rewind == nil {
		t.Fatalf("the restored game keeps %+v for /undo, want the step's rewind", restored.undo)
	}

	midway := g.Clone()
	for _, e := range res.Events {
		if err := midway.Apply(e); err != nil {
			t.Fatal(err)
		}
		midway.Compact()
	}

	for name, h := range map[string]*Game{"decided": after, "restored": restored, "compacted midway": midway} {
		play(t, h, cmd("undo"))
		if got := notes(h); !slices.Equal(got, []string{"a"}) {
			t.Errorf("%s: after /undo the notes are %v, want [a]", name, got)
		}
		if _, err := h.Decide(cmd("undo")); err == nil {
			t.Errorf("%s: a step was taken back twice", name)
		}
	}
}
