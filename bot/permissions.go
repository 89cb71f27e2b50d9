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

// permit refuses a game master's command (flag engine.MasterOnly), as the
// table or g's rule system describes it, to anyone else, privately and in
// the table's words.
func (r *Router) permit(g *engine.Game, req Request) error {
	c := req.Command
	c.Master = c.Master || r.serverMaster(req)
	if tc, ok := r.tableCommand(c); ok {
		return g.Permit(tc.CommandSpec, c)
	}
	spec, _ := g.Spec(c.Name)
	return g.Permit(spec, c)
}
