package engine

import (
	"encoding/json"
	"fmt"
)

// Secret choices. Some rule systems have players choose in secret and
// reveal together (sweet's melee deployment indicators). The choice must
// be in the log, or a replay could not rebuild the game, but no one else
// may read it until it is revealed.

// Sealed is implemented by an event body that holds one player's secret
// until a later event reveals it. Its narration must not tell the secret;
// anything that shows raw payloads to other players (an export of the log)
// shows Public instead until a [Revealer] names Key.
type Sealed interface {
	Body
	// Key names the secret, uniquely within its game.
	Key() string
	// Public is the body as others may see it before the reveal.
	Public() Body
}

// Revealer is implemented by an event body that reveals earlier sealed
// bodies, naming their keys.
type Revealer interface {
	Reveals() []string
}

// Revealed returns the keys of the sealed bodies that a [Revealer] among
// recs reveals.
func Revealed(r Ruleset, recs []Record) (map[string]bool, error) {
	_, revealed, err := decodeSecrets(r, recs)
	return revealed, err
}

// decodeSecrets decodes recs' bodies and gathers the keys they reveal.
func decodeSecrets(r Ruleset, recs []Record) ([]Body, map[string]bool, error) {
	bodies := make([]Body, len(recs))
	revealed := map[string]bool{}
	for i, rec := range recs {
		e, err := DecodeRecord(r, rec)
		if err != nil {
			return nil, nil, err
		}
		bodies[i] = e.Body
		if rv, ok := e.Body.(Revealer); ok {
			for _, k := range rv.Reveals() {
				revealed[k] = true
			}
		}
	}
	return bodies, revealed, nil
}

// Redact returns recs with the payload of every sealed body that no later
// record in recs reveals replaced by its public form. Records that are not
// sealed are returned as they are.
func Redact(r Ruleset, recs []Record) ([]Record, error) {
	bodies, revealed, err := decodeSecrets(r, recs)
	if err != nil {
		return nil, err
	}
	out := make([]Record, len(recs))
	for i, rec := range recs {
		out[i] = rec
		s, ok := bodies[i].(Sealed)
		if !ok || revealed[s.Key()] {
			continue
		}
		p, err := json.Marshal(s.Public())
		if err != nil {
			return nil, fmt.Errorf("engine: seal %s event %d: %w", rec.Kind, rec.Seq, err)
		}
		out[i].Payload = p
	}
	return out, nil
}
