package discord

import (
	"slices"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// vocabulary is the one name of each meaning the rule systems share in
// their options. Discord merges a command's options across the systems
// (one /ruling for all five), so a name that means two things, or two
// names for one thing, shows every player a muddle. Names a system takes
// from its own rules (GWAB's element:, the others' unit: for the piece
// that acts) are its own and not listed; the game master's commands,
// which work the same in every system, speak of a piece.
var vocabulary = []struct {
	name string // the meaning's one name
	what string // the meaning, for the failure message
	// kind is what every option of the name reads (a piece, a place),
	// and master, when set, that only the game master's commands take it.
	kind   engine.OptionKind
	master bool
	// in are the commands that carry the meaning, where a system has
	// them: each takes the name and none of not. only, when set, are the
	// only commands the name may appear in.
	in   []string
	not  []string
	only []string
}{
	{name: "piece", what: "the piece a game master's command is on", kind: engine.OptElement, master: true,
		in: []string{"ruling", "setup place"}, not: []string{"unit", "element"}},
	{name: "reason", what: "why, for the log",
		in: []string{"ruling"}, not: []string{"why", "note"}},
	{name: "reply", what: "the answer to the question the game waits on",
		in: []string{"answer"}, not: []string{"choice", "answer", "response"}, only: []string{"answer"}},
	{name: "at", what: "where a piece stands or is set, or the place a command names", kind: engine.OptPoint,
		in: []string{"ruling", "setup place"}, not: []string{"to", "position", "square", "hex"}},
	{name: "to", what: "where a moving piece ends its move", kind: engine.OptPoint,
		in: []string{"move"}, not: []string{"at", "dest", "destination"},
		only: []string{"move", "drive", "dismount", "detach", "answer"}},
}

// TestOneNameOneMeaning holds every registered rule system's options to
// the vocabulary: no meaning goes by two names, and no listed name
// carries a second meaning (another kind of value, or a command outside
// the meaning's own).
func TestOneNameOneMeaning(t *testing.T) {
	for _, rs := range replayRulesets() {
		for _, c := range rs.Commands() {
			for _, v := range vocabulary {
				if slices.Contains(v.in, c.Name) {
					if !hasOption(c, v.name) {
						t.Errorf("%s /%s: has no %s: for %s", rs.ID(), c.Name, v.name, v.what)
					}
					for _, o := range v.not {
						if hasOption(c, o) {
							t.Errorf("%s /%s: takes %s: for %s, which is %s:", rs.ID(), c.Name, o, v.what, v.name)
						}
					}
				}
				for _, o := range c.Options {
					if o.Name != v.name {
						continue
					}
					switch {
					case v.kind != 0 && o.Kind != v.kind:
						t.Errorf("%s /%s %s: is not %s (its kind is %v)", rs.ID(), c.Name, o.Name, v.what, o.Kind)
					case v.master && !c.Is(engine.MasterOnly):
						t.Errorf("%s /%s %s: is in a player's command; %s: is %s", rs.ID(), c.Name, o.Name, v.name, v.what)
					case v.only != nil && !slices.Contains(v.only, c.Name):
						t.Errorf("%s /%s %s: means something else than %s", rs.ID(), c.Name, o.Name, v.what)
					}
				}
			}
		}
	}
}

func hasOption(c engine.CommandSpec, name string) bool {
	return slices.ContainsFunc(c.Options, func(o engine.OptionSpec) bool { return o.Name == name })
}
