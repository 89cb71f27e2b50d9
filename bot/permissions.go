package bot

import (
	"slices"

	"github.com/rhapsode/rhapsode/engine"
)

// Who may do what beyond playing his own clans. A clan's owner alone acts
// for it: the rule systems check that. Taking a step back, ending a book
// early and setting its deadlines are for the book's game master: the
// player who opened it, any member who may manage the server, and the
// members of the role Config.GMRole names.

// masterCommands are the commands only a game master gives, with what
// the refusal says he does. They are the table's, whatever its rules, so
// the refusal cites no rule system's section.
var masterCommands = map[string]struct{ rule, does string }{
	"undo":          {"", "takes steps back"},
	"book end":      {"", "ends it"},
	"book deadline": {"", "sets its deadlines"},
}

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
	m, ok := masterCommands[c.Name]
	if c.Directive || !ok || r.isMaster(g, req) {
		return nil
	}
	who := "the player who opened it"
	if ms, ok := g.Rules.(engine.Mastered); ok && ms.Master(g.State) != "" {
		who = string(ms.Master(g.State))
	}
	return engine.Refuse(m.rule, "Only the book's game master (%s) %s.", who, m.does)
}
