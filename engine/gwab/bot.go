package gwab

import (
	"cmp"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// What the bot needs to lead a clan: the commands it could give when the
// book waits for it (its clan's turn, a challenge to answer, a duel's
// choice after an impact, a successor, an impact to spend), and how good
// a position is for its side, counted in stands standing and wounds
// (3.4, 10.1) and in its Heroes' honor (4). GWAB hides nothing but the
// decks' order, which the engine draws afresh itself.

// nearFoes is how many of the nearest antagonists the bot weighs moving
// toward, shooting at and challenging, so that its list stays short on a
// crowded table.
const nearFoes = 3

// candidates lists what player could do now: in his clan's turn, each
// standing element moving toward each of its targets (all
// the way, to contact, or a few strides), each shooter shooting at them,
// the Hero challenging the antagonist Heroes near who have no more wounds
// left to take than he has (and so are no likelier to win the duel, see
// duelOdds), and standing aloof; and whatever answers the book
// awaits from him otherwise.
func candidates(s *State, player engine.PlayerID) []engine.Command {
	return engine.ListAll(listCandidates(s, player))
}

// listCandidates is candidates as an [engine.Lister] gives them: a clan's
// turn lists each command as what it does, and builds it only when read.
func listCandidates(s *State, player engine.PlayerID) (int, func(int) engine.Command) {
	built := func(out []engine.Command) (int, func(int) engine.Command) {
		return len(out), func(i int) engine.Command { return out[i] }
	}
	if s.Phase == Gathering {
		return built(s.botClans(player))
	}
	if s.Phase != Playing {
		return 0, nil
	}
	cmd := func(name string, opts ...string) engine.Command { return engine.NewCommand(player, name, opts...) }
	aw := s.awaited()
	if len(aw) == 0 || aw[0].Player != player {
		return 0, nil
	}
	switch {
	case s.Challenge != nil && !s.Challenge.Accepted:
		return built([]engine.Command{cmd("answer", "reply", "accept"), cmd("answer", "reply", "decline")})
	case s.Challenge != nil && s.Challenge.Pushed != "":
		return built([]engine.Command{cmd("answer", "reply", "fight"), cmd("answer", "reply", "withdraw")})
	}
	if cl := s.awaitingSuccessor(); cl != nil {
		var out []engine.Command
		for _, id := range cl.Successors {
			out = append(out, cmd("successor", "companion", string(id)))
		}
		return built(out)
	}
	if s.Fight != nil && s.Fight.Impact != nil {
		return built(s.impactSpends(player))
	}
	cur := s.Current()
	if cur == nil {
		return 0, nil
	}
	var acts []act
	foes := s.foesOf(cur.Tag)
	for i := range s.Elements {
		el := &s.Elements[i]
		if el.Clan != cur.Tag || el.Status != Standing || !el.Placed {
			continue
		}
		near := nearestAmong(el, foes)
		for _, foe := range targetsAmong(el, near, foes) {
			acts = append(acts, act{actToward, el.ID, foe.ID, engine.Vec{}}, act{actStride, el.ID, foe.ID, engine.Vec{}}, act{actFire, el.ID, foe.ID, engine.Vec{}})
			if s.isHero(el) && s.isHero(foe) && s.woundsLeft(el) >= s.woundsLeft(foe) {
				acts = append(acts, act{actChallenge, el.ID, foe.ID, engine.Vec{}})
			}
		}
		// A step back, away from the nearest antagonist.
		if len(near) > 0 {
			away := el.Base.Center.Add(el.Base.Center.Sub(near[0].Base.Center).Unit().Scale(2))
			acts = append(acts, act{actBack, el.ID, "", away})
		}
	}
	acts = append(acts, act{kind: actAloof})
	return len(acts), func(i int) engine.Command { return acts[i].command(player) }
}

// act is one of the commands a clan's turn offers, as what it does.
type act struct {
	kind    actKind
	el, foe ElementID
	to      engine.Vec // where a step back goes
}

type actKind uint8

const (
	actToward    actKind = iota // move el toward foe, all the way
	actStride                   // move el a stride toward foe
	actFire                     // el shoots at foe
	actChallenge                // el challenges foe
	actBack                     // move el to the point to
	actAloof                    // stand aloof
)

// command is a's command, given by player.
func (a act) command(player engine.PlayerID) engine.Command {
	cmd := func(name string, opts ...string) engine.Command { return engine.NewCommand(player, name, opts...) }
	switch a.kind {
	case actToward:
		return cmd("move", "element", string(a.el), "toward", string(a.foe))
	case actStride:
		return cmd("move", "element", string(a.el), "toward", string(a.foe), "strides", "1")
	case actFire:
		return cmd("fire", "element", string(a.el), "target", string(a.foe))
	case actChallenge:
		return cmd("challenge", "hero", string(a.foe))
	case actBack:
		return cmd("move", "element", string(a.el), "to", strconv.FormatFloat(a.to.X, 'f', 0, 64)+","+strconv.FormatFloat(a.to.Y, 'f', 0, 64))
	}
	return cmd("aloof")
}

// botRoster are the clans the bot raises, each with its Hero, the first
// whose names no one at the table has taken: Homer's (Iliad 2).
var botRoster = [][2]string{
	{"Myrmidons", "Achilles"}, {"Trojans", "Hector"}, {"Lycians", "Sarpedon"}, {"Achaeans", "Ajax"},
	{"Ithacans", "Odysseus"}, {"Dardanians", "Aeneas"}, {"Pylians", "Nestor"}, {"Thracians", "Rhesus"},
	{"Argives", "Diomedes"}, {"Mycenaeans", "Agamemnon"}, {"Spartans", "Menelaus"}, {"Paeonians", "Asteropaeus"},
}

// botClans lists the /clan raise player gives while the book gathers:
// one for each side he has no clan on yet (2.2), named from botRoster,
// with a warband of each kind of arms but the sling (2.3). None when the
// table holds as many clans as it may.
func (s *State) botClans(player engine.PlayerID) []engine.Command {
	var out []engine.Command
	taken := 0
	for side := Protagonist; side <= Antagonist; side++ {
		if len(s.Clans)+len(out) >= maxClans || slices.ContainsFunc(s.PlayerClans(player), func(c *Clan) bool { return c.Side == side }) {
			continue
		}
		for taken < len(botRoster) && (s.nameTaken(botRoster[taken][0]) || s.nameTaken(botRoster[taken][1])) {
			taken++
		}
		if taken == len(botRoster) {
			break
		}
		out = append(out, engine.Command{Actor: player, Name: "clan raise", Options: map[string]string{
			"name": botRoster[taken][0], "hero": botRoster[taken][1], "side": side.String(), "warbands": "spear,sword,bow,javelin"}})
		taken++
	}
	return out
}

// targets are the antagonists el weighs moving toward, shooting at and
// challenging: the nearest; the nearest of those already wounded, whom
// one more wound may put out of the fight (10.1.3), so that the bot can
// finish a foe off rather than start on a fresh one; and the nearest
// Hero or Companion, since a clan whose leaders have all fallen leaves
// the field (3.3, 6.2.4).
func (s *State) targets(el *Element) []*Element {
	foes := s.foesOf(el.Clan)
	return targetsAmong(el, nearestAmong(el, foes), foes)
}

// targetsAmong is targets, of foes (foesOf el's clan), of which near are
// the nearest (nearestAmong).
func targetsAmong(el *Element, near, foes []*Element) []*Element {
	out := slices.Clip(near)
	nearest := func(fits func(e *Element) bool) {
		var best *Element
		for _, e := range foes {
			if slices.Contains(out, e) || !fits(e) {
				continue
			}
			if best == nil || e.Base.Center.Dist(el.Base.Center) < best.Base.Center.Dist(el.Base.Center) {
				best = e
			}
		}
		if best != nil {
			out = append(out, best)
		}
	}
	nearest(func(e *Element) bool { return e.Wounds > 0 })
	nearest(func(e *Element) bool { return e.Kind == Hero || e.Kind == Companion })
	return out
}

// nearestFoes returns the standing antagonist elements nearest el,
// nearest first, at most nearFoes of them.
func (s *State) nearestFoes(el *Element) []*Element {
	return nearestAmong(el, s.foesOf(el.Clan))
}

// foesOf returns the elements of the clans antagonist to clan that can
// fight (on the table, and for a chariot, manned: an empty one can be
// neither fought nor shot), in the table's order: the foes of each of its
// elements, found once for all of them.
func (s *State) foesOf(clan ClanTag) []*Element {
	var out []*Element
	for i := range s.Elements {
		e := &s.Elements[i]
		if e.inPlay() && s.Antagonists(clan, e.Clan) {
			out = append(out, e)
		}
	}
	return out
}

// nearestAmong returns the nearFoes of foes nearest el, nearest first
// (of two as near, the one first on the table).
func nearestAmong(el *Element, foes []*Element) []*Element {
	type far struct {
		e *Element
		d float64
	}
	fs := make([]far, len(foes))
	for i, e := range foes {
		fs[i] = far{e, e.Base.Center.Dist(el.Base.Center)}
	}
	slices.SortStableFunc(fs, func(a, b far) int { return cmp.Compare(a.d, b.d) })
	out := make([]*Element, min(nearFoes, len(fs)))
	for i := range out {
		out[i] = fs[i].e
	}
	return out
}

// evaluate weighs the elements still standing in player's clans (he
// raises one on each side, 2.2) against the other players': a Hero counts
// 4, a Companion 3, a chariot 2, a warband 1, less for each wound (see
// worth), and less again by what the fighting under way may be expected
// to cost (see pending); the honor his Heroes won in the book adds a
// little. From -1 to 1. A finished book counts as won or lost
// whole, by whichever side has more standing: ending the book while
// behind is the worst a step can do, and ending it while ahead the best,
// however narrow the lead. So a fall the fighting under way may bring
// that would end the book counts, as likely as it is, as that end.
func evaluate(s *State, player engine.PlayerID) float64 {
	if len(s.PlayerClans(player)) == 0 {
		return 0
	}
	var us, them, honor float64
	for i := range s.Elements {
		el := &s.Elements[i]
		cl := s.Clan(el.Clan)
		if cl == nil {
			continue
		}
		if cl.Player == player && el.Kind == Hero {
			honor += float64(el.Gained)
		}
		if el.Status != Standing {
			continue
		}
		w := s.worth(el)
		if cl.Player == player {
			us += w
		} else {
			them += w
		}
	}
	var ends []fall
	standing, standingThem := us, them
	if !s.Over() {
		// What the fighting under way will cost each side, as it may be
		// expected: the book is not scored in the middle of a melee as if
		// its cards had not been drawn.
		var lossUs, lossThem float64
		lossUs, lossThem, ends = s.pending(player)
		us, them = max(0, us-lossUs), max(0, them-lossThem)
	}
	if us+them == 0 {
		return 0
	}
	share := (us - them) / (us + them)
	if s.Over() {
		share = settle(share)
	}
	if len(ends) > 0 {
		// A fall that would end the book settles it there, on what
		// stands after it, whatever else the melee was to cost.
		var chance, sum float64
		for _, f := range ends {
			u, t := standing, standingThem
			if f.ours {
				u -= f.cost
			} else {
				t -= f.cost
			}
			if u+t > 0 {
				chance += f.chance
				sum += f.chance * settle((u-t)/(u+t))
			}
		}
		if chance > 1 {
			sum, chance = sum/chance, 1
		}
		share = (1-chance)*share + sum
	}
	return 0.9*share + 0.1*max(-1, min(1, honor/50))
}

// settled is the least share of what stands by which a finished book is
// won rather than drawn.
const settled = 0.005

// settle is what share of what stands scores once the book is over:
// whoever has more standing has won it, by any margin, and no later step
// can turn it round.
func settle(share float64) float64 {
	if math.Abs(share) > settled {
		return math.Copysign(1, share)
	}
	return share
}

// fall is a fall the fighting under way may bring that would end the
// book (6.2): its chance, whether the element is the bot's side's, and
// what its side loses with it (fallCost).
type fall struct {
	chance float64
	ours   bool
	cost   float64
}

// worth is what el standing is worth to the bot: by its kind, less for
// each wound it has taken, down to half for one a last wound will put out
// of the fight (the wound limits of 10.1.3), since the wounds it can
// still take are what keep it in play.
func (s *State) worth(el *Element) float64 {
	limit := float64(max(1, s.woundLimit(el)))
	return kindWorth(el.Kind) * (1 - 0.5*float64(el.Wounds)/limit)
}

// kindWorth is what an element standing is worth to the bot, unwounded.
func kindWorth(k Kind) float64 {
	switch k {
	case Hero:
		return 4
	case Companion:
		// Each may take the fallen Hero's place, and the clan stays in
		// the field while one of them stands (3.2, 3.3).
		return 3
	case Chariot:
		return 2
	case Warband:
		return 1
	}
	return 0
}

// pending is what the fighting under way may be expected to cost player's
// side (us) and the others (them), before anything else is decided: the
// duel being fought, if any, and the round's melee (6.1 step 5), which is
// what remains to apply of one whose cards are drawn, or else one
// pairing for every two antagonist elements in contact (10.1.4).
//
// A pairing is won by the higher of all the cards its two elements draw
// (10.1.1, 10.1.2), which is as likely to be any one of them, and wounds
// when it is an ace or a face card; a number card's impact is counted as
// nothing, though it may push a stand into a wound.
func (s *State) pending(player engine.PlayerID) (us, them float64, ends []fall) {
	// wound counts a wound on el, as likely as chance; fell, one that
	// fells it.
	lose := func(el *Element, chance float64, fells bool) {
		ours := s.Clan(el.Clan) != nil && s.Clan(el.Clan).Player == player
		cost := s.woundCost(el)
		if fells {
			cost = s.fallCost(el)
		}
		switch {
		case chance <= 0:
		case (fells || s.woundsLeft(el) == 1) && s.fallEnds(el):
			ends = append(ends, fall{chance: chance, ours: ours, cost: s.fallCost(el)})
		case ours:
			us += chance * cost
		default:
			them += chance * cost
		}
	}
	if ch := s.Challenge; ch != nil && ch.Accepted {
		a, b := s.Element(ch.Challenger), s.Element(ch.Challenged)
		if a != nil && b != nil && a.Status == Standing && b.Status == Standing {
			p := s.duelOdds(a, b)
			lose(b, p, true)
			lose(a, 1-p, true)
		}
	}
	if f := s.Fight; f != nil {
		for i, p := range f.Pairings[min(f.Next, len(f.Pairings)):] {
			if i == 0 && f.Impact != nil {
				continue // its impact is being spent
			}
			if _, loser, _, _, out, _ := p.Judge(); out == Wound {
				if el := s.fighter(s.Element(loser)); el != nil && el.Status == Standing {
					lose(el, 1, false)
				}
			}
		}
		return us, them, ends
	}
	for _, c := range s.contacts() {
		a, b := c[0], c[1]
		an, bn := s.cardsAgainst(a, b)+b2i(a.Extra), s.cardsAgainst(b, a)+b2i(b.Extra)
		n := an + bn
		if n == 0 {
			continue
		}
		face := faceOdds(n) / float64(n)
		lose(s.fighter(b), float64(an)*face, false)
		lose(s.fighter(a), float64(bn)*face, false)
	}
	return us, them, ends
}

// fallEnds reports whether el's fall would end the book (6.2): a Class 4
// Hero's death (6.2.1), or the fall of a clan's last Hero or Companion
// where its leaving the field makes two clans so lost (6.2.4) or leaves
// its side none.
func (s *State) fallEnds(el *Element) bool {
	if s.isHero(el) && s.classOf(el) == 4 {
		return true
	}
	if !s.lastLeader(el) || s.endCondition() != "" {
		return false
	}
	after := *s
	after.Clans = slices.Clone(s.Clans)
	after.Clan(el.Clan).Gone = true
	return after.endCondition() != ""
}

// faceOdds is the chance that the highest of n cards drawn from a full
// deck is an ace or a face card: 16 of its 52.
func faceOdds(n int) float64 {
	none := 1.0
	for k := range min(n, 36) {
		none *= float64(36-k) / float64(52-k)
	}
	return 1 - none
}

// woundCost is what one more wound on el would cost its side: the fall
// in its worth, or, where the wound puts it out of the fight, everything
// its fall costs (see fallCost).
func (s *State) woundCost(el *Element) float64 {
	limit := max(1, s.woundLimit(el))
	if int(el.Wounds)+1 < limit {
		return kindWorth(el.Kind) * 0.5 / float64(limit)
	}
	return s.fallCost(el)
}

// fallCost is what el's fall would cost its side: its worth standing, and
// for the last Hero or Companion of a clan, the worth of every stand of
// the clan still in the fight too, since with none of them left the clan
// leaves the field (3.3, 10.1.3).
func (s *State) fallCost(el *Element) float64 {
	cost := s.worth(el)
	if !s.lastLeader(el) {
		return cost
	}
	for i := range s.Elements {
		if o := &s.Elements[i]; o.Clan == el.Clan && o.ID != el.ID && o.Status == Standing {
			cost += s.worth(o)
		}
	}
	return cost
}

// lastLeader reports whether el is the only Hero or Companion of its clan
// still standing.
func (s *State) lastLeader(el *Element) bool {
	if el.Kind != Hero && el.Kind != Companion {
		return false
	}
	for i := range s.Elements {
		o := &s.Elements[i]
		if o.Clan == el.Clan && o.ID != el.ID && o.Status == Standing && (o.Kind == Hero || o.Kind == Companion) {
			return false
		}
	}
	return true
}

// duelOdds is the chance that Hero a kills Hero b in a duel fought to the
// end: each plays one card an exchange (10.2.2), so each wound is as
// likely to fall on either, and a wins if b takes the wounds he has left
// before a takes his own (10.1.3's wound limits).
func (s *State) duelOdds(a, b *Element) float64 {
	ra, rb := s.woundsLeft(a), s.woundsLeft(b)
	// a wins when b's rb-th wound comes before a's ra-th: after j of a's
	// own wounds, j < ra, in any order with b's first rb-1.
	p, term := 0.0, math.Pow(0.5, float64(rb))
	for j := range ra {
		p += term
		term *= 0.5 * float64(rb+j) / float64(j+1)
	}
	return p
}

// woundsLeft is how many more wounds el can take before it falls, at
// least 1.
func (s *State) woundsLeft(el *Element) int {
	return max(1, s.woundLimit(el)-int(el.Wounds))
}

// impactSpends lists the ways player may spend the impact he won (10.1.3):
// all of it on the loser (the default); one stride bringing the victor
// forward to keep up the melee, the rest on the loser; and one stride
// each pushing back the melee's other antagonist stands, or bringing
// his own stands of it forward, as far as the strides go.
func (s *State) impactSpends(player engine.PlayerID) []engine.Command {
	imp := s.Fight.Impact
	victor := s.Element(imp.Victor)
	out := []engine.Command{engine.NewCommand(player, "impact")}
	if victor == nil || imp.Strides < 2 {
		return out
	}
	out = append(out, engine.NewCommand(player, "impact", "forward", string(victor.ID)))
	var push, forward []string
	seen := map[ElementID]bool{imp.Target: true, victor.ID: true}
	for _, p := range s.Fight.Pairings {
		for _, id := range []ElementID{p.A, p.B} {
			el := s.Element(id)
			if seen[id] || el == nil || !el.inPlay() {
				continue
			}
			seen[id] = true
			switch {
			case s.Antagonists(victor.Clan, el.Clan) && len(push) < imp.Strides-1:
				push = append(push, string(id))
			case el.Clan == victor.Clan && len(forward) < imp.Strides-2:
				forward = append(forward, string(id))
			}
		}
	}
	if len(push) > 0 {
		out = append(out, engine.NewCommand(player, "impact", "push", strings.Join(push, ",")))
	}
	if len(forward) > 0 {
		out = append(out, engine.NewCommand(player, "impact", "forward", strings.Join(append([]string{string(victor.ID)}, forward...), ",")))
	}
	return out
}
