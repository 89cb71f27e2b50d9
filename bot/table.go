package bot

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// The table's own commands, whatever its rules: help, the board, the
// log, the tape measure and deadlines. Opening a book is the table's too,
// but each rule system describes its own /book open (flag engine.Opens),
// and the table adds the rules: option that chooses among them. The rest
// of the commands belong to the game's rule system.

var (
	helpSpec = engine.CommandSpec{Name: "help", Help: "List the commands, with one line each; /help COMMAND explains one, with its options and an example.", Flags: engine.Private | engine.Reads, Options: []engine.OptionSpec{
		{Name: "command", Help: "a command to explain, like move or army pick"},
	}, Example: "/help move"}
	boardSpec = engine.CommandSpec{Name: "board", Help: "Show a picture of the table as it stands.", Flags: engine.Private | engine.Reads}
	logSpec   = engine.CommandSpec{Name: "log", Help: "Read the last steps of this channel's book.", Flags: engine.Private | engine.Reads, Options: []engine.OptionSpec{
		{Name: "last", Help: "how many steps, 1 to 50 (default 10); a step is one command and what it did", Kind: engine.OptInt},
	}}
	measureSpec = engine.CommandSpec{Name: "measure", Help: "A tape measure: the distance between two pieces or places, or how far a piece moves and shoots. It changes nothing.", Flags: engine.Private | engine.Reads, Options: []engine.OptionSpec{
		{Name: "from", Help: "a piece's name, or a place on the board", Required: true},
		{Name: "to", Help: "another piece or place; left out, what the piece can reach"},
	}, Example: "/measure from:MYR-W3 to:TRO-C1"}
)

// rulesOption is the option of /book open that chooses the rule system.
const rulesOption = "rules"

// tableCommand is one of the table's own commands with what answers it.
type tableCommand struct {
	engine.CommandSpec
	answer func(ctx context.Context, key channelKey, req Request) ([]Reply, error)
	// of, when set, says whether the command belongs at a table of a
	// rule system: /help lists it only there.
	of func(engine.Ruleset) bool
}

// hasMeasure and hasCampaign say which rule systems the tape measure and
// the saga's pages belong to.
func hasMeasure(rs engine.Ruleset) bool  { _, ok := rs.(engine.Measurer); return ok }
func hasCampaign(rs engine.Ruleset) bool { _, ok := rs.(engine.Campaigner); return ok }

// table lists the table's own commands, in the order /help shows them.
func (r *Router) table() []tableCommand {
	help := helpSpec
	help.Options = append(slices.Clone(help.Options), engine.OptionSpec{Name: rulesOption,
		Help: "whose commands: " + strings.Join(r.rulesetIDs(), " or ") + " (default the book open in this channel, else " + r.cfg.Rulesets[0].ID() + ")", Choices: r.rulesetIDs()})
	return []tableCommand{
		{help, r.help, nil},
		{boardSpec, r.board, nil},
		{logSpec, r.log, nil},
		{measureSpec, r.measure, hasMeasure},
		{deadlineSpec, r.setDeadline, nil},
		{remindersSpec, r.setReminders, nil},
		{seatSpec, r.handSeat, nil},
		{whySpec, r.why, nil},
		{serverSetSpec, r.serverSet, nil},
		{nudgeSpec, r.nudge, nil},
		{gamesSpec, r.games, nil},
		{awaySpec, r.away, nil},
		{backSpec, r.back, nil},
		{meSetSpec, r.meSet, nil},
		{meStatsSpec, r.meStats, nil},
		{replaySpec, r.replay, nil},
		{bookPublishSpec, r.publishBook(false), nil},
		{bookWithdrawSpec, r.publishBook(true), nil},
		{sagaPublishSpec, r.publishSaga(false), hasCampaign},
		{sagaWithdrawSpec, r.publishSaga(true), hasCampaign},
	}
}

// tableCommand returns the table's own command c names; /help COMMAND
// may come as one name ("help move").
func (r *Router) tableCommand(c engine.Command) (tableCommand, bool) {
	if c.Directive {
		return tableCommand{}, false
	}
	for _, tc := range r.tables {
		if tc.Name == c.Name || (tc.CommandSpec.Name == helpSpec.Name && strings.HasPrefix(c.Name, helpSpec.Name+" ")) {
			return tc, true
		}
	}
	return tableCommand{}, false
}

// measure answers /measure from the channel's book, for the asker alone:
// like /board, it reads the last book played there, also once it has
// ended.
func (r *Router) measure(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	info, err := r.cfg.Store.LatestGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No book has been played in this channel yet.")
	}
	if err != nil {
		return nil, err
	}
	g, err := r.load(ctx, info)
	if err != nil {
		return nil, err
	}
	m, ok := g.Rules.(engine.Measurer)
	if !ok {
		return nil, engine.Refuse("", "%s has no tape measure here yet.", g.Rules.Title())
	}
	if !req.Command.Has("from") {
		return nil, engine.Refuse("", "/measure needs from: (a piece's name, or a place on the board).")
	}
	text, err := m.Measure(g.State, req.User, req.Command.Opt("from"), strings.TrimSpace(req.Command.Opt("to")))
	if err != nil {
		return nil, err
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: text}}, nil
}

// open starts a new game in the channel with the chosen rule system and
// hands it the opening command.
func (r *Router) open(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	if _, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel); err == nil {
		return nil, engine.Refuse("", "A book is already open in this channel; it must end (/book end) before another opens.")
	} else if !errors.Is(err, store.ErrNotFound) {
		return nil, err
	}
	rs, err := r.ruleset(req.Command.Opt(rulesOption))
	if err != nil {
		return nil, err
	}
	cmd := req.Command
	cmd.Options = maps.Clone(cmd.Options)
	delete(cmd.Options, rulesOption)

	g := engine.NewGame(rs)
	opened := g.Open(req.User, r.cfg.Seed())
	if err := g.Apply(opened); err != nil {
		return nil, err
	}
	enlisted, err := r.enlist(ctx, key.guild, g)
	if err != nil {
		return nil, err
	}
	res, err := g.Decide(cmd)
	if err != nil {
		return nil, err
	}
	events := slices.Concat([]engine.Event{opened}, enlisted, res.Events)
	info, err := r.create(ctx, key, rs, g, events, res.Events)
	if errors.Is(err, store.ErrConflict) {
		return nil, engine.Refuse("", "Another book was opened in this channel a moment ago.")
	}
	if err != nil {
		return nil, err
	}
	// The book's next step starts from the row just made, as after any
	// step: no read of the channel's game, nor of when its last event
	// was recorded.
	r.noteRecorded(info.ID, info.Head)
	r.keepActive(info)
	res.Events = append(enlisted, res.Events...)
	out := append(r.replies(ctx, req, g, res), r.follow(ctx, info, g, req.Channel)...)
	// A book opened against the bot (opponent:bot) may wait for it at once.
	return append(out, r.playBots(ctx, info, g, awaited(g), req.Channel)...), nil
}

func (r *Router) ruleset(id string) (engine.Ruleset, error) {
	if id == "" {
		return r.cfg.Rulesets[0], nil
	}
	if rs, ok := r.rules[strings.ToLower(id)]; ok {
		if _, campaign := rs.(engine.Chronicle); !campaign {
			return rs, nil
		}
	}
	return nil, engine.Refuse("", "There are no rules called %q here; choose one of %s.", id, strings.Join(r.rulesetIDs(), ", "))
}

func (r *Router) rulesetIDs() []string {
	ids := make([]string, len(r.cfg.Rulesets))
	for i, rs := range r.cfg.Rulesets {
		ids[i] = rs.ID()
	}
	slices.Sort(ids)
	return ids
}

// bookCommands returns every command players can give at a table of
// rs, the table's own first, and its campaign's last.
func (r *Router) bookCommands(rs engine.Ruleset) []engine.CommandSpec {
	var specs []engine.CommandSpec
	for _, tc := range r.tables {
		if tc.of == nil || tc.of(rs) {
			specs = append(specs, tc.CommandSpec)
		}
	}
	specs = append(specs, r.withRulesOption(rs.Commands())...)
	specs = append(specs, tableDrawCommands()...)
	if cr, ok := rs.(engine.Campaigner); ok {
		specs = append(specs, cr.Campaign().Commands()...)
	}
	return specs
}

// withRulesOption adds the table's rules: option to the command that
// opens a book.
func (r *Router) withRulesOption(specs []engine.CommandSpec) []engine.CommandSpec {
	out := slices.Clone(specs)
	for i, s := range out {
		if s.Is(engine.Opens) {
			out[i].Options = append([]engine.OptionSpec{{Name: rulesOption, Help: "the rule system: " + strings.Join(r.rulesetIDs(), " or ") + " (default " + r.cfg.Rulesets[0].ID() + ")", Choices: r.rulesetIDs()}}, s.Options...)
			out[i] = withDiceOption(out[i])
		}
	}
	return out
}

// help lists the commands of the rule system its rules: option names, or
// else the channel's open book's (the default one when no book is open).
func (r *Router) help(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	rs, own := r.cfg.Rulesets[0], false
	if info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel); err == nil {
		if x, ok := r.rules[info.Ruleset]; ok {
			rs, own = x, true
		}
	}
	if req.Command.Has(rulesOption) {
		named, err := r.ruleset(req.Command.Opt(rulesOption))
		if err != nil {
			return nil, err
		}
		if named.ID() != rs.ID() {
			rs, own = named, false
		}
	}
	if topic := helpTopic(req.Command); topic != "" {
		// The examples name the pieces of the channel's book when it is
		// of the rules asked about.
		var game *engine.Game
		if own {
			game = r.helpGame(ctx, key)
		}
		text, err := r.helpOne(rs, game, req.User, topic)
		if err != nil {
			return nil, err
		}
		return []Reply{{User: req.User, Ephemeral: true, Text: text}}, nil
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Commands for %s:\n", rs.Title())
	for _, c := range r.bookCommands(rs) {
		fmt.Fprintf(&b, "/%s — %s\n", c.Name, c.Help)
	}
	if r.cfg.Directives {
		b.WriteString("Table directives, for scenarios:\n#seed N: seed the table's random source\n#stack DECK CARD...: the next cards of a deck\n#load DIE N...: the next rolls of a die\n")
		if d, ok := rs.(engine.Directiver); ok {
			for _, spec := range d.Directives() {
				fmt.Fprintf(&b, "%s\n", spec.Help)
			}
		}
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: strings.TrimRight(b.String(), "\n")}}, nil
}

// log reads back the last steps of the channel's newest game, as the table
// saw them: private lines are left out.
func (r *Router) log(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	n, err := req.Command.Int("last", 10)
	if err != nil {
		return nil, err
	}
	if n < 1 || n > 50 {
		return nil, engine.Refuse("", "last: must be from 1 to 50.")
	}
	info, err := r.cfg.Store.LatestGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No book has been played in this channel yet.")
	}
	if err != nil {
		return nil, err
	}
	rs, ok := r.rules[info.Ruleset]
	if !ok {
		return nil, fmt.Errorf("game %d is played by unknown rules %q", info.ID, info.Ruleset)
	}
	// Read back far enough to hold n steps that said something in
	// public: a step of secret choices or hidden draws tells the table
	// nothing, and is not counted.
	var steps [][]string
	for window := engine.Seq(8 * n); ; window *= 4 {
		after := max(info.Head-window, 0)
		recs, err := r.cfg.Store.Events(ctx, info.ID, after, 0)
		if err != nil {
			return nil, err
		}
		steps = steps[:0]
		var cur []string
		for _, rec := range recs {
			e, err := engine.DecodeRecord(rs, rec)
			if err != nil {
				return nil, err
			}
			if e.Step && len(cur) > 0 {
				steps = append(steps, cur)
				cur = nil
			}
			for _, m := range rs.Narrate(e) {
				if !m.Private() && m.Text != "" {
					cur = append(cur, fmt.Sprintf("%d. %s", e.Seq, m.Text))
				}
			}
		}
		if len(cur) > 0 {
			steps = append(steps, cur)
		}
		// The first step read may be cut short by the window: it counts
		// only when the window reaches the start of the game.
		if after == 0 || len(steps) > n {
			break
		}
	}
	var b strings.Builder
	for _, lines := range steps[max(len(steps)-n, 0):] {
		for _, l := range lines {
			fmt.Fprintf(&b, "%s\n", l)
		}
	}
	if b.Len() == 0 {
		b.WriteString("Nothing has happened at this table yet.")
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: strings.TrimRight(b.String(), "\n")}}, nil
}

// board answers /board with a picture of the channel's newest game, for
// the asker alone.
func (r *Router) board(ctx context.Context, key channelKey, req Request) ([]Reply, error) {
	info, err := r.cfg.Store.LatestGame(ctx, key.guild, key.channel)
	if errors.Is(err, store.ErrNotFound) {
		return nil, engine.Refuse("", "No book has been played in this channel yet.")
	}
	if err != nil {
		return nil, err
	}
	g, err := r.load(ctx, info)
	if err != nil {
		return nil, err
	}
	pic := r.picture(ctx, g, nil)
	if pic == nil {
		return nil, engine.Refuse("", "There is no board to show yet: the armies take the table when the book starts.")
	}
	return []Reply{{User: req.User, Ephemeral: true, Text: "The table as it stands.", Image: pic}}, nil
}
