package gwab

import (
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

func aStartedBook(t *testing.T) *engine.Game {
	g, _ := play(t,
		opt("alice", "book open", "mode", "practice"),
		opt("alice", "clan raise", "name", "Myrmidons", "hero", "Achilles", "side", "protagonist", "warbands", "spear,spear,bow"),
		opt("alice", "clan raise", "name", "Lycians", "hero", "Sarpedon", "side", "antagonist", "warbands", "sword,javelin,sling"),
		opt("bob", "clan raise", "name", "Trojans", "hero", "Hector", "side", "antagonist", "warbands", "spear,sword,bow"),
		opt("bob", "clan raise", "name", "Achaeans", "hero", "Ajax", "side", "protagonist", "warbands", "spear,spear,javelin"),
		directive("alice", "stack", "sequence", "KS", "QS", "JS", "10S"),
		opt("alice", "book start"),
	)
	return g
}

func TestAwaitedFollowsTheBook(t *testing.T) {
	g := aStartedBook(t)
	r := New()
	a := r.Awaited(g.State)
	if len(a) != 1 || a[0].Player != "alice" || a[0].Who != "the Myrmidons" || a[0].Round != 1 || a[0].Timeout.Name != "aloof" || a[0].Timeout.Actor != "alice" {
		t.Fatalf("at the start the book awaits %+v", a)
	}
	if r.Master(g.State) != "alice" {
		t.Errorf("the master is %q", r.Master(g.State))
	}
	enginetest.Apply(t, g, a[0].Timeout) // the stand-in is a command the rules take
	if a := r.Awaited(g.State); len(a) != 1 || a[0].Player != "alice" || a[0].Who != "the Lycians" {
		t.Fatalf("after the Myrmidons stood aloof the book awaits %+v", a)
	}
	if a := r.Awaited(aBookGathering(t).State); a != nil {
		t.Errorf("a gathering book awaits %+v", a)
	}
}

func aBookGathering(t *testing.T) *engine.Game {
	g, _ := play(t, opt("alice", "book open", "mode", "practice"))
	return g
}

func TestCompleteOffersTheLikelyFirst(t *testing.T) {
	g := aStartedBook(t)
	r := New()
	own := r.Complete(g.State, "alice", "move", "element", "")
	if len(own) == 0 || !strings.HasPrefix(own[0].Value, "MYR-") {
		t.Fatalf("alice moving is offered %v first", own)
	}
	for _, c := range own[:7] {
		if !strings.HasPrefix(c.Value, "MYR-") {
			t.Errorf("a Myrmidon should come before %s (the clan whose turn it is)", c.Value)
		}
	}
	target := r.Complete(g.State, "alice", "fire", "target", "")
	if strings.HasPrefix(target[0].Value, "MYR-") || strings.HasPrefix(target[0].Value, "ACH-") {
		t.Errorf("a target is offered from alice's own side first: %v", target[0])
	}
	heroes := r.Complete(g.State, "alice", "challenge", "hero", "")
	if heroes[0].Value != "TRO-H" && heroes[0].Value != "ACH-H" {
		t.Errorf("a challenge offers %v first, not an enemy Hero", heroes[0])
	}
	typed := r.Complete(g.State, "bob", "move", "element", "hec")
	if len(typed) == 0 || typed[0].Value != "TRO-H" || typed[0].Label != "Hector (TRO-H)" {
		t.Errorf("typing hec offers %v", typed)
	}
	list := r.Complete(g.State, "alice", "impact", "push", "TRO-W1,tro-w")
	if len(list) == 0 || !strings.HasPrefix(list[0].Value, "TRO-W1,TRO-W") {
		t.Errorf("a list completes its last name: %v", list)
	}
}

func TestChallengeOffersButtonsToTheChallenged(t *testing.T) {
	b := ChallengeIssued{ChallengerName: "Achilles", ChallengedName: "Hector", Player: "bob"}
	msgs := New().Narrate(engine.Event{Seq: 1, Body: b})
	if len(msgs) != 1 || len(msgs[0].Buttons) != 2 {
		t.Fatalf("a challenge narrates %+v", msgs)
	}
	for _, btn := range msgs[0].Buttons {
		if btn.For != "bob" || btn.Command.Name != "answer" {
			t.Errorf("button %+v", btn)
		}
	}
	if got := msgs[0].Buttons[0].Command.Opt("reply") + "," + msgs[0].Buttons[1].Command.Opt("reply"); got != "accept,decline" {
		t.Errorf("the buttons reply %s", got)
	}
	kept := MeleeDrawn{Kept: []Kept{{Clan: "MYR", Name: "Myrmidons", Player: "alice"}, {Clan: "TRO", Name: "Trojans"}}}
	if btns := kept.Buttons(); len(btns) != 1 || btns[0].For != "alice" || btns[0].Command.Opt("use") != "jump" || btns[0].Command.Opt("clan") != "MYR" {
		t.Errorf("kept Jokers offer %+v", btns)
	}
}

// TestCompleteTerrainByName: taking terrain off the table, the game master
// is offered the table's terrain by name as he types.
func TestCompleteTerrainByName(t *testing.T) {
	g, _ := play(t,
		opt("alice", "book open", "mode", "practice", "terrain", "on"),
		opt("alice", "setup terrain", "kind", "rough", "where", "1,1 4,1 4,4", "name", "olive grove"),
		opt("alice", "setup terrain", "kind", "obstacle", "where", "10,10 14,10", "name", "ditch"),
	)
	got := New().Complete(g.State, "alice", "setup clear", "name", "ol")
	if len(got) != 1 || got[0].Value != "olive grove" {
		t.Fatalf("typing ol offers %+v", got)
	}
	if all := New().Complete(g.State, "alice", "setup clear", "name", ""); len(all) != 2 {
		t.Errorf("nothing typed offers %+v", all)
	}
}

// TestAwaitedSuccessor checks the deadline of a successor's choice
// (10.1.3): the book awaits the fallen Hero's player, and what stands for
// him is the first Companion standing, a command the rules take.
func TestAwaitedSuccessor(t *testing.T) {
	g := aStartedBook(t)
	enginetest.Apply(t, g, directive("alice", "wound", "MYR-H", "4"))
	a := New().Awaited(g.State)
	if len(a) != 1 || a[0].Player != "alice" || a[0].Timeout.Name != "successor" || a[0].Timeout.Opt("companion") != "MYR-C1" {
		t.Fatalf("with Achilles fallen the book awaits %+v; want alice, standing in with /successor companion:MYR-C1", a)
	}
	enginetest.Apply(t, g, a[0].Timeout) // the stand-in is a command the rules take
	if h := g.State.(*State).Clan("MYR").Hero; h != "MYR-C1" {
		t.Errorf("after the deadline the Myrmidons are led by %s, want MYR-C1", h)
	}
}
