package gwab

import (
	"fmt"

	"github.com/rhapsode/rhapsode/engine"
)

// Buttons: where the book asks one player a choice, its narration offers
// that choice as buttons too, each carrying the command it stands for.
// The text always says the command as well, for tables without buttons.

var (
	_ engine.Offering = ChallengeIssued{}
	_ engine.Offering = ImpactWon{}
	_ engine.Offering = MeleeDrawn{}
	_ engine.Offering = DuelExchange{}
	_ engine.Offering = Fired{}
	_ engine.Offering = JavelinThrown{}
)

func cmd(name string, opts ...string) engine.Command {
	c := engine.Command{Name: name}
	for i := 0; i+1 < len(opts); i += 2 {
		if c.Options == nil {
			c.Options = map[string]string{}
		}
		c.Options[opts[i]] = opts[i+1]
	}
	return c
}

// A challenged Hero's player accepts or declines (10.2.1); no one else
// may press for him.
func (b ChallengeIssued) Buttons() []engine.Button {
	return []engine.Button{
		{Label: "Accept", For: b.Player, Command: cmd("answer", "reply", "accept")},
		{Label: "Decline", For: b.Player, Command: cmd("answer", "reply", "decline")},
	}
}

// The victor of an impact spends it; the button spends it the default way,
// every stride on the loser (10.1.3).
func (b ImpactWon) Buttons() []engine.Button {
	return []engine.Button{{Label: fmt.Sprintf("Push %s back %s", b.TargetLabel, strideText(float64(b.Strides))),
		For: b.Player, Command: cmd("impact")}}
}

func (b MeleeDrawn) Buttons() []engine.Button    { return jokerButtons(b.Kept) }
func (b Fired) Buttons() []engine.Button         { return jokerButtons(b.Kept) }
func (b JavelinThrown) Buttons() []engine.Button { return jokerButtons(b.Kept) }

// In a duel the Hero an impact went against fights on or withdraws
// (10.2.3); the event does not name his player, so anyone may press and
// the rules refuse all but him.
func (b DuelExchange) Buttons() []engine.Button {
	out := jokerButtons(b.Kept)
	if b.Pushed != "" {
		out = append(out,
			engine.Button{Label: "Fight on", Command: cmd("answer", "reply", "fight")},
			engine.Button{Label: "Withdraw", Command: cmd("answer", "reply", "withdraw")})
	}
	return out
}

// jokerButtons offers each clan that has just kept a Joker the one favour
// that needs no other choice: acting now, out of the sequence (11.1).
// The others (draw, defer, double, escape, leave) name an element or
// end the clan's book, and are given with /joker.
func jokerButtons(kept []Kept) []engine.Button {
	var out []engine.Button
	for _, k := range kept {
		if k.Player == "" {
			continue
		}
		out = append(out, engine.Button{Label: fmt.Sprintf("%s: play the Joker, act now", k.Name), For: k.Player,
			Command: cmd("joker", "use", "jump", "clan", string(k.Clan))})
	}
	return out
}
