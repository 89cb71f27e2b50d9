package web

import (
	"context"

	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
)

// The players' pace on a saga's standings (templates/pace.html): for each
// player of the saga, under his alias, how long he takes to act once
// called (median and 90th percentile) and how many books he finished and
// abandoned, over every book of the server, as /me stats tells him. A
// store that keeps no calls shows no pace.

// paceRow is one player's pace.
type paceRow struct {
	Player              string
	Answered            int
	Median, P90         string
	Finished, Abandoned int
}

// pace returns the pace of the players of a saga in guild, in the order
// of players, named by names.
func (s *Server) pace(ctx context.Context, guild string, players []engine.PlayerID, names aliases) ([]paceRow, error) {
	cs, ok := s.cfg.Store.(bot.CallStore)
	if !ok {
		return nil, nil
	}
	var out []paceRow
	for _, p := range players {
		st, err := bot.PlayerStats(ctx, s.cfg.Store, cs, guild, p)
		if err != nil {
			return nil, err
		}
		row := paceRow{Player: names.name(string(p)), Answered: st.Answered, Finished: st.Finished, Abandoned: st.Abandoned, Median: "–", P90: "–"}
		if st.Answered > 0 {
			row.Median, row.P90 = bot.Lasting(st.Median), bot.Lasting(st.P90)
		}
		out = append(out, row)
	}
	return out, nil
}
