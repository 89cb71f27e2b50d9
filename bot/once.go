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

// The waits of a delivery whose first is still in hand, and of an answer
// the store does not take at once.
const (
	// awaitAnswer is how long a later delivery waits for the first one's
	// answer before it leaves the response to the first.
	awaitAnswer = 20 * time.Second
	// keepTrying is how long an answer is offered to a store that fails
	// to take it (a database restarting) before it is given up.
	keepTrying = 2 * time.Minute
	// firstPause and longestPause bound the pauses between tries.
	firstPause, longestPause = 20 * time.Millisecond, 500 * time.Millisecond
)

// once handles req, whose transport ID is req.Interaction, at most once:
// the first delivery is handled and its answer kept, retried until the
// store takes it; any later one, here or in another process on the same
// database, gets the asker's part of that answer again, marked Again
// (without the board's picture, which is not kept; channel messages are
// not sent twice), waiting for it while the first is still in hand. Should
// the first never answer (its process stopped), the later delivery says
// nothing: a word of its own would be written over the first's response.
func (r *Router) once(ctx context.Context, ix Interactions, req Request) []Reply {
	answer, fresh, err := r.takeInteraction(ctx, ix, req.Interaction)
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "interaction not taken", "interaction", req.Interaction, "err", err)
		return []Reply{{User: req.User, Ephemeral: true,
			Text: "Something went wrong on the bot's side, and nothing was recorded. Please try again."}}
	}
	if !fresh {
		if len(answer) == 0 {
			answer = r.awaitAnswer(ctx, ix, req)
		}
		var replies []Reply
		if len(answer) == 0 || json.Unmarshal(answer, &replies) != nil {
			return []Reply{{User: req.User, Again: true}}
		}
		// The asker's answer again, but not what went to channels or to
		// other players: the table has had those once.
		var own []Reply
		for _, rep := range replies {
			if rep.Channel == "" && (!rep.Ephemeral || rep.User == req.User) {
				rep.Again = true
				own = append(own, rep)
			}
		}
		if len(own) == 0 {
			return []Reply{{User: req.User, Again: true}}
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
	if err != nil {
		r.cfg.Logger.ErrorContext(ctx, "interaction's answer not kept", "interaction", req.Interaction, "err", err)
		return replies
	}
	r.keepAnswer(ctx, ix, req.Interaction, data)
	return replies
}

// takeInteraction takes interaction id, trying again while the store
// fails (a database restarting) for up to awaitAnswer: a word of failure
// said at once would stand on the player's screen while another delivery
// of the same interaction, a moment later, plays it.
func (r *Router) takeInteraction(ctx context.Context, ix Interactions, id string) (answer []byte, fresh bool, err error) {
	// Bounded by the tries too, which a clock a test holds still cannot
	// stretch: awaitAnswer in pauses of longestPause.
	deadline := r.cfg.Now().Add(awaitAnswer)
	tries := int(awaitAnswer / longestPause)
	for pause, try := firstPause, 1; ; pause, try = min(2*pause, longestPause), try+1 {
		answer, fresh, err = ix.TakeInteraction(ctx, id, r.cfg.Now())
		if err == nil || try >= tries || !r.cfg.Now().Before(deadline) || wait(ctx, pause) != nil {
			return answer, fresh, err
		}
		r.cfg.Logger.WarnContext(ctx, "interaction not taken yet; trying again", "interaction", id, "err", err)
	}
}

// awaitAnswer waits for the answer of interaction req.Interaction, which
// another delivery has in hand, and returns it; nil when none comes within
// awaitAnswer.
func (r *Router) awaitAnswer(ctx context.Context, ix Interactions, req Request) []byte {
	deadline := r.cfg.Now().Add(awaitAnswer)
	for pause := firstPause; ; pause = min(2*pause, longestPause) {
		if !r.cfg.Now().Before(deadline) || wait(ctx, pause) != nil {
			r.cfg.Logger.WarnContext(ctx, "interaction delivered again, and its first delivery never answered", "interaction", req.Interaction)
			return nil
		}
		answer, _, err := ix.TakeInteraction(ctx, req.Interaction, r.cfg.Now())
		if err == nil && len(answer) > 0 {
			return answer
		}
	}
}

// keepAnswer offers the store interaction id's answer until it takes it,
// or keepTrying has passed: a later delivery waits for it.
func (r *Router) keepAnswer(ctx context.Context, ix Interactions, id string, data []byte) {
	deadline := r.cfg.Now().Add(keepTrying)
	for pause := firstPause; ; pause = min(2*pause, longestPause) {
		err := ix.AnswerInteraction(ctx, id, data)
		if err == nil {
			return
		}
		if !r.cfg.Now().Before(deadline) || wait(ctx, pause) != nil {
			r.cfg.Logger.ErrorContext(ctx, "interaction's answer not kept", "interaction", id, "err", err)
			return
		}
		r.cfg.Logger.WarnContext(ctx, "interaction's answer not kept yet; trying again", "interaction", id, "err", err)
	}
}

// wait pauses for d, or until ctx ends.
func wait(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}
