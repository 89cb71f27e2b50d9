package engine

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
)

// Await is one player a game waits for: whose turn it is, who must answer
// a challenge, who must spend an impact.
type Await struct {
	Player PlayerID
	// Who names what the player acts for, in game terms ("the Myrmidons").
	Who string
	// Round is the round of play the wait belongs to, where the rules
	// count rounds: the same player awaited for the same thing in a new
	// round is called anew.
	Round int
	// Task says what he must do, in words that follow "to" ("take the
	// Myrmidons' turn").
	Task string
	// Timeout is the command that stands for the player when a deadline
	// passes without a word from him (a clan standing aloof). Its Actor
	// is Player. A zero Name means the game has nothing to do for him.
	Timeout Command
}

// Same reports whether a and b are one player awaited for one thing: the
// same task of the same round, for the same side. (Their timeouts may
// differ.)
func (a Await) Same(b Await) bool {
	return a.Player == b.Player && a.Who == b.Who && a.Round == b.Round && a.Task == b.Task
}

// Awaiter is implemented by rule systems that can say whom a game waits
// for, so that a transport can call players to their turns and hold
// them to deadlines. Awaited reads s and returns the players awaited now,
// none when the game waits on no one in particular (gathering, over).
type Awaiter interface {
	Awaited(s State) []Await
}

// Mastered is implemented by rule systems whose games have a game master
// (the player who opened the book), who alone may take steps back, end
// the game early and set its deadlines.
type Mastered interface {
	Master(s State) PlayerID
}

// RoleMastered is implemented by rule systems whose games name a role
// whose members share the game master's rights (a saga's Herald role).
type RoleMastered interface {
	MasterRole(s State) string
}

// IsMaster reports whether c's actor is g's game master: the transport
// vouches for him (c.Master), he opened the game, or he holds the role
// the game names.
func (g *Game) IsMaster(c Command) bool {
	if c.Master {
		return true
	}
	if m, ok := g.Rules.(Mastered); ok && m.Master(g.State) == c.Actor {
		return true
	}
	rm, ok := g.Rules.(RoleMastered)
	if !ok {
		return false
	}
	role := rm.MasterRole(g.State)
	return role != "" && slices.Contains(c.Roles, role)
}

// Permit refuses c, which spec describes, when spec is flagged
// [MasterOnly] and c's actor is not g's game master: the table checks it
// before the rules see the command.
func (g *Game) Permit(spec CommandSpec, c Command) error {
	if c.Directive || !spec.Is(MasterOnly) || g.IsMaster(c) {
		return nil
	}
	who := "the player who opened it"
	if m, ok := g.Rules.(Mastered); ok && m.Master(g.State) != "" {
		who = string(m.Master(g.State))
	}
	title := "game master"
	if t, ok := g.Rules.(interface{ RefereeTitle() string }); ok {
		title = t.RefereeTitle()
	}
	return Refuse("", "Only the book's %s (%s) may give /%s.", title, who, spec.Name)
}

// Completion is one value offered for an option as a player types it.
type Completion struct {
	// Value is what the option receives; Label is what the player sees.
	Value string
	Label string
}

// Candidate is a value a rule system would offer for an option, before
// it is matched against what the player typed.
type Candidate struct {
	Completion
	// Names are what typed text is matched against: a piece's short name
	// and its full name, say.
	Names []string
	// Rank orders candidates by how likely the player means them, lower
	// first.
	Rank int
}

// Ranked returns the candidates that match typed, best first: by Rank,
// and within a rank those with a name that begins with typed before
// those with a name that only holds it. Matching ignores case; empty
// typed text matches everything.
func Ranked(typed string, cands []Candidate) []Completion {
	typed = strings.ToLower(strings.TrimSpace(typed))
	type match struct {
		c     Candidate
		inner int // 0 for a name beginning with typed, 1 for one holding it
	}
	var ms []match
	for _, c := range cands {
		inner := -1
		for _, n := range c.Names {
			n = strings.ToLower(n)
			switch {
			case strings.HasPrefix(n, typed):
				inner = 0
			case inner < 0 && strings.Contains(n, typed):
				inner = 1
			}
		}
		if inner >= 0 {
			ms = append(ms, match{c, inner})
		}
	}
	slices.SortStableFunc(ms, func(a, b match) int {
		return cmp.Or(cmp.Compare(a.c.Rank, b.c.Rank), cmp.Compare(a.inner, b.inner))
	})
	out := make([]Completion, len(ms))
	for i, m := range ms {
		out[i] = m.c.Completion
	}
	return out
}

// Completer is implemented by rule systems that can suggest values for
// options of kinds such as [OptElement] and [OptHero]. Complete returns
// the values of option in command that match typed (a prefix or part of a
// name, in any case), the ones the rules would allow for actor first;
// transports cut the list to what they can show.
type Completer interface {
	Complete(s State, actor PlayerID, command, option, typed string) []Completion
}

// Measurer is implemented by rule systems that lend players a tape
// measure: /measure, which changes nothing. Measure answers from (and to,
// when given: each a piece's name or a place on the board) in the
// board's own units: the distance between the two, or with from a piece
// alone, how far it moves and shoots and what stands within that reach.
// A bad name or place is a [Refusal].
type Measurer interface {
	Measure(s State, actor PlayerID, from, to string) (string, error)
}

// Tape is a rule system's tape measure, typed on its state: embedded in
// the rule system beside its [Rulebook], it makes it a [Measurer].
type Tape[S State] func(s S, actor PlayerID, from, to string) (string, error)

var _ Measurer = Tape[State](nil)

// Measure answers /measure through t.
func (t Tape[S]) Measure(st State, actor PlayerID, from, to string) (string, error) {
	s, ok := st.(S)
	if !ok || t == nil {
		return "", Refuse("", "This game has no tape measure.")
	}
	return t(s, actor, from, to)
}

// WaitingCaption says in one line whom a game waits for and for what
// ("Waiting for alice to move Gondor; bob to …"), for a picture's
// caption; "" when it waits for no one.
func WaitingCaption(awaits []Await) string {
	if len(awaits) == 0 {
		return ""
	}
	who := make([]string, len(awaits))
	for i, a := range awaits {
		who[i] = fmt.Sprintf("%s to %s", a.Player, a.Task)
	}
	return "Waiting for " + strings.Join(who, "; ")
}
