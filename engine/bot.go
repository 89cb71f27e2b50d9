package engine

import (
	"cmp"
	"errors"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// The bot: a player the engine plays itself. A rule system that is a
// [Strategist] lists the commands the awaited player could give now and
// scores a position for a player; the search here, the same for every
// rule system, tries each candidate on copies of the game in which what
// the bot's seat cannot see is drawn afresh (determinization), plays each
// copy on with random commands for a few steps (a rollout), and keeps the
// candidate whose copies score best on average: flat Monte Carlo over
// determinized samples, on a shortlist of the candidates that look best
// one step ahead. A choice sealed while the other side makes its own is
// drawn from a mix instead ([Mixer]). Its budget is counted in playouts, never in time,
// and its random source is seeded from the table's seed and the step's
// number, so a game with the bot replays exactly from its log.

// Strategist is implemented by rule systems whose seats the bot can hold.
type Strategist interface {
	// Candidates lists the commands player could give now, each with
	// Actor set: a bounded list, which the engine's Decide filters, so it
	// may hold commands the rules refuse. Empty when player has nothing
	// to do.
	Candidates(s State, player PlayerID) []Command
	// Evaluate scores s for player, from -1 (lost) to 1 (won), in the
	// rule system's own terms (material, morale, honor, objectives).
	Evaluate(s State, player PlayerID) float64
}

// Concealer is implemented by rule systems whose states hold what a
// player may not see (another side's sealed choices, cards in another's
// hand): Conceal returns a copy of s with those drawn afresh from r,
// consistent with what player knows. The engine itself redraws the
// table's future: the decks' order and the dice.
type Concealer interface {
	Conceal(s State, player PlayerID, r *rand.Rand) State
}

// Mixer is implemented by rule systems in which a player makes a sealed
// choice while the other side makes its own (sweet's melee indicators):
// there no single choice is best, since a player who learned it would
// answer it, and the bot plays a mix. Mix returns a weight for each of
// cands, player's legal candidates in s, or nil where the bot searches as
// usual. It may read only what player may see: s is a determinized copy.
type Mixer interface {
	Mix(s State, player PlayerID, cands []Command) []float64
}

// Lister is implemented by rule systems whose candidate lists are dear
// to build, a command being a map of its options: List is [Strategist]'s
// Candidates as their number and a function that builds the i-th of them,
// alike in every way. A playout draws a few of a player's candidates at
// random at every step, and with a Lister builds only those it draws.
type Lister interface {
	List(s State, player PlayerID) (n int, at func(i int) Command)
}

// Strider is implemented by rule systems whose players give many small
// commands in a row (one for each unit moved, shot or sent to support):
// Stride is how many of their steps make one step of the bot's
// look-ahead, so that a level looks as far into the game in each.
type Strider interface {
	Stride() int
}

// Divider is implemented by rule systems in which a player gives one
// answer as several commands in a row, each decided on its own (Goliath's
// written orders, a unit's order a command): Parts is how many commands
// player's answer at hand takes in all, counting those he has given, and
// 0 or 1 when he is giving no such answer. The bot spends on each of them
// its share of one decision's playouts, so that the whole answer costs
// about what one decision does (each command's shortlist aside), however
// many units it orders.
type Divider interface {
	Parts(s State, player PlayerID) int
}

// Tuner is implemented by rule systems whose game a level searches better
// otherwise than the engine's default for it: Budget returns the level's
// search in that system, and false for a level left as it is.
type Tuner interface {
	Budget(l Level) (Budget, bool)
}

// Strategy is what the bot needs of a rule system, typed on its state:
// embedded in the rule system beside its [Rulebook], it makes it a
// [Strategist] and a [Concealer]. Propose lists the candidates and
// Assess scores a position (see [Strategist]); Redraw, left nil where
// the state hides nothing but the table's future (which [Determinize]
// draws afresh itself), is [Concealer.Conceal]; Blend, left nil where
// no choice is sealed while the other side makes its own, is [Mixer.Mix];
// Steps, 0 for 1, is [Strider.Stride]; Divide, left nil where every
// answer is one command, is [Divider.Parts]; Listed, left nil where Propose
// builds its list cheaply, is [Lister.List], and Propose must then list
// what it builds; Easy and Hard, left zero for the engine's default, are
// those levels' [Budget] ([Tuner]).
type Strategy[S State] struct {
	Propose func(s S, player PlayerID) []Command
	Listed  func(s S, player PlayerID) (int, func(int) Command)
	Assess  func(s S, player PlayerID) float64
	Redraw  func(s S, player PlayerID, r *rand.Rand) S
	Blend   func(s S, player PlayerID, cands []Command) []float64
	Divide  func(s S, player PlayerID) int
	Steps   int
	Easy    Budget
	Hard    Budget
}

// Budget is Easy or Hard, for that level, where it is set.
func (y Strategy[S]) Budget(l Level) (Budget, bool) {
	var b Budget
	switch l {
	case Easy:
		b = y.Easy
	case Hard:
		b = y.Hard
	}
	return b, b != (Budget{})
}

// Stride is Steps, at least 1.
func (y Strategy[S]) Stride() int { return max(1, y.Steps) }

var (
	_ Strategist = Strategy[State]{}
	_ Concealer  = Strategy[State]{}
	_ Mixer      = Strategy[State]{}
	_ Strider    = Strategy[State]{}
	_ Lister     = Strategy[State]{}
	_ Divider    = Strategy[State]{}
	_ Tuner      = Strategy[State]{}
)

// Parts is Divide, or 1.
func (y Strategy[S]) Parts(st State, player PlayerID) int {
	s, ok := st.(S)
	if !ok || y.Divide == nil {
		return 1
	}
	return max(1, y.Divide(s, player))
}

// List is Listed, or the list Propose builds.
func (y Strategy[S]) List(st State, player PlayerID) (int, func(int) Command) {
	s, ok := st.(S)
	if ok && y.Listed != nil {
		return y.Listed(s, player)
	}
	cands := y.Candidates(st, player)
	return len(cands), func(i int) Command { return cands[i] }
}

// ListAll builds every command of a list as a [Lister] gives it: what
// Propose returns for a rule system whose Listed builds them lazily.
func ListAll(n int, at func(int) Command) []Command {
	out := make([]Command, n)
	for i := range out {
		out[i] = at(i)
	}
	return out
}

// Mix weighs player's candidates in st through Blend; without it, nil.
func (y Strategy[S]) Mix(st State, player PlayerID, cands []Command) []float64 {
	s, ok := st.(S)
	if !ok || y.Blend == nil {
		return nil
	}
	return y.Blend(s, player, cands)
}

// Candidates lists player's candidates in st through Propose.
func (y Strategy[S]) Candidates(st State, player PlayerID) []Command {
	s, ok := st.(S)
	if !ok || y.Propose == nil {
		return nil
	}
	return y.Propose(s, player)
}

// Evaluate scores st for player through Assess.
func (y Strategy[S]) Evaluate(st State, player PlayerID) float64 {
	s, ok := st.(S)
	if !ok || y.Assess == nil {
		return 0
	}
	return y.Assess(s, player)
}

// Conceal redraws what player may not see in st through Redraw; without
// it st is returned as it is.
func (y Strategy[S]) Conceal(st State, player PlayerID, r *rand.Rand) State {
	s, ok := st.(S)
	if !ok || y.Redraw == nil {
		return st
	}
	return y.Redraw(s, player, r)
}

// Level is how hard the bot thinks. The zero Level is Normal.
type Level uint8

const (
	Normal Level = iota
	Easy
	Hard
)

var levelNames = [...]string{Normal: "normal", Easy: "easy", Hard: "hard"}

func (l Level) String() string {
	if int(l) < len(levelNames) {
		return levelNames[l]
	}
	return fmt.Sprintf("Level(%d)", l)
}

// ParseLevel reads easy, normal or hard; "" is normal.
func ParseLevel(s string) (Level, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	if s == "" {
		return Normal, nil
	}
	for l, n := range levelNames {
		if n == s {
			return Level(l), nil
		}
	}
	return Normal, Refuse("", "level:%s is not a level; choose easy, normal or hard.", s)
}

// Budget is what a level of the bot spends on one decision.
type Budget struct {
	// Playouts in all, shared among the shortlisted candidates (each has
	// one at least), and how many steps each looks ahead before the
	// position is scored (times the system's [Strider.Stride]).
	Playouts, Depth int
	// Wide is how many candidates the shortlist keeps, and Worlds in how
	// many drawn worlds it looks at each one step ahead to choose them.
	Wide, Worlds int
}

// budget is what l spends on one decision, where the rule system does
// not tune it ([Tuner]).
//
// Easy and normal weigh the 8 candidates that look best one step ahead.
// Hard weighs them all (up to 64), and looks only 4 steps ahead, in many more
// playouts. Where a step changes no score (most moves in GWAB, where
// only a shot or a melee draws cards) a look one step ahead ranks
// candidates by the order they were listed in: in 5 of 8 GWAB positions
// sampled from a game, the command a long search of every candidate
// chose was not on the short list. And a playout's players give noisy
// commands, so that 10 steps on what the first command did is lost in
// what they did after it: searching one position twice from two seeds,
// the old hard level (1280 playouts, 10 steps) chose alike in 4 of 10
// sweet positions and 1 of 8 GWAB ones, no more often than easy; looking
// 4 steps ahead, it chose alike in all 10 sweet positions. By the Gods!
// and Simple GBoH tune hard deeper ([Tuner]): there 4 steps seldom see a
// unit's move through to the fight it leads to. Simple GBoH tunes easy
// shallower and narrower, for its lists are short enough that the default
// easy weighs them whole.
//
// Normal looks at its candidates in 8 worlds to shortlist them, where
// easy looks in 2: a move into a melee that may end the book looks good
// in both of 2 worlds about as often as not, and in a GWAB arena game the
// copies of one such move, lucky together, filled normal's whole list
// and it played one, a move whose own playouts scored it below standing
// still.
func (l Level) budget() Budget {
	switch l {
	case Easy:
		return Budget{Playouts: 30, Depth: 3, Wide: 8, Worlds: 2}
	case Hard:
		return Budget{Playouts: 2048, Depth: 4, Wide: 64, Worlds: 4}
	}
	return Budget{Playouts: 320, Depth: 6, Wide: 8, Worlds: 8}
}

// budgetIn is what l spends on one decision in the rule system rules.
func (l Level) budgetIn(rules Ruleset) Budget {
	if t, ok := rules.(Tuner); ok {
		if b, ok := t.Budget(l); ok {
			return b
		}
	}
	return l.budget()
}

// BotPlayer is the name the bot holds a seat under: "bot" at the normal
// level, "bot:easy" or "bot:hard" otherwise.
func BotPlayer(l Level) PlayerID {
	if l == Normal {
		return "bot"
	}
	return PlayerID("bot:" + l.String())
}

// IsBot reports whether p is a seat's bot (written as [BotPlayer] writes
// it, with any "#N" suffix that tells two bots apart) and at what level.
func IsBot(p PlayerID) (Level, bool) {
	s, _, _ := strings.Cut(string(p), "#")
	if s == "bot" {
		return Normal, true
	}
	lv, ok := strings.CutPrefix(s, "bot:")
	if !ok {
		return Normal, false
	}
	l, err := ParseLevel(lv)
	return l, err == nil
}

// Scored is one candidate the bot weighed, with its mean score from -1
// to 1 over the playouts it was given, or, where the bot drew its choice
// from a mix ([Mixer]), the chance it gave it.
type Scored struct {
	Command  Command
	Score    float64
	Playouts int
	Chance   float64
}

// Decision is what the bot chose, and every legal candidate it weighed,
// best first (the first is the choice).
type Decision struct {
	Command Command
	Weighed []Scored
}

// ErrNothingToDo is returned when the bot is asked to move for a player
// who has no legal command.
var ErrNothingToDo = errors.New("engine: the bot has no legal command to give")

// botSalt keeps the bot's random source apart from the table's draws,
// which the same seed and step number feed.
const botSalt = 0x9e3779b97f4a7c15

// Think chooses player's next command in g at level l. It reads g only
// through copies in which what player cannot see is drawn afresh.
//
// The level's playouts are spent by successive halving: every legal
// candidate is played out a few times, the better half kept, and so on
// until one is left, each round with the rest of the budget, so that the
// promising candidates get most of the playouts. Within a round every
// candidate is played out in the same drawn worlds (the same decks and
// dice), so that their scores differ by what they do, not by luck.
func Think(g *Game, player PlayerID, l Level) (Decision, error) {
	return think(g, player, l.budgetIn(g.Rules))
}

// think is [Think] on budget b.
func think(g *Game, player PlayerID, b Budget) (Decision, error) {
	st, ok := g.Rules.(Strategist)
	if !ok {
		return Decision{}, fmt.Errorf("engine: %s has no bot", g.Rules.ID())
	}
	r := rand.New(rand.NewPCG(g.Table.Seed^botSalt, uint64(g.Seq+1)))
	legal := Legal(g, player, r)
	if len(legal) == 0 {
		return Decision{}, ErrNothingToDo
	}
	if len(legal) == 1 {
		return Decision{Command: legal[0], Weighed: []Scored{{Command: legal[0]}}}, nil
	}
	if d, ok := mixed(g, player, legal); ok {
		return d, nil
	}
	playouts, depth := b.Playouts, b.Depth
	if dv, ok := g.Rules.(Divider); ok {
		playouts = max(1, playouts/max(1, dv.Parts(g.State, player)))
	}
	if sr, ok := g.Rules.(Strider); ok {
		depth *= sr.Stride()
	}
	cands := make([]candidate, len(legal))
	alive := make([]int, len(legal))
	for i, c := range legal {
		cands[i] = candidate{Scored: Scored{Command: c, Score: -2}}
		alive[i] = i
	}
	alive = shortlist(g, st, player, cands, alive, b, r)
	rounds := bits.Len(uint(len(alive) - 1))
	left := playouts
	for round := range rounds {
		per := max(1, left/(len(alive)*(rounds-round)))
		worlds := make([]uint64, per)
		for j := range worlds {
			worlds[j] = r.Uint64()
		}
		for _, i := range alive {
			cands[i].playOut(g, st, player, worlds, depth)
		}
		left -= per * len(alive)
		slices.SortStableFunc(alive, func(a, b int) int { return cmp.Compare(cands[b].Score, cands[a].Score) })
		alive = alive[:(len(alive)+1)/2]
		slices.Sort(alive)
		for _, i := range alive {
			cands[i].round = round + 1
		}
		if left < len(alive) {
			// A list longer than the budget: the best half of the last
			// round stands.
			break
		}
	}
	// The candidates that lasted longest come first, best first among
	// them; the sort is stable, so among equal scores the candidate listed
	// first wins: the choice depends on nothing but the search's source.
	slices.SortStableFunc(cands, func(a, b candidate) int {
		return cmp.Or(cmp.Compare(b.round, a.round), cmp.Compare(b.Score, a.Score))
	})
	weighed := make([]Scored, len(cands))
	for i, c := range cands {
		weighed[i] = c.Scored
	}
	return Decision{Command: weighed[0].Command, Weighed: weighed}, nil
}

// mixSalt keeps the source of a mixed choice apart from the search's.
const mixSalt = 0x5851f42d4c957f2d

// mixed draws player's choice among legal by the weights a [Mixer] gives
// them, on a copy of g as player may know it, from a source seeded like
// the search's; ok is false where the rule system gives none. The
// candidates are listed most likely first.
func mixed(g *Game, player PlayerID, legal []Command) (Decision, bool) {
	mx, ok := g.Rules.(Mixer)
	if !ok {
		return Decision{}, false
	}
	r := rand.New(rand.NewPCG(g.Table.Seed^mixSalt, uint64(g.Seq+1)))
	w := mx.Mix(Determinize(g, player, r).State, player, legal)
	if len(w) != len(legal) {
		return Decision{}, false
	}
	sum := 0.0
	for _, v := range w {
		sum += max(v, 0)
	}
	if sum <= 0 {
		return Decision{}, false
	}
	weighed := make([]Scored, len(legal))
	pick, x := len(legal)-1, r.Float64()*sum
	for i, c := range legal {
		weighed[i] = Scored{Command: c, Chance: max(w[i], 0) / sum}
		if x -= max(w[i], 0); x < 0 && pick == len(legal)-1 {
			pick = i
		}
	}
	choice := weighed[pick].Command
	slices.SortStableFunc(weighed, func(a, b Scored) int { return cmp.Compare(b.Chance, a.Chance) })
	return Decision{Command: choice, Weighed: weighed}, true
}

// shortlist keeps, of a long list of candidates, the b.Wide that score
// best one step ahead by the rule system's evaluation, averaged over
// b.Worlds drawn worlds, in their listed order: the playouts are spent
// on moves that look good at once, not spread so thin over many that
// chance picks among them. A move whose good shows only later can still
// be kept, since the shortlist is wide. Of candidates that come to the
// same events (a move toward one foe or another that stops at the same
// spot) only the first listed is kept: their games go on alike in every
// world, and copies of one risky move, lucky together in the few worlds
// drawn, would otherwise fill the list and shut out every other. The
// candidates left off keep a score of -2 and no playouts.
func shortlist(g *Game, st Strategist, player PlayerID, cands []candidate, alive []int, b Budget, r *rand.Rand) []int {
	if len(alive) <= b.Wide {
		return alive
	}
	first := make([]float64, len(cands))
	kept := slices.Clone(alive)
	for w := range b.Worlds {
		d := Determinize(g, player, r)
		var seen map[string]bool
		if w == 0 {
			seen = make(map[string]bool, len(alive))
		}
		for _, i := range alive {
			res, err := d.Decide(cands[i].Command)
			if err != nil {
				first[i] -= 2
				continue
			}
			first[i] += st.Evaluate(res.After.State, player)
			if seen != nil {
				key := effect(res.Events)
				if seen[key] {
					kept = slices.DeleteFunc(kept, func(k int) bool { return k == i })
				}
				seen[key] = true
			}
		}
	}
	slices.SortStableFunc(kept, func(a, b int) int { return cmp.Compare(first[b], first[a]) })
	kept = kept[:min(b.Wide, len(kept))]
	slices.Sort(kept)
	return kept
}

// effect is what events record, as a key: two steps that record the same
// events leave the game alike. Numbers are taken to three decimals, so
// that a move that stops a millionth of a stride short of another is the
// same move.
func effect(events []Event) string {
	var b strings.Builder
	for _, e := range events {
		fmt.Fprintf(&b, "%s%v%v\x00", e.Body.Kind(), e.Body, e.Draws)
	}
	return roundNumbers(b.String())
}

// roundNumbers writes every decimal number in s to three decimals.
func roundNumbers(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); {
		j := i
		for j < len(s) && (s[j] >= '0' && s[j] <= '9' || s[j] == '.') {
			j++
		}
		if j == i {
			b.WriteByte(s[i])
			i++
			continue
		}
		num := s[i:j]
		if f, err := strconv.ParseFloat(num, 64); err == nil && strings.Contains(num, ".") {
			num = strconv.FormatFloat(math.Round(f*1000)/1000, 'f', -1, 64)
		}
		b.WriteString(num)
		i = j
	}
	return b.String()
}

// candidate is one command under the search's eye: its mean score so
// far, and the last round of successive halving it took part in.
type candidate struct {
	Scored
	sum   float64
	round int
}

// playOut plays c's command out once in each world (a seed for the
// determinized copy and the rollout), adding to its mean score.
func (c *candidate) playOut(g *Game, st Strategist, player PlayerID, worlds []uint64, depth int) {
	for _, w := range worlds {
		r := rand.New(rand.NewPCG(w, botSalt))
		d := Determinize(g, player, r)
		res, err := d.Decide(c.Command)
		if err != nil {
			continue
		}
		after := rollout(res.After, st, depth, r)
		c.sum += st.Evaluate(after.State, player)
		c.Playouts++
	}
	if c.Playouts > 0 {
		c.Score = c.sum / float64(c.Playouts)
	}
}

// Legal returns the candidates for player that the rules accept in a
// determinized copy of g, once each, in the rule system's order.
func Legal(g *Game, player PlayerID, r *rand.Rand) []Command {
	st, ok := g.Rules.(Strategist)
	if !ok {
		return nil
	}
	d := Determinize(g, player, r)
	var out []Command
	seen := map[string]bool{}
	for _, c := range st.Candidates(d.State, player) {
		c.Actor = player
		if seen[c.String()] {
			continue
		}
		seen[c.String()] = true
		if res, err := d.Decide(c); err == nil && len(res.Events) > 0 {
			out = append(out, c)
		}
	}
	return out
}

// Greedy returns the legal command that scores best for player one step
// ahead, on one determinized copy: the one-ply player the bot is measured
// against.
func Greedy(g *Game, player PlayerID, r *rand.Rand) (Command, error) {
	st, ok := g.Rules.(Strategist)
	if !ok {
		return Command{}, fmt.Errorf("engine: %s has no bot", g.Rules.ID())
	}
	d := Determinize(g, player, r)
	best, bestScore := Command{}, math.Inf(-1)
	for _, c := range Legal(g, player, r) {
		res, err := d.Decide(c)
		if err != nil {
			continue
		}
		if v := st.Evaluate(res.After.State, player); v > bestScore {
			best, bestScore = c, v
		}
	}
	if best.Name == "" {
		return Command{}, ErrNothingToDo
	}
	return best, nil
}

// list is player's candidates in s as a [Lister] gives them.
func list(st Strategist, s State, player PlayerID) (int, func(int) Command) {
	if l, ok := st.(Lister); ok {
		return l.List(s, player)
	}
	cands := st.Candidates(s, player)
	return len(cands), func(i int) Command { return cands[i] }
}

// Determinize returns a copy of g as player may know it: the table's
// future (the decks' order, the dice, anything a scenario stacked or
// loaded) drawn afresh from r, and, for a [Concealer], what the other
// seats hide.
func Determinize(g *Game, player PlayerID, r *rand.Rand) *Game {
	d := g.Clone()
	d.Table.Seed = r.Uint64()
	for i := range d.Table.Decks {
		d.Table.Decks[i].Stacked = nil
	}
	d.Table.Loaded = nil
	if c, ok := g.Rules.(Concealer); ok {
		d.State = c.Conceal(d.State, player, r)
	}
	return d
}

// rollout plays g on for up to depth steps, each awaited player giving a
// command the rules accept (or what stands for him at a deadline), and
// returns the game it comes to. The players in a rollout are not blind:
// each mostly gives the best for him, by the rule system's evaluation,
// of a few of his candidates drawn at random, and now and then one of
// them at random, so that a playout looks like a game players might play
// and its end scores the first command, not the noise after it.
func rollout(g *Game, st Strategist, depth int, r *rand.Rand) *Game {
	aw, ok := g.Rules.(Awaiter)
	if !ok {
		return g
	}
	for range depth {
		if g.State.Over() {
			return g
		}
		awaits := aw.Awaited(g.State)
		if len(awaits) == 0 {
			return g
		}
		a := awaits[r.IntN(len(awaits))]
		next := rolloutStep(g, st, a, r)
		if next == nil {
			return g
		}
		g = next
	}
	return g
}

// Of the rollout's players: how many candidates each weighs for a step,
// and how often (in 256ths) he gives the first he draws instead of the
// best of them.
const (
	rolloutSample = 3
	rolloutWild   = 48
)

// rolloutStep plays one step of a's player: of up to rolloutSample of his
// candidates drawn at random that the rules accept, the one he scores
// best, or now and then the first of them; the deadline's command when
// none is taken; nil when not even that is.
func rolloutStep(g *Game, st Strategist, a Await, r *rand.Rand) *Game {
	n, at := list(st, g.State, a.Player)
	wild := r.IntN(256) < rolloutWild
	var best *Game
	bestScore := math.Inf(-1)
	tries := 0
	for range min(2*rolloutSample, n) {
		c := at(r.IntN(n))
		c.Actor = a.Player
		res, err := g.Decide(c)
		if err != nil || len(res.Events) == 0 {
			continue
		}
		if wild {
			return res.After
		}
		if v := st.Evaluate(res.After.State, a.Player); v > bestScore {
			best, bestScore = res.After, v
		}
		if tries++; tries == rolloutSample {
			break
		}
	}
	if best != nil {
		return best
	}
	if a.Timeout.Name != "" {
		if res, err := g.Decide(a.Timeout); err == nil && len(res.Events) > 0 {
			return res.After
		}
	}
	return nil
}
