package gwab

import "github.com/rhapsode/rhapsode/engine"

// Crew lost and runaways (8.7): a chariot left with no one aboard bolts,
// and runs its full move at the start of each round, before any clan
// acts, until it leaves the table or something stops it.

// crewFell follows a wound that felled a chariot's crewman: a rider's body
// falls behind the chariot, and a chariot left with no one aboard bolts if
// its clan drove it in this round or the last.
func crewFell(tx *engine.Tx, s *State, victim *Element, w Wounded) error {
	if !w.Falls() {
		return nil
	}
	ch := victim
	if victim.Kind != Chariot {
		if victim.Aboard == "" {
			return nil
		}
		if ch = s.Element(victim.Aboard); ch == nil || ch.Kind != Chariot {
			return nil
		}
		body := victim.Base
		body.Facing = ch.Base.Facing
		body = body.WithFrontCenter(ch.Base.Center.Sub(ch.Base.Facing.Vec().Scale(ch.Base.Depth / 2)))
		if err := tx.Emit(ThrownOut{Chariot: ch.ID, ChariotLabel: ch.Label(), Figure: victim.ID, FigureLabel: victim.Label(), Base: body}); err != nil {
			return err
		}
	}
	if ch.manned() || ch.Status != Standing || !ch.Placed || ch.LastDriven == 0 || int(ch.LastDriven) < s.Round-1 {
		return nil
	}
	return tx.Emit(Bolted{Chariot: ch.ID, Label: ch.Label()})
}

// runawayChariots runs every chariot that has bolted (8.7), before any
// clan acts in the round: straight ahead its full 9 strides, riding down
// other clans' skirmishers, until it leaves the table (and is gone),
// strikes any other stand or reaches terrain (and stands there, parked).
func runawayChariots(tx *engine.Tx) error {
	s := tx.State().(*State)
	if s.Phase != Playing {
		return nil
	}
	for i := range s.Elements {
		ch := &s.Elements[i]
		if ch.Kind != Chariot || !ch.Runaway || ch.Status != Standing || !ch.Placed || ch.manned() {
			continue
		}
		ev, prey := s.runaway(ch)
		if err := tx.Emit(ev); err != nil {
			return err
		}
		for _, k := range prey {
			if err := tx.Emit(RodeDown{Chariot: ch.ID, ChariotLabel: ch.Label(), Element: k.ID, Label: k.Label()}); err != nil {
				return err
			}
		}
	}
	return nil
}

// runaway works out a runaway chariot's run this round.
func (s *State) runaway(ch *Element) (RanAway, []*Element) {
	start := ch.Base
	dir := start.Facing.Vec()
	at := func(d float64) engine.Base { return start.WithCenter(start.Center.Add(dir.Scale(d))) }
	var solid, prey []*Element
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.ID == ch.ID || o.Status != Standing || !o.Placed {
			continue
		}
		if o.Clan != ch.Clan && o.Kind == Warband && o.Weapon.Skirmisher() {
			prey = append(prey, o)
		} else {
			solid = append(solid, o)
		}
	}
	ev := RanAway{Chariot: ch.ID, Label: ch.Label(), From: start}
	end := chariotMove
	if f, hit := start.Sweep(at(chariotMove).Center, bases(solid)...); hit >= 0 {
		end, ev.Stop, ev.Against = f*chariotMove, StruckStand, solid[hit].Label()
	}
	if before, after, found := scan(0, chariotMove, at, func(b engine.Base) bool { return s.terrainUnder(b) != nil }); found && before < end {
		end, ev.Stop, ev.Against = before, HaltedAtEdge, s.terrainUnder(at(after)).Name()
	}
	if before, _, found := scan(0, chariotMove, at, func(b engine.Base) bool { return !s.Board.holds(b) }); found && before <= end {
		end, ev.Stop, ev.Against, ev.Off = before, RanFree, "", true
	}
	ev.To, ev.Strides = at(end), round1(end)
	var crushed []*Element
	if end > 0 {
		for _, k := range prey {
			if _, hit := start.Sweep(at(end).Center, k.Base); hit >= 0 {
				crushed = append(crushed, k)
			}
		}
	}
	return ev, crushed
}

// Status and view.
