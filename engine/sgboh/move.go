package sgboh

import (
	"fmt"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// Movement (SGBOH 6, 7.1-7.2, 7.16): units step into their frontal
// hexes and turn vertex by vertex, paying movement points by terrain;
// passing through friends costs one more (6.92); entering an enemy's
// frontal hex stops a unit whose MA is no greater (7.2); cavalry keep
// away from elephants (9.15); Engaged units do not move (6.4).

var moveCommands = []command{
	{CommandSpec: engine.CommandSpec{Name: "move", Help: "Move an activated unit (the bot finds the cheapest way), or turn it in place; or move the activated leader, with a unit stacked with him.",
		Example: "/move unit:PH1 to:0807 facing:NNE", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the unit or leader", Kind: engine.OptElement, Required: true},
			{Name: "to", Help: "the hex to move to (default: stay, to turn)", Kind: engine.OptPoint},
			{Name: "facing", Help: "the corner to face at the end: NNE, E, SSE, SSW, W or NNW", Choices: []string{"NNE", "E", "SSE", "SSW", "W", "NNW"}},
			{Name: "with", Help: "for a leader: the unit stacked with him that moves with him (4.2)", Kind: engine.OptElement},
		}}, Run: move},
	{CommandSpec: engine.CommandSpec{Name: "advance", Help: "Advance an attacker into the hex its defender retreated or routed from (8.5).",
		Example: "/advance unit:PH1", Options: []engine.OptionSpec{
			{Name: "unit", Help: "the attacking unit", Kind: engine.OptElement, Required: true},
		}}, Run: advance},
}

// turnCost is the movement points a unit pays to turn one vertex: open
// order troops (LI, SK, LC) turn freely, the rest pay 1 (our ruling;
// 7.1 keeps standard facing costs we do not have).
func turnCost(t Type) int {
	switch t {
	case LI, SK, LC:
		return 0
	}
	return 1
}

// node is a unit's place and facing while moving.
type node struct {
	H engine.Hex
	F engine.HexFacing
}

// reach is the cheapest way found to a node.
type reach struct {
	cost int
	from node
	stop bool // entered an enemy's frontal hex: it may go no further (7.2)
	via  bool // passing through a friend: it may not end here
}

// paths finds every place and facing u can reach this activation, with
// the cheapest cost of each.
func (s *State) paths(u *Unit) *ways { return s.pathsStopping(u, true) }

// ways is what a search of u's moves found: the cheapest way to each
// place and facing it can reach. A node's slot is its hex's cell times 7
// plus its facing; a start off the map has slots of its own after the
// map's, for its turns in place.
type ways struct {
	s     *State
	start node
	slots []int32 // by slot: 1 + the node's place in nodes, 0 where not reached
	nodes []node  // the nodes reached, in the order first reached
	best  []reach // the cheapest way to each of nodes
}

func (w *ways) slot(n node) (int, bool) {
	if i, ok := w.s.index(n.H); ok {
		return i*7 + int(n.F), true
	}
	if n.H == w.start.H {
		return len(w.s.Cells.all)*7 + int(n.F), true
	}
	return 0, false
}

// at is the cheapest way to n, if u can reach it.
func (w *ways) at(n node) (reach, bool) {
	i, ok := w.slot(n)
	if !ok || w.slots[i] == 0 {
		return reach{}, false
	}
	return w.best[w.slots[i]-1], true
}

// from is the node the cheapest way to n comes from.
func (w *ways) from(n node) node {
	r, _ := w.at(n)
	return r.from
}

// set records r as the cheapest way to n.
func (w *ways) set(n node, r reach) {
	i, _ := w.slot(n)
	if w.slots[i] == 0 {
		w.nodes, w.best = append(w.nodes, n), append(w.best, r)
		w.slots[i] = int32(len(w.nodes))
		return
	}
	w.best[w.slots[i]-1] = r
}

// pathsStopping is paths; without stops it lets u go on through enemies'
// fronts, to tell a player where 7.2 stops a move he asked for.
func (s *State) pathsStopping(u *Unit, stops bool) *ways {
	g := s.moveGround(u)
	start := node{u.Hex, u.Facing}
	w := &ways{s: s, start: start, slots: make([]int32, (len(s.Cells.all)+1)*7)}
	w.set(start, reach{})
	var q nodeQueue
	q.push(queued{n: start})
	for len(q) > 0 {
		it := q.pop()
		r, _ := w.at(it.n)
		if it.cost > r.cost || r.stop && stops {
			continue
		}
		try := func(n node, cost int, stop, via bool) {
			if cost > u.MA {
				return
			}
			if old, ok := w.at(n); ok && old.cost <= cost {
				return
			}
			w.set(n, reach{cost: cost, from: it.n, stop: stop, via: via})
			q.push(queued{n: n, cost: cost})
		}
		for _, t := range []int{-1, 1} {
			try(node{it.n.H, it.n.F.Turn(t)}, r.cost+turnCost(u.Type), false, r.via)
		}
		for _, h := range engine.FrontHexes(it.n.H, it.n.F) {
			i, ok := s.index(h)
			if !ok {
				continue
			}
			cost, ok := s.enterCost(u.Type, it.n.H, h)
			if !ok {
				continue
			}
			via := false
			if o := g.occ[i]; o != nil {
				if o.Side != u.Side {
					continue
				}
				via = true
				cost++
			}
			if u.Type.Cavalry() && g.nearEL[i] {
				continue
			}
			try(node{h, it.n.F}, r.cost+cost, g.stopAt[i], via)
		}
	}
	return w
}

// ground is the map indexed for one unit's move, by cell: the unit each
// hex holds (as at finds it), the hexes where it must stop (stopper), and
// those next to an enemy elephant (nearElephant).
type ground struct {
	occ            []*Unit
	stopAt, nearEL []bool
}

// moveGround indexes the map for u's move, once rather than at every
// step of the search.
func (s *State) moveGround(u *Unit) ground {
	n := len(s.Cells.all)
	g := ground{occ: make([]*Unit, n), stopAt: make([]bool, n), nearEL: make([]bool, n)}
	mark := func(on []bool, h engine.Hex) {
		if i, ok := s.index(h); ok {
			on[i] = true
		}
	}
	for i := range s.Units {
		if o := &s.Units[i]; o.On() {
			if j, ok := s.index(o.Hex); ok && g.occ[j] == nil {
				g.occ[j] = o
			}
		}
	}
	for i := range s.Units {
		e := &s.Units[i]
		if j, ok := s.index(e.Hex); !ok || g.occ[j] != e || e.Side == u.Side {
			continue
		}
		if e.MA >= u.MA && !e.lockedOut() {
			for _, f := range engine.FrontHexes(e.Hex, e.Facing) {
				mark(g.stopAt, f)
			}
		}
		if e.Type == EL {
			for _, h := range e.Hex.Neighbors() {
				mark(g.nearEL, h)
			}
		}
	}
	return g
}

// nearElephant reports whether an enemy elephant stands next to h.
func (s *State) nearElephant(side int, h engine.Hex) bool {
	for _, e := range s.enemiesNext(side, h) {
		if e.Type == EL {
			return true
		}
	}
	return false
}

// stopper is the enemy whose front stops u on entering h (7.2): one with
// an MA at least u's, or nil.
func (s *State) stopper(u *Unit, h engine.Hex) *Unit {
	for _, e := range s.enemiesNext(u.Side, h) {
		if e.MA < u.MA || e.lockedOut() {
			continue
		}
		for _, f := range engine.FrontHexes(e.Hex, e.Facing) {
			if f == h {
				return e
			}
		}
	}
	return nil
}

// stopShort explains a move to h that 7.2 cuts short: the enemy whose
// front u enters on the cheapest way there, and the hex where it must
// stop, offered as the move it may make instead. It returns "" when
// stops are not what keeps u from h.
func (s *State) stopShort(u *Unit, h engine.Hex, f engine.HexFacing) string {
	ps := s.pathsStopping(u, false)
	var end *node
	best := -1
	for _, ff := range engine.HexFacings {
		if f != engine.NoHexFacing && ff != f {
			continue
		}
		if r, ok := ps.at(node{h, ff}); ok && !r.via && (best < 0 || r.cost < best) {
			n := node{h, ff}
			end, best = &n, r.cost
		}
	}
	if end == nil {
		return ""
	}
	var way []node
	for n := *end; n != (node{u.Hex, u.Facing}) && len(way) <= len(ps.nodes); n = ps.from(n) {
		way = append(way, n)
	}
	for i := len(way) - 1; i >= 0; i-- {
		n := way[i]
		if n.H == u.Hex {
			continue
		}
		e := s.stopper(u, n.H)
		if e == nil {
			continue
		}
		msg := fmt.Sprintf("on the way it enters the front of %s at %s and must stop there, %s's MA being no lower than its own", e.ID, n.H, e.ID)
		if _, _, ok := s.route(u, n.H, engine.NoHexFacing); ok {
			msg += fmt.Sprintf(". To stop there: /move unit:%s to:%s", u.ID, n.H)
		}
		return msg
	}
	return ""
}

type queued struct {
	n    node
	cost int
}

// nodeQueue is the search's queue, cheapest first; ties go by place and
// facing, so that every node comes out in one order, whatever the order
// it went in.
type nodeQueue []queued

func (q nodeQueue) less(i, j int) bool {
	if q[i].cost != q[j].cost {
		return q[i].cost < q[j].cost
	}
	a, b := q[i].n, q[j].n
	if a.H != b.H {
		return a.H.Q < b.H.Q || a.H.Q == b.H.Q && a.H.R < b.H.R
	}
	return a.F < b.F
}

func (q *nodeQueue) push(it queued) {
	*q = append(*q, it)
	h := *q
	for i := len(h) - 1; i > 0; {
		up := (i - 1) / 2
		if !h.less(i, up) {
			break
		}
		h[i], h[up] = h[up], h[i]
		i = up
	}
}

func (q *nodeQueue) pop() queued {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		c := 2*i + 1
		if c >= len(h) {
			break
		}
		if c+1 < len(h) && h.less(c+1, c) {
			c++
		}
		if !h.less(c, i) {
			break
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
	*q = h
	return top
}

// route picks the cheapest way for u to end in h, facing f if given.
func (s *State) route(u *Unit, h engine.Hex, f engine.HexFacing) (reach, engine.HexFacing, bool) {
	ps := s.paths(u)
	var got reach
	gotF := engine.NoHexFacing
	for _, ff := range append([]engine.HexFacing{u.Facing}, engine.HexFacings[:]...) {
		if f != engine.NoHexFacing && ff != f {
			continue
		}
		r, ok := ps.at(node{h, ff})
		if !ok || r.via {
			continue
		}
		if gotF == engine.NoHexFacing || r.cost < got.cost {
			got, gotF = r, ff
		}
	}
	return got, gotF, gotF != engine.NoHexFacing
}

func move(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := acting(s, c, Acting)
	if err != nil {
		return err
	}
	w := begin(tx, s)
	if l := w.leader(c.Opt("unit")); l != nil {
		if err := w.moveLeader(me, l, c); err != nil {
			return err
		}
		return w.emit(func(e Effects) engine.Body { return Moved{e} })
	}
	u, err := w.activeUnit(me, c.Opt("unit"))
	if err != nil {
		return err
	}
	if c.Has("with") {
		return engine.Refuse("", "with: only a leader takes a unit with him.")
	}
	if err := w.moveUnit(u, c.Opt("to"), c.Opt("facing")); err != nil {
		return err
	}
	return w.emit(func(e Effects) engine.Body { return Moved{e} })
}

// afterShock refuses movement and fire once the attacks are declared:
// the activated units move and fire, then shock, then rally (3.1 B), and
// attacks come only when all movement is finished (8.3).
const afterShock = "The attacks of this activation are declared: movement and fire are over (units move and fire, then shock, then rally)."

// activeUnit finds one of the side's units activated and free to act.
func (w *work) activeUnit(me int, id string) (*Unit, error) {
	u := w.unit(id)
	switch {
	case u == nil || u.Side != me:
		return nil, engine.Refuse("", "%s is no unit of %s.", id, w.name(me))
	case !u.On():
		return nil, engine.Refuse("", "%s is not on the map.", u.ID)
	case u.lockedOut():
		// A routed unit is never activated; say why, not merely that.
		return nil, engine.Refuse("10.25", "%s is routed, and routed units may not act: they move only in rout, and rally when an activated leader's range takes them in.", u.ID)
	case !u.Act:
		return nil, engine.Refuse("4.2", "%s is not activated: only the units the activated leader commands act (%s).", u.ID, w.activeWords())
	case u.Rallied:
		return nil, engine.Refuse("10.27", "%s rallied instead of moving or fighting.", u.ID)
	}
	return u, nil
}

// activeWords says which units this activation commands.
func (s *State) activeWords() string {
	var ids []string
	for i := range s.Units {
		if s.Units[i].Act && s.Units[i].On() {
			ids = append(ids, s.Units[i].ID)
		}
	}
	if len(ids) == 0 {
		return "none yet"
	}
	return "now " + strings.Join(ids, ", ")
}

// moveUnit moves u to the hex named (or keeps it in place) to end facing
// as given, by the cheapest way, and asks the enemy it comes next to
// about reaction facing.
func (w *work) moveUnit(u *Unit, to, facing string) error {
	switch {
	case u.Moved:
		return engine.Refuse("6.1", "%s has moved in this activation.", u.ID)
	case u.Engaged:
		return engine.Refuse("6.4", "%s is Engaged and may not move.", u.ID)
	case u.Fought:
		return engine.Refuse("3.1", "%s has shocked: units move before they shock.", u.ID)
	case w.Flow.Shocked:
		return engine.Refuse("3.1", afterShock)
	}
	dest := u.Hex
	if strings.TrimSpace(to) != "" {
		h, err := parseHexOn(w.State, "to", to)
		if err != nil {
			return err
		}
		dest = h
	}
	f := engine.NoHexFacing
	if facing != "" {
		ff, err := engine.ParseHexFacing(facing)
		if err != nil {
			return engine.Refuse("", "facing: NNE, E, SSE, SSW, W or NNW.")
		}
		f = ff
	}
	if dest == u.Hex && (f == engine.NoHexFacing || f == u.Facing) {
		return engine.Refuse("", "Give the hex to move to, or a new facing.")
	}
	if o := w.at(dest); o != nil && o != u {
		return engine.Refuse("6.91", "%s stands in %s: one combat unit to a hex.", o.ID, dest)
	}
	r, ff, ok := w.route(u, dest, f)
	if !ok {
		if why := w.stopShort(u, dest, f); why != "" {
			return engine.Refuse("7.2", "%s cannot reach %s%s: %s.", u.ID, dest, facingWords(f), why)
		}
		return engine.Refuse("6.1", "%s cannot reach %s%s this activation: %s.", u.ID, dest, facingWords(f), w.whyNot(u, dest))
	}
	from := u.Hex
	u.Hex, u.Facing, u.Moved = dest, ff, true
	stop := ""
	if r.stop {
		stop = "; it stops, in an enemy's front (7.2)"
	}
	if dest == from {
		// Turning where it stands, it has moved adjacent to no one.
		w.say("%s turns to face %s (%d of %d MP).", u.ID, ff, r.cost, u.MA)
		return nil
	}
	w.say("%s moves from %s to %s, facing %s (%d of %d MP)%s.", u.ID, from, dest, ff, r.cost, u.MA, stop)
	w.mark(Mark{Kind: engine.MoveMark, From: from, To: dest, Side: u.Side})
	w.askFacing(u)
	return nil
}

func facingWords(f engine.HexFacing) string {
	if f == engine.NoHexFacing {
		return ""
	}
	return " facing " + f.String()
}

// whyNot says why a unit cannot reach a hex.
func (s *State) whyNot(u *Unit, h engine.Hex) string {
	if _, ok := s.cell(h).Ground.cost(u.Type); !ok {
		return fmt.Sprintf("%s may not enter %s", u.Type.Words(), s.cell(h).Ground)
	}
	if u.Type.Cavalry() && s.nearElephant(u.Side, h) {
		return "cavalry may not move next to elephants (9.15)"
	}
	return fmt.Sprintf("it has %d MP, steps only into its frontal hexes, pays by terrain and for turning, and stops in an enemy's front", u.MA)
}

// askFacing asks each enemy unit the mover has come next to whether it
// withdraws (6.7), and, through its flank or rear, whether it turns to
// face (7.16): every one next to the hex it moved to, even one it stood
// next to before and has only slid round. A unit that withdraws is
// asked no more.
func (w *work) askFacing(u *Unit) {
	for _, e := range w.enemiesNext(u.Side, u.Hex) {
		if to, ok := w.withdrawal(e, u); ok {
			w.Flow.Queue = append(w.Flow.Queue, Question{Kind: "withdraw", Side: e.Side, Unit: e.ID, Foe: u.ID, To: to})
		}
		if e.Status != Full || e.Engaged || e.Faced {
			continue
		}
		if engine.HexAspect(e.Hex, e.Facing, u.Hex) == engine.Front {
			continue
		}
		w.Flow.Queue = append(w.Flow.Queue, Question{Kind: "face", Side: e.Side, Unit: e.ID, Foe: u.ID})
	}
	w.askLine()
}

// askLine tells the table the question now asked, if any.
func (w *work) askLine() {
	if len(w.Flow.Queue) == 0 {
		return
	}
	q := w.Flow.Queue[0]
	w.say("%s: %s", w.name(q.Side), w.questionText(q))
}

// moveLeader moves the activated leader before he commands (4.2, 6.1),
// with the unit stacked with him if one is named.
func (w *work) moveLeader(me int, l *Leader, c engine.Command) error {
	switch {
	case l.Side != me:
		return engine.Refuse("", "%s is no leader of %s.", l.Name, w.name(me))
	case l.ID != w.Flow.Leader:
		return engine.Refuse("6.1", "Leaders move only when activated; %s is not.", l.Name)
	case l.Moved:
		return engine.Refuse("6.1", "%s has moved in this activation.", l.Name)
	case w.Flow.Line != "":
		return engine.Refuse("4.2", "%s moves before he commands his units.", l.Name)
	case c.Has("facing") && !c.Has("with"):
		return engine.Refuse("", "Leaders have no facing.")
	}
	dest, err := parseHexOn(w.State, "to", c.Opt("to"))
	if err != nil {
		return err
	}
	if e := w.at(dest); e != nil && e.Side != me {
		return engine.Refuse("", "An enemy unit stands in %s.", dest)
	}
	cost, ok := w.leaderPath(l, dest)
	if !ok {
		return engine.Refuse("6.1", "%s cannot reach %s with %d MP.", l.Name, dest, l.MA)
	}
	from := l.Hex
	if c.Has("with") {
		u := w.unit(c.Opt("with"))
		switch {
		case u == nil || u.Side != me || !u.On() || u.Hex != from:
			return engine.Refuse("4.2", "with: %s is no unit stacked with %s.", c.Opt("with"), l.Name)
		case u.lockedOut():
			return engine.Refuse("10.25", "%s is routed and can do nothing on its own.", u.ID)
		}
		u.Act = true
		if err := w.moveUnit(u, dest.String(), c.Opt("facing")); err != nil {
			return err
		}
	}
	l.Hex, l.Moved = dest, true
	w.say("%s rides from %s to %s (%d of %d MP).", l.Name, from, dest, cost, l.MA)
	w.mark(Mark{Kind: engine.MoveMark, From: from, To: dest, Side: me, Label: l.ID})
	return nil
}

// leaderPath returns the cheapest cost for a leader to ride to h,
// paying as cavalry and passing no enemy unit.
func (s *State) leaderPath(l *Leader, h engine.Hex) (int, bool) {
	best := map[engine.Hex]int{l.Hex: 0}
	frontier := []engine.Hex{l.Hex}
	for len(frontier) > 0 {
		var next []engine.Hex
		for _, a := range frontier {
			for _, b := range a.Neighbors() {
				if !s.onMap(b) {
					continue
				}
				if e := s.at(b); e != nil && e.Side != l.Side {
					continue
				}
				c, ok := s.enterCost(HC, a, b)
				if !ok {
					continue
				}
				c += best[a]
				if c > l.MA {
					continue
				}
				if old, seen := best[b]; seen && old <= c {
					continue
				}
				best[b] = c
				next = append(next, b)
			}
		}
		frontier = next
	}
	c, ok := best[h]
	return c, ok
}

func advance(tx *engine.Tx, s *State, c engine.Command) error {
	me, err := acting(s, c, Acting)
	if err != nil {
		return err
	}
	w := begin(tx, s)
	u := w.unit(c.Opt("unit"))
	if u == nil || u.Side != me || !u.On() {
		return engine.Refuse("", "%s is no unit of %s on the map.", c.Opt("unit"), s.name(me))
	}
	for i, v := range w.Flow.Vacated {
		if !containsID(v.By, u.ID) {
			continue
		}
		switch {
		case u.lockedOut():
			return engine.Refuse("10.25", "%s is routed.", u.ID)
		case u.Engaged:
			return engine.Refuse("8.5", "%s is Engaged and may not advance.", u.ID)
		case w.at(v.Hex) != nil:
			return engine.Refuse("8.5", "%s is no longer empty.", v.Hex)
		case u.Type.Cavalry() && w.nearElephant(u.Side, v.Hex):
			return engine.Refuse("9.15", "%s is next to an enemy elephant, and cavalry may not move next to elephants.", v.Hex)
		}
		from := u.Hex
		u.Hex = v.Hex
		w.carryLeaders(me, from, v.Hex)
		w.Flow.Vacated = append(w.Flow.Vacated[:i:i], w.Flow.Vacated[i+1:]...)
		w.say("%s advances from %s into %s (8.5).", u.ID, from, v.Hex)
		w.mark(Mark{Kind: engine.MoveMark, From: from, To: v.Hex, Side: me})
		// An advance is a move: the enemies it comes next to may
		// withdraw or turn, as for any move (6.7, 7.16).
		w.askFacing(u)
		return w.emit(func(e Effects) engine.Body { return Advanced{e} })
	}
	return engine.Refuse("8.5", "%s has no hex to advance into: a unit advances only into the hex its defender retreated or routed from.", u.ID)
}

func containsID(ids []string, id string) bool {
	for _, x := range ids {
		if strings.EqualFold(x, id) {
			return true
		}
	}
	return false
}

// withdrawal finds where e may make an orderly withdrawal from the mover
// u that has come next to it (6.7; the when and where are our ruling, as
// standard 6.71-6.72 are not in the text): e, neither routed, Engaged nor
// a chariot (9.21), whose MA is greater than u's, steps one hex to a free
// hex it may enter next to no enemy unit, the one furthest from u and of
// those nearest its own edge; once in an enemy activation.
func (w *work) withdrawal(e, u *Unit) (engine.Hex, bool) {
	if !e.On() || e.Status == Routed || e.Engaged || e.Withdrew || e.Type == CH || e.MA <= u.MA {
		return engine.Hex{}, false
	}
	var best engine.Hex
	score := -1
	for _, n := range e.Hex.Neighbors() {
		if !w.canStand(e, n, false) || w.at(n) != nil || len(w.enemiesNext(e.Side, n)) > 0 {
			continue
		}
		if v := engine.HexDistance(u.Hex, n)*100 - w.edgeDist(e.Side, n); v > score {
			best, score = n, v
		}
	}
	return best, score >= 0
}

// withdraw makes e's orderly withdrawal to h from the mover u (6.7): one
// hex, facing kept; then a roll against its TQ, with 2 added when u came
// at it from behind, and above the TQ it is Disordered (a Disorder that
// is no shock result: an elephant does not rampage).
func (w *work) withdraw(e, u *Unit, h engine.Hex) {
	behind := engine.HexAspect(e.Hex, e.Facing, u.Hex) == engine.Rear
	from := e.Hex
	e.Hex, e.Withdrew = h, true
	w.carryLeaders(e.Side, from, h)
	w.mark(Mark{Kind: engine.MoveMark, From: from, To: h, Side: e.Side})
	w.tx.Why(e.ID + "'s orderly withdrawal")
	r := w.roll()
	total, mod := r, ""
	if behind {
		total, mod = r+2, " +2 approached from behind"
	}
	if total <= e.TQ {
		w.say("%s withdraws from %s to %s (6.7): roll %d%s = %d, within its TQ %d.", e.ID, from, h, r, mod, total, e.TQ)
		return
	}
	w.say("%s withdraws from %s to %s (6.7): roll %d%s = %d, above its TQ %d.", e.ID, from, h, r, mod, total, e.TQ)
	w.disorder(e, u.Hex, true)
}
