package engine

import (
	"fmt"
	"slices"
	"testing"
)

// hookState is the state of a rule system made to test the Rulebook's
// hooks: who opened it, and whether it has ended.
type hookState struct {
	Master PlayerID
	Ended  bool
}

func (s *hookState) Apply(Event) error { return nil }
func (s *hookState) Clone() State      { c := *s; return &c }
func (s *hookState) Over() bool        { return s.Ended }

func hookBook() *Rulebook[*hookState] {
	return &Rulebook[*hookState]{
		Key: "hooks", Name: "Hooks",
		Blank: func() *hookState { return &hookState{Master: "gm"} },
		CommandRules: []Rule[*hookState]{
			{CommandSpec: CommandSpec{Name: "act"}, Run: func(tx *Tx, s *hookState, c Command) error { return nil }},
			{CommandSpec: CommandSpec{Name: "look", Flags: Reads}, Run: func(tx *Tx, s *hookState, c Command) error { return nil }},
			{CommandSpec: CommandSpec{Name: "setup place", Flags: SetsUp | MasterOnly}, Run: func(tx *Tx, s *hookState, c Command) error { return nil }},
		},
		Referee:     func(s *hookState) PlayerID { return s.Master },
		MasterTitle: "referee",
		Waits: func(s *hookState) []Await {
			return []Await{{Player: "alice", Task: "move", Timeout: Command{Name: "done"}}, {Player: "gm", Task: "decide"}}
		},
		Ended: func(s *hookState) error { return Refuse("", "It is over.") },
		Undo:  "rolled no die",
	}
}

// TestRulebookHooks: the engine lists /undo before the set-up commands
// with help in the system's words, names the referee, gives each awaited
// timeout its player, and refuses all but reading once the game is over.
func TestRulebookHooks(t *testing.T) {
	b := hookBook()
	var names []string
	for _, c := range b.Commands() {
		names = append(names, c.Name)
	}
	if want := []string{"act", "look", "undo", "setup place"}; !slices.Equal(names, want) {
		t.Errorf("commands %q, want %q", names, want)
	}
	g := NewGame(b)
	if spec, _ := g.Spec("undo"); spec.Help != "Take back the last step, if it rolled no die. Referee only." || !spec.Is(TakesBack) || !spec.Is(MasterOnly) {
		t.Errorf("/undo is %+v", spec)
	}
	if m := b.Master(g.State); m != "gm" {
		t.Errorf("the referee is %q, want gm", m)
	}
	aw := b.Awaited(g.State)
	if len(aw) != 2 || aw[0].Timeout.Actor != "alice" || aw[1].Timeout.Actor != "" {
		t.Errorf("awaited %+v: a named timeout acts for its player, and only it", aw)
	}
	if c := b.Caption(g.State.(*hookState)); c != "Waiting for alice to move; gm to decide" {
		t.Errorf("caption %q", c)
	}
	for _, over := range []bool{false, true} {
		g.State.(*hookState).Ended = over
		for _, name := range []string{"act", "look"} {
			_, err := g.Decide(Command{Actor: "alice", Name: name})
			refused := err != nil
			if want := over && name == "act"; refused != want {
				t.Errorf("over %v, /%s: refused %v (%v), want %v", over, name, refused, err, want)
			}
		}
	}
}

func ExampleDecimal() {
	for _, f := range []float64{6, 6.5, 0.125, 7.0312, 2.625, 18.9283, -0.0004} {
		fmt.Print(Decimal(f), " ")
	}
	fmt.Println()
	// Output: 6 6.5 0.125 7.03 2.625 18.93 0
}

func ExampleJoinOr() {
	fmt.Println(JoinOr([]string{"hits:"}), "|", JoinOr([]string{"at:", "facing:"}), "|", JoinOr([]string{"a:", "b:", "c:"}))
	// Output: hits: | at: or facing: | a:, b: or c:
}

// TestReaders: a bad facing or place is refused in one form, whatever
// the rule system.
func TestReaders(t *testing.T) {
	if _, err := ReadFacing("up"); err == nil || err.Error() != `"up" is not a facing; use N, NE, E, SE, S, SW, W, NW or degrees clockwise from north.` {
		t.Errorf("ReadFacing(up): %v", err)
	}
	if h, err := ReadFacingOr(" ", 90); err != nil || h != 90 {
		t.Errorf("ReadFacingOr(empty) = %v, %v; want the default", h, err)
	}
	if _, err := ReadPoint("to", "abc", "inches"); err == nil || err.Error() != "to:abc is not a place on the table; write x,y in inches, like 30,6, as the board's ruler reads." {
		t.Errorf("ReadPoint(abc): %v", err)
	}
	if p, err := ReadPoint("at", "3,4.5", "strides"); err != nil || p != (Vec{X: 3, Y: 4.5}) {
		t.Errorf("ReadPoint(3,4.5) = %v, %v", p, err)
	}
	if _, err := RulingReason(Command{Options: map[string]string{"reason": "  "}}); err == nil {
		t.Error("a ruling with a blank reason is taken")
	}
}
