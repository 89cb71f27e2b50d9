package bot

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Who may do what beyond playing his own clans. A clan's owner alone acts
// for it: the rule systems check that. The commands flagged
// engine.MasterOnly (taking a step back, starting and ending a book,
// setting its deadlines) are for the book's game master: the player who
// opened it, any member who may manage the server, and the members of
// the role Config.GMRole names.

// serverMaster reports whether the server itself makes req's user a game
// master at every table: he may manage it, or holds the configured role.
func (r *Router) serverMaster(req Request) bool {
	return req.Admin || (r.cfg.GMRole != "" && slices.Contains(req.Roles, r.cfg.GMRole))
}

// isMaster reports whether req's user is g's game master.
func (r *Router) isMaster(g *engine.Game, req Request) bool {
	if req.Command.Master || r.serverMaster(req) {
		return true
	}
	m, ok := g.Rules.(engine.Mastered)
	return ok && m.Master(g.State) == req.User
}

// permit refuses a game master's command to anyone else, privately and
// in the table's words.
func (r *Router) permit(g *engine.Game, req Request) error {
	c := req.Command
	if c.Directive || !r.masterOnly(g, c.Name) || r.isMaster(g, req) {
		return nil
	}
	who := "the player who opened it"
	if ms, ok := g.Rules.(engine.Mastered); ok && ms.Master(g.State) != "" {
		who = string(ms.Master(g.State))
	}
	return engine.Refuse("", "Only the book's game master (%s) may give /%s.", who, c.Name)
}

// masterOnly reports whether the command name, as the table or g's rule
// system describes it, is for the game master alone (engine.MasterOnly).
func (r *Router) masterOnly(g *engine.Game, name string) bool {
	for _, tc := range r.tables {
		if tc.Name == name {
			return tc.Is(engine.MasterOnly)
		}
	}
	spec, ok := g.Spec(name)
	return ok && spec.Is(engine.MasterOnly)
}
