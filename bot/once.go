package bot

import (
	"context"
	"encoding/json"
	"time"
)

// Interactions is what the router needs of a store to act once on a
// request that a transport may deliver more than once under one ID (a
// Discord interaction retried, or delivered to two instances).
// [store.Store] is the implementation.
type Interactions interface {
	TakeInteraction(ctx context.Context, id string, now time.Time) (answer []byte, fresh bool, err error)
	AnswerInteraction(ctx context.Context, id string, answer []byte) error
}

// once handles req, whose transport ID is req.Interaction, at most once:
// the first delivery is handled and its answer recorded; any later one,
// here or in another process on the same database, gets the asker's part
// of that answer again (without the board's picture, which is not kept;
// channel messages are not sent twice), or, while the
// first is still in hand, a word that it is.
func (r *Router) once(ctx context.Context, ix Interactions, req Request) []Reply {
	answer, fresh, err := ix.TakeInteraction(ctx, req.Interaction, r.cfg.Now())
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "interaction not taken", "interaction", req.Interaction, "err", err)
		return []Reply{{User: req.User, Ephemeral: true,
			Text: "Something went wrong on the bot's side, and nothing was recorded. Please try again."}}
	}
	if !fresh {
		var replies []Reply
		if len(answer) == 0 || json.Unmarshal(answer, &replies) != nil {
			return []Reply{{User: req.User, Ephemeral: true, Text: "That command is already in hand; its answer will come once."}}
		}
		// The asker's answer again, but not what went to channels or to
		// other players: the table has had those once.
		var own []Reply
		for _, rep := range replies {
			if rep.Channel == "" && (!rep.Ephemeral || rep.User == req.User) {
				own = append(own, rep)
			}
		}
		return own
	}
	replies := r.handleNow(ctx, req)
	kept := make([]Reply, len(replies))
	for i, rep := range replies {
		rep.Image = nil
		kept[i] = rep
	}
	data, err := json.Marshal(kept)
	if err == nil {
		err = ix.AnswerInteraction(ctx, req.Interaction, data)
	}
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "interaction's answer not kept", "interaction", req.Interaction, "err", err)
	}
	return replies
}
