package systems

import (
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/btg"
	"github.com/rhapsode/rhapsode/engine/goliath"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/engine/sgboh"
	"github.com/rhapsode/rhapsode/engine/sweet"
)

// All returns every rule system, newly made, in the order of priority
// DESIGN.md gives them: GWAB first, which the bot takes as its default.
func All() []engine.Ruleset {
	return []engine.Ruleset{gwab.New(), sweet.New(), btg.New(), goliath.New(), sgboh.New()}
}

// IDs returns the rule systems' ids ("gwab", "sweet", …), in the order
// of [All].
func IDs() []string {
	all := All()
	ids := make([]string, len(all))
	for i, rs := range all {
		ids[i] = rs.ID()
	}
	return ids
}

// ByID returns the rule system whose id is id, newly made, and whether
// there is one.
func ByID(id string) (engine.Ruleset, bool) {
	for _, rs := range All() {
		if rs.ID() == id {
			return rs, true
		}
	}
	return nil, false
}
