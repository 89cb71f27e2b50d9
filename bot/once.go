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
// here or in another process on the same database, gets that answer
// again (without the board's picture, which is not kept), or, while the
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
		return replies
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
