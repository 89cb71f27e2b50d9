package sgboh

import (
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// The sequence of play (SGBOH 3.0-3.2, 4.2, 5.1-5.6): activation of a
// leader or a group, the activated units' actions, and continuity.

var playCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "activate", Help: "Activate a leader, or a leaderless group: freely when play has passed to you, by a continuity roll when you have just gone.",
		Example: "/activate leader:ALX line:Companions", Options: []engine.OptionSpec{
			{Name: "leader", Help: "the leader", Kind: engine.OptElement},
			{Name: "line", Help: "the unit type he commands, if he does not move first (4.2)"},
			{Name: "units", Help: "a leaderless group: up to three units anywhere, by name"},
			{Name: "group", Help: "a leaderless group: this unit and every contiguous unit of its name and type"},
		}}, Run: activate},
	{CommandSpec: engine.CommandSpec{Name: "command", Help: "Once the activated leader has moved, activate the units of one type in his command range (4.2).",
		Example: "/command line:Phalanx", Options: []engine.OptionSpec{
			{Name: "line", Help: "the unit type", Required: true},
		}}, Run: commandLine},
	{CommandSpec: engine.CommandSpec{Name: "delegate", Help: "The activated wing commander passes his activation to a contingent commander in his range (5.6).",
		Example: "/delegate leader:CRA", Options: []engine.OptionSpec{
			{Name: "leader", Help: "the contingent commander", Kind: engine.OptElement, Required: true},
		}}, Run: delegate},
	{CommandSpec: engine.CommandSpec{Name: "done", Help: "End the activation: mandatory rally, then continuity."}, Run: done},
	{CommandSpec: engine.CommandSpec{Name: "pass", Help: "Decline the continuity roll: play passes to the other side."}, Run: pass},
	{CommandSpec: engine.CommandSpec{Name: "answer", Help: "Answer the question the battle waits on: reaction facing, reaction fire, retreat before combat, pursuit.",
		Example: "/answer reply:left", Options: []engine.OptionSpec{
			{Name: "reply", Help: "left, right or stand; evade or stand; a target or hold; pursue or hold", Required: true},
			{Name: "to", Help: "for a retreat before combat: the hex, two away", Kind: engine.OptPoint},
		}}, Run: answer},
	{CommandSpec: engine.CommandSpec{Name: "status", Help: "The armies, their losses, and where play stands.", Flags: engine.Private | engine.Reads}, Run: status},
	{CommandSpec: engine.ConcedeSpec("Withdraw your army from the field: the battle is lost."), Run: concede},
}

// emit settles the battle (engagements, threatened leaders, withdrawal)
// and records the step.
func (w *work) emit(kind func(Effects) engine.Body) error {
	w.settle()
	return w.tx.Emit(kind(w.effects()))
}

// side returns the side the actor plays, refusing a player with none.
func side(s *State, c engine.Command) (int, error) {
	if i := s.armyOf(c.Actor); i >= 0 {
		// A player who commands both sides acts for the one to act.
		if len(s.Armies) == 2 && s.Armies[s.Flow.Side].Player == c.Actor {
			return s.Flow.Side, nil
		}
		return i, nil
	}
	return 0, engine.Refuse("", "You command no army in this battle (/side take).")
}

// acting refuses a command unless the actor's side is in the stage
// given and the battle waits on no question.
func acting(s *State, c engine.Command, stages ...Stage) (int, error) {
	me, err := side(s, c)
	if err != nil {
		return 0, err
	}
	if s.Flow.Stage == SettingUp {
		return 0, engine.Refuse("", "The battle has not begun (/start).")
	}
	if len(s.Flow.Queue) > 0 {
		q := s.Flow.Queue[0]
		return 0, engine.Refuse("", "The battle waits for %s to answer: %s", s.name(q.Side), s.questionText(q))
	}
	if me != s.Flow.Side {
		return 0, engine.Refuse("", "It is for %s to act now (%s).", s.name(s.Flow.Side), s.Flow.Stage)
	}
	if !slices.Contains(stages, s.Flow.Stage) {
		return 0, engine.Refuse("", "Not now: play stands at %s. %s", s.Flow.Stage, s.next())
	}
	return me, nil
}

// next says what the side to act may do.
func (s *State) next() string {
	switch s.Flow.Stage {
	case SettingUp:
		if slices.ContainsFunc(s.Armies, func(a Army) bool { return a.Player == "" }) {
			return "Players take a side with /side take; the game master gives /start when both are taken."
		}
		return "Both sides are taken: the game master gives /start."
	case Free:
		return fmt.Sprintf("%s activate any leader or group, no roll needed (/activate).", s.name(s.Flow.Side))
	case Continuity:
		switch {
		case s.leaderMayGo(s.Flow.Side):
		case s.groupMayGo(s.Flow.Side):
			return s.groupOffer(s.Flow.Side)
		default:
			// Only a ruling since the activation ended leaves nothing.
			return fmt.Sprintf("%s have no leader who may go now and no unit free to act: nothing to roll for; /pass.", s.name(s.Flow.Side))
		}
		return fmt.Sprintf("%s may roll to go again with another leader (/activate), or /pass.", s.name(s.Flow.Side))
	case Acting:
		if l := s.leader(s.Flow.Leader); l != nil && s.Flow.Line == "" {
			return fmt.Sprintf("%s may move (/move unit:%s), then command a type of unit (/command line:).", l.Name, l.ID)
		}
		return "The activated units move and fire, shock (/shock), rally (/rally); then /done."
	}
	return ""
}

// leaderMayGo reports whether side has a leader it may designate at
// continuity: one in the battle, not a contingent commander whose wing
// commander still is (he goes only through him, 5.6), and not the one
// who just went, unless he is elite and has not yet gone twice (3.2,
// 5.5).
func (s *State) leaderMayGo(side int) bool {
	return slices.ContainsFunc(s.Leaders, func(l Leader) bool {
		return l.Side == side && l.In() && !s.underWing(&l) && (!slices.Contains(s.Flow.Just, l.ID) || l.Elite && !s.Flow.Again)
	})
}

// underWing reports whether l is a contingent commander whose wing
// commander is still in the battle, so that he goes only when that wing
// commander passes him the activation (5.6). One whose wing commander
// is dead or captured has no one to pass it to him, and the text names
// no one else who may; he is designated as any leader, on his own
// initiative (our ruling: the standard rules' replacement leaders are
// not ours, and a table would not leave him idle for the rest of the
// battle).
func (s *State) underWing(l *Leader) bool {
	if l.Under == "" {
		return false
	}
	wc := s.leader(l.Under)
	return wc != nil && wc.In()
}

// groupMayGo reports whether side has a unit that may act in a
// leaderless group: one on the map that is not routed (3.2, exception 2;
// 10.25).
func (s *State) groupMayGo(side int) bool {
	return slices.ContainsFunc(s.Units, func(u Unit) bool { return u.Side == side && u.On() && !u.lockedOut() })
}

// groupOffer is what side may do at continuity when no leader of its
// may go: roll for a leaderless group, which goes only on 0 or 1 (3.2).
func (s *State) groupOffer(side int) string {
	return fmt.Sprintf("%s have no leader who may go now: they may roll for a leaderless group (/activate units: or group:), which goes only on a 0 or 1, or /pass.", s.name(side))
}

// offerContinuity puts side at continuity and says what it may roll
// for; with no leader to designate and no unit to form a group there is
// nothing to roll for, and play passes to the enemy at once, as on a
// failed roll (3.2).
func (w *work) offerContinuity(side int, sentence string) {
	switch {
	case w.leaderMayGo(side):
		w.say("%s", sentence)
	case w.groupMayGo(side):
		w.say("%s", w.groupOffer(side))
	default:
		w.say("%s have no leader who may go now and no unit free to act: nothing to roll for, and play passes to %s, who activate any leader or group, no roll needed (3.2).", w.name(side), w.name(foe(side)))
		w.freeFor(foe(side), false)
	}
}

// mayActivate reports whether side has anything to activate freely: a
// leader in the battle who goes on his own (5.6, underWing), or a unit
// that may act in a group (3.2, 10.25).
func (s *State) mayActivate(side int) bool {
	return s.groupMayGo(side) || slices.ContainsFunc(s.Leaders, func(l Leader) bool {
		return l.Side == side && l.In() && !s.underWing(&l)
	})
}

// freeFor hands side a free activation (3.2, 5.1); noRoll marks the one
// the three-in-a-row rule gives. A side with nothing to activate (every
// leader dead or captured, every unit routed or off the map) cannot
// take it, and the battle would wait on it for ever: play passes back at
// once, as it passes on at a continuity with nothing to roll for. After
// three in a row the other side then rolls for continuity, as it would
// after the free activation (3.2, exception 1); otherwise it activates
// freely itself. When the other side has nothing either, the battle is
// at a stalemate and ends.
func (w *work) freeFor(side int, noRoll bool) {
	w.Flow = Flow{Stage: Free, Side: side, NoRoll: noRoll, Count: w.Flow.Count}
	if w.mayActivate(side) {
		return
	}
	back := foe(side)
	if !w.mayActivate(back) {
		w.stalemate()
		return
	}
	if noRoll {
		w.Flow = Flow{Stage: Continuity, Side: back, Count: w.Flow.Count}
		w.offerContinuity(back, fmt.Sprintf("%s have no leader and no unit free to act, so nothing to activate: play passes back to %s, who roll for continuity (/activate) or /pass (3.2).", w.name(side), w.name(back)))
		return
	}
	w.say("%s have no leader and no unit free to act, so nothing to activate: play passes back to %s, who activate any leader or group, no roll needed (3.2).", w.name(side), w.name(back))
	w.Flow = Flow{Stage: Free, Side: back, Count: w.Flow.Count}
}

func activate(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := acting(s, c, Free, Continuity)
	if err != nil {
		return err
	}
	w := begin(tx, s)
	l, group, err := w.designated(me, c)
	if err != nil {
		return err
	}
	who := "a leaderless group of " + strings.Join(group, ", ")
	if l != nil {
		who = l.Name
	}
	again := false
	if s.Flow.Stage == Continuity {
		r := w.roll()
		need := 1
		if l != nil {
			need = l.Initiative
		}
		w.say("%s roll for continuity with %s: %d against %d.", s.name(me), who, r, need)
		if r >= 8 {
			w.routAll(me)
		}
		if r <= 1 {
			w.returnPursuers(me, l)
		}
		if r > need {
			w.say("They fail: play passes to %s, who activate any leader or group, no roll needed.", s.name(foe(me)))
			w.freeFor(foe(me), false)
			return w.emit(func(e Effects) engine.Body { return Passed{e} })
		}
		again = l != nil && slices.Contains(s.Flow.Just, l.ID)
		w.Flow.Run++
	} else {
		w.Flow.Run = 1
	}
	w.startActivation(me, l, group)
	w.Flow.Again = again
	if l != nil {
		w.say("%s activate %s (initiative %d, command range %d).", s.name(me), l.Name, l.Initiative, l.Range)
	} else {
		w.say("%s activate %s.", s.name(me), who)
	}
	if l != nil && c.Has("line") {
		if err := w.command(c.Opt("line")); err != nil {
			return err
		}
	} else {
		w.say("%s", w.next())
	}
	return w.emit(func(e Effects) engine.Body { return Activated{e} })
}

// designated reads whom side me designates to activate (3.2, 5.1): a
// leader, or a leaderless group named unit by unit (units:) or as a unit
// and its contiguous kin (group:), and refuses what may not go.
func (w *work) designated(me int, c engine.Command) (*Leader, []string, error) {
	s := w.State
	var l *Leader
	var group []string
	n := 0
	for _, o := range []string{"leader", "units", "group"} {
		if c.Has(o) {
			n++
		}
	}
	if n != 1 {
		return nil, nil, engine.Refuse("", "Activate one leader (leader:), or a group (units: up to three units, or group: a unit and its contiguous kin).")
	}
	if c.Has("line") && !c.Has("leader") {
		// A group's units are named, not commanded by type (3.2, 4.2):
		// a line given with them would be silently dropped.
		return nil, nil, engine.Refuse("4.2", "A leaderless group has no leader to command a type of unit: name its units alone, without line:.")
	}
	switch {
	case c.Has("leader"):
		l = w.leader(c.Opt("leader"))
		if l == nil || l.Side != me {
			return nil, nil, engine.Refuse("", "%s is no leader of %s.", c.Opt("leader"), s.name(me))
		}
		if !l.In() {
			return nil, nil, engine.Refuse("", "%s is %s.", l.Name, l.fate())
		}
		if s.underWing(l) {
			return nil, nil, engine.Refuse("5.6", "%s is a contingent commander: activate his wing commander %s, who passes the activation to him (/delegate).", l.Name, l.Under)
		}
		if s.Flow.Stage == Continuity && slices.Contains(s.Flow.Just, l.ID) {
			if !l.Elite || s.Flow.Again {
				switch {
				case s.leaderMayGo(me):
				case s.groupMayGo(me):
					return nil, nil, engine.Refuse("3.2", "%s has just gone%s, and %s have no other leader who may go now: roll for a leaderless group (/activate units: or group:), which goes only on a 0 or 1, or /pass.", l.Name, eliteNote(l, s.Flow.Again), s.name(me))
				default:
					return nil, nil, engine.Refuse("3.2", "%s has just gone%s, and %s have no other leader who may go now and no unit free to act: /pass.", l.Name, eliteNote(l, s.Flow.Again), s.name(me))
				}
				return nil, nil, engine.Refuse("3.2", "%s has just gone: designate another leader%s.", l.Name, eliteNote(l, s.Flow.Again))
			}
		}
	case c.Has("units"):
		ids := strings.Fields(strings.NewReplacer(",", " ").Replace(c.Opt("units")))
		if len(ids) == 0 || len(ids) > 3 {
			return nil, nil, engine.Refuse("3.2", "A leaderless group is any three combat units: name one to three.")
		}
		for _, id := range ids {
			u := w.unit(id)
			if u == nil || u.Side != me || !u.On() {
				return nil, nil, engine.Refuse("", "%s is no unit of %s on the map.", id, s.name(me))
			}
			if slices.Contains(group, u.ID) {
				return nil, nil, engine.Refuse("", "%s is named twice.", u.ID)
			}
			group = append(group, u.ID)
		}
	default:
		u := w.unit(c.Opt("group"))
		if u == nil || u.Side != me || !u.On() {
			return nil, nil, engine.Refuse("", "%s is no unit of %s on the map.", c.Opt("group"), s.name(me))
		}
		group = w.kin(u)
	}
	for _, id := range group {
		if w.unit(id).lockedOut() {
			return nil, nil, engine.Refuse("10.25", "%s is routed and can do nothing on its own.", id)
		}
	}
	return l, group, nil
}

func eliteNote(l *Leader, again bool) string {
	if l.Elite && again {
		return " (an elite commander goes twice in a row, not three times)"
	}
	return ""
}

// kin returns u and every unit of its side, name and type joined to it
// through others of them (3.2, exception 2), leaving out routed units,
// which do nothing on their own (10.25).
func (s *State) kin(u *Unit) []string {
	out := []string{u.ID}
	for i := 0; i < len(out); i++ {
		a := s.unit(out[i])
		for j := range s.Units {
			b := &s.Units[j]
			if b.On() && !b.lockedOut() && b.Side == u.Side && b.Type == u.Type && strings.EqualFold(b.Name, u.Name) && !slices.Contains(out, b.ID) && engine.HexDistance(a.Hex, b.Hex) == 1 {
				out = append(out, b.ID)
			}
		}
	}
	return out
}

// startActivation clears what units did in the last activation and
// makes this one the activation under way.
func (w *work) startActivation(side int, l *Leader, group []string) {
	for i := range w.Units {
		u := &w.Units[i]
		u.Act, u.Moved, u.Fired, u.Fought, u.Rallied, u.Faced, u.Reacted, u.Shaken = false, false, false, false, false, false, false, false
		u.Withdrew = false
	}
	for i := range w.Leaders {
		w.Leaders[i].Moved = false
	}
	f := &w.Flow
	f.Stage, f.Side, f.Leader, f.Line, f.Wing, f.Group = Acting, side, "", "", "", slices.Clone(group)
	f.Attacks, f.Queue, f.Vacated, f.Shocked = nil, nil, nil, false
	f.Count++
	if l != nil {
		f.Leader = l.ID
	}
	for _, id := range group {
		w.unit(id).Act = true
	}
}

func commandLine(tx *engine.Tx, s *State, c engine.Command) error {
	if _, err := acting(s, c, Acting); err != nil {
		return err
	}
	w := begin(tx, s)
	if err := w.command(c.Opt("line")); err != nil {
		return err
	}
	return w.emit(func(e Effects) engine.Body { return Commanded{e} })
}

// command activates the units of one line in the active leader's range.
func (w *work) command(line string) error {
	l := w.leader(w.Flow.Leader)
	if l == nil {
		return engine.Refuse("4.2", "A leaderless group has no leader to command other units.")
	}
	if w.Flow.Line != "" {
		return engine.Refuse("4.2", "%s already commands the %s.", l.Name, w.Flow.Line)
	}
	line = strings.TrimSpace(line)
	var lines []string
	found := ""
	for i := range w.Units {
		u := &w.Units[i]
		if u.Side != l.Side {
			continue
		}
		if !slices.Contains(lines, u.Line) {
			lines = append(lines, u.Line)
		}
		if strings.EqualFold(u.Line, line) {
			found = u.Line
		}
	}
	if found == "" {
		return engine.Refuse("4.2", "%q is no type of unit of %s: %s.", line, w.name(l.Side), strings.Join(lines, ", "))
	}
	w.Flow.Line = found
	var acts []string
	for i := range w.Units {
		u := &w.Units[i]
		if u.Side == l.Side && u.Line == found && u.On() && !u.lockedOut() && l.inRange(u.Hex) {
			u.Act = true
		}
		if u.Act {
			acts = append(acts, u.ID)
		}
	}
	if len(acts) == 0 {
		w.say("%s commands the %s; none stands in his range of %d able to act.", l.Name, found, l.Range)
	} else {
		w.say("%s commands the %s: %s may act.", l.Name, found, strings.Join(acts, ", "))
	}
	return nil
}

func delegate(tx *engine.Tx, s *State, c engine.Command) error {
	if _, err := acting(s, c, Acting); err != nil {
		return err
	}
	w := begin(tx, s)
	wc := w.leader(s.Flow.Leader)
	m := w.leader(c.Opt("leader"))
	switch {
	case s.Flow.Wing != "":
		// Asked first: once passed, the activation is the contingent
		// commander's, and he is no wing commander.
		return engine.Refuse("5.6", "Only one contingent commander is activated at a time.")
	case wc == nil || !wc.Wing:
		return engine.Refuse("5.6", "Only an activated wing commander passes his activation to a contingent commander.")
	case s.Flow.Line != "":
		return engine.Refuse("5.6", "%s has already commanded his units.", wc.Name)
	case m == nil || m.Under != wc.ID:
		return engine.Refuse("5.6", "%s is no contingent commander under %s.", c.Opt("leader"), wc.Name)
	case !m.In():
		return engine.Refuse("", "%s is out of the battle.", m.Name)
	case !wc.inRange(m.Hex):
		return engine.Refuse("5.6", "%s stands %d hexes from %s, beyond his command range of %d.", m.Name, engine.HexDistance(wc.Hex, m.Hex), wc.Name, wc.Range)
	case slices.Contains(s.Flow.Just, m.ID):
		return engine.Refuse("5.5", "%s went in the activation just before: not twice in a row.", m.Name)
	}
	w.Flow.Wing, w.Flow.Leader = wc.ID, m.ID
	w.say("%s passes the activation to %s (initiative %d, command range %d).", wc.Name, m.Name, m.Initiative, m.Range)
	w.say("%s", w.next())
	return w.emit(func(e Effects) engine.Body { return Commanded{e} })
}

func done(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := acting(s, c, Acting)
	if err != nil {
		return err
	}
	w := begin(tx, s)
	if !s.Flow.Shocked {
		if attacks := w.mandatoryAttacks(); len(attacks) > 0 {
			w.Flow.Shocked = true
			w.Flow.Attacks = attacks
			w.say("Engaged units in command must shock (7.3): %s.", attackList(attacks))
			w.proceed()
			if len(w.Flow.Queue) > 0 {
				return w.emit(func(e Effects) engine.Body { return Shocked{e} })
			}
		}
	}
	w.mandatoryRally(me)
	f := &w.Flow
	just := []string{}
	if f.Wing != "" {
		just = append(just, f.Wing)
	}
	if f.Leader != "" {
		just = append(just, f.Leader)
	}
	f.Attacks, f.Queue, f.Vacated, f.Shocked, f.Line, f.Group = nil, nil, nil, false, "", nil
	switch {
	case !w.mayActivate(me) && !w.mayActivate(foe(me)):
		w.stalemate()
	case f.NoRoll:
		*f = Flow{Stage: Continuity, Side: foe(me), Count: f.Count}
		w.offerContinuity(foe(me), fmt.Sprintf("That was the free activation of %s after three in a row; play passes back to %s, who roll for continuity (/activate) or /pass.", s.name(me), s.name(foe(me))))
	case f.Run >= 3:
		w.say("%s have gone three times in a row: play passes to %s for one activation, no roll needed (3.2).", s.name(me), s.name(foe(me)))
		w.freeFor(foe(me), true)
	default:
		f.Stage, f.Just, f.Wing = Continuity, just, ""
		w.offerContinuity(me, fmt.Sprintf("%s may roll to go again with another leader (/activate) or /pass.", s.name(me)))
	}
	return w.emit(func(e Effects) engine.Body { return Ended{e} })
}

func pass(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := acting(s, c, Continuity)
	if err != nil {
		return err
	}
	w := begin(tx, s)
	w.say("%s pass: play passes to %s, who activate any leader or group, no roll needed.", s.name(me), s.name(foe(me)))
	w.freeFor(foe(me), false)
	return w.emit(func(e Effects) engine.Body { return Passed{e} })
}

func concede(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := side(s, c)
	if err != nil {
		return err
	}
	if s.Flow.Stage == SettingUp {
		return engine.Refuse("", "The battle has not begun.")
	}
	w := begin(tx, s)
	w.say("%s leave the field.", s.name(me))
	w.end(fmt.Sprintf("%s withdraw, conceding; %s hold the field.", s.name(me), s.name(foe(me))))
	return w.emit(func(e Effects) engine.Body { return Withdrew{e} })
}

// end ends the battle.
func (w *work) end(result string) {
	w.Flow = Flow{Stage: Over, Count: w.Flow.Count}
	w.Result = result
	w.say("The battle is over: %s", result)
}

// settle brings the battle up to date after a step: units no longer
// next to an enemy are no longer Engaged; leaders left alone next to an
// enemy unit that is not routed are moved to the nearest friendly unit
// they can reach without passing the enemy, or captured when none can be
// reached (6.7); an army past its rout points withdraws (10.4).
func (w *work) settle() {
	for i := range w.Units {
		u := &w.Units[i]
		if u.Engaged && (!u.On() || u.Status == Routed || len(w.enemiesNext(u.Side, u.Hex)) == 0) {
			u.Engaged = false
		}
	}
	for i := range w.Leaders {
		l := &w.Leaders[i]
		if !l.In() {
			continue
		}
		switch f := w.at(l.Hex); {
		case f != nil && f.Side == l.Side:
			continue // stacked with a friend, not alone
		case f == nil && !w.threatened(l):
			continue
		}
		steps := w.leaderSteps(l)
		var best *Unit
		for j := range w.Units {
			u := &w.Units[j]
			if n, ok := steps[u.Hex]; ok && u.On() && u.Side == l.Side && (best == nil || n < steps[best.Hex]) {
				best = u
			}
		}
		if best == nil {
			l.Captured = true
			w.say("%s, alone before the enemy with no friend to reach, is captured.", l.Name)
			continue
		}
		w.say("%s, threatened by the enemy, joins %s in %s (6.7).", l.Name, best.ID, best.Hex)
		w.mark(Mark{Kind: engine.MoveMark, From: l.Hex, To: best.Hex, Side: l.Side})
		l.Hex = best.Hex
	}
	if w.Flow.Stage != Over && len(w.Armies) == 2 {
		w.withdrawArmies()
	}
}

// withdrawArmies ends the battle when an army has reached its rout points
// (10.4), and reports whether it did.
func (w *work) withdrawArmies() bool {
	var past []int
	for side := range 2 {
		if w.losses(side) >= w.Armies[side].Withdraw {
			past = append(past, side)
		}
	}
	switch len(past) {
	case 0:
		return false
	case 1:
		lo := past[0]
		w.end(fmt.Sprintf("%s reach %d rout points (their limit %d) and withdraw; %s win.", w.name(lo), w.losses(lo), w.Armies[lo].Withdraw, w.name(foe(lo))))
	case 2:
		over := func(i int) int { return w.losses(i) - w.Armies[i].Withdraw }
		switch {
		case over(0) > over(1):
			w.end(fmt.Sprintf("both armies reach their limits; %s, further past theirs, withdraw first; %s win.", w.name(0), w.name(1)))
		case over(1) > over(0):
			w.end(fmt.Sprintf("both armies reach their limits; %s, further past theirs, withdraw first; %s win.", w.name(1), w.name(0)))
		default:
			w.end("both armies reach their limits together and withdraw: a drawn battle.")
		}
	}
	return true
}

// stalemate ends a battle in which neither side has anything left to
// activate: every leader dead or captured, every unit on the map routed
// (10.25). No sequence of play can begin again (3.1 A), so the text's
// "until someone wins" (3.0) would never come. Nothing can rally their
// routed units (10.27 needs an activated leader's range) and they may
// only flee, so they are counted lost, as each would be on running off
// the map (8.3); pursuing cavalry off the map is not. Then the rout
// points decide as after any step (10.4), and if neither army reaches
// its limit the battle is drawn (our ruling).
func (w *work) stalemate() {
	w.say("Neither army has a leader left or a unit free to act: no activation can begin again (3.1), and no one can rally their routed units (10.27).")
	for i := range w.Units {
		if u := &w.Units[i]; u.On() && u.Status == Routed {
			w.eliminate(u, "with no leader left to rally it, it flees the field")
		}
	}
	if !w.withdrawArmies() {
		w.end("neither army can act any more, and neither reaches its rout points: a drawn battle.")
	}
}

// threatened reports whether an enemy unit next to the lone leader l
// threatens him (6.7, standard 4.62). A routed one does not: it may do
// nothing on its own and only flees (10.25), as it holds no front to
// stop a mover in (7.2, our ruling); it threatens him again once it
// rallies. An enemy unit in his own hex, routed or not, still puts him
// to flight (settle): he cannot stay in a hex the enemy holds.
func (s *State) threatened(l *Leader) bool {
	return slices.ContainsFunc(s.enemiesNext(l.Side, l.Hex), func(e *Unit) bool { return !e.lockedOut() })
}

// leaderSteps counts the hexes a threatened leader must cross to reach
// each hex he can get to, passing no enemy unit and no ground he may not
// ride into: the way to a friend that 6.7 blocks when there is none.
func (s *State) leaderSteps(l *Leader) map[engine.Hex]int {
	steps := map[engine.Hex]int{l.Hex: 0}
	for frontier := []engine.Hex{l.Hex}; len(frontier) > 0; {
		var next []engine.Hex
		for _, a := range frontier {
			for _, b := range a.Neighbors() {
				if _, seen := steps[b]; seen || !s.onMap(b) {
					continue
				}
				if e := s.at(b); e != nil && e.Side != l.Side {
					continue
				}
				if _, ok := s.enterCost(HC, a, b); !ok {
					continue
				}
				steps[b] = steps[a] + 1
				next = append(next, b)
			}
		}
		frontier = next
	}
	return steps
}

func status(tx *engine.Tx, s *State, c engine.Command) error {
	var b strings.Builder
	if s.Scenario != "" {
		fmt.Fprintf(&b, "%s. ", s.Scenario)
	}
	fmt.Fprintf(&b, "Play: %s", s.Flow.Stage)
	if s.Flow.Stage != SettingUp && s.Flow.Stage != Over {
		fmt.Fprintf(&b, " for %s", s.name(s.Flow.Side))
		if s.Flow.Run > 0 {
			fmt.Fprintf(&b, " (%d in a row)", s.Flow.Run)
		}
	}
	b.WriteString(". ")
	if s.Result != "" {
		b.WriteString(s.Result)
	} else {
		b.WriteString(s.next())
	}
	for side, a := range s.Armies {
		player := string(a.Player)
		if player == "" {
			player = "no one yet"
		}
		fmt.Fprintf(&b, "\n%s (%s): %d of %d rout points.", a.Name, player, s.losses(side), a.Withdraw)
		var ls []string
		for i := range s.Leaders {
			l := &s.Leaders[i]
			if l.Side != side {
				continue
			}
			st := l.Hex.String()
			if !l.In() {
				st = l.fate()
			}
			ls = append(ls, fmt.Sprintf("%s %s (init %d, range %d) %s", l.ID, l.Name, l.Initiative, l.Range, st))
		}
		if len(ls) > 0 {
			fmt.Fprintf(&b, "\n  Leaders: %s.", strings.Join(ls, "; "))
		}
		var us []string
		for i := range s.Units {
			u := &s.Units[i]
			if u.Side == side {
				us = append(us, u.brief())
			}
		}
		fmt.Fprintf(&b, "\n  Units: %s.", strings.Join(us, "; "))
	}
	tx.Say(engine.Message{To: c.Actor, Text: b.String()})
	return nil
}

// brief is a unit's state in a few words.
func (u *Unit) brief() string {
	where := u.Hex.String() + " " + u.Facing.String()
	switch {
	case u.Gone:
		return u.ID + " eliminated"
	case u.OffMap:
		where = "off the map, pursuing"
	}
	var notes []string
	if u.Status != Full {
		notes = append(notes, u.Status.String())
	}
	if u.Engaged {
		notes = append(notes, "engaged")
	}
	if u.Hits > 0 {
		notes = append(notes, engine.Plural(u.Hits, "missile hit", "missile hits"))
	}
	n := ""
	if len(notes) > 0 {
		n = " (" + strings.Join(notes, ", ") + ")"
	}
	kind := u.Type.String()
	if u.Star {
		kind += "*"
	}
	return fmt.Sprintf("%s %s %s%s", u.ID, kind, where, n)
}
