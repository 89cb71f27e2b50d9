package bot

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
)

// /help COMMAND explains one command, and a command the table does not
// know is answered with the one the player most likely meant.

// helpTopic returns the command /help was asked about ("" for the whole
// list): the words after /help at the local table, or its command: option.
func helpTopic(c engine.Command) string {
	topic := c.Opt("command")
	if rest, ok := strings.CutPrefix(c.Name, "help "); ok {
		topic = rest
	}
	topic = strings.ToLower(strings.Join(strings.Fields(topic), " "))
	return strings.TrimLeft(topic, "/")
}

// kindText says what values an option of kind k takes.
var kindText = map[engine.OptionKind]string{
	engine.OptText:    "text",
	engine.OptInt:     "a whole number",
	engine.OptElement: "a piece's short name, as /status writes it",
	engine.OptPoint:   "a place on the board, as its ruler writes it",
	engine.OptPlayer:  "a player",
	engine.OptHero:    "a Hero of the saga",
	engine.OptChannel: "a channel",
	engine.OptRole:    "a role of the server",
}

// ruleSection finds the sections a command's help cites, like "(8)" or
// "(Morale 4)" at its end, or before who alone may give it ("(6.2). Game
// master only.").
var ruleSection = regexp.MustCompile(`\(((?:[^()]*\d|[A-Z])[^()]*)\)\.?( [A-Z][a-z ]* only\.)?$`)

// explain writes what one command does, each option with its meaning and
// the values it takes, an example and the rule it follows.
func explain(spec engine.CommandSpec, example string) string {
	var b strings.Builder
	help, rule := helpRule(spec.Help)
	fmt.Fprintf(&b, "/%s: %s\n", spec.Name, help)
	if len(spec.Options) == 0 {
		b.WriteString("It takes no options.\n")
	} else {
		b.WriteString("Options, each written name:value:\n")
		for _, o := range spec.Options {
			var what []string
			if o.Required {
				what = append(what, "required")
			} else {
				what = append(what, "optional")
			}
			if len(o.Choices) > 0 && len(o.Choices) <= 12 {
				what = append(what, "one of "+strings.Join(o.Choices, ", "))
			} else if t := kindText[o.Kind]; t != "" && o.Kind != engine.OptText {
				what = append(what, t)
			}
			fmt.Fprintf(&b, "  %s: %s (%s)\n", o.Name, o.Help, strings.Join(what, "; "))
		}
	}
	if example != "" {
		fmt.Fprintf(&b, "Example: %s\n", example)
	}
	switch {
	case rule == "":
	case rule[0] >= '0' && rule[0] <= '9':
		fmt.Fprintf(&b, "Rules: section %s.\n", rule)
	default:
		fmt.Fprintf(&b, "Rules: %s.\n", rule)
	}
	return strings.TrimRight(b.String(), "\n")
}

// helpRule splits a command's help into what /help COMMAND says of it and
// the rule section it cites at its end, if any.
func helpRule(help string) (text, rule string) {
	m := ruleSection.FindStringSubmatchIndex(help)
	if m == nil {
		return help, ""
	}
	rule = help[m[2]:m[3]]
	only := ""
	if m[4] >= 0 {
		only = help[m[4]:m[5]]
	}
	text = strings.TrimSpace(help[:m[0]]) + "." + only
	return strings.Replace(text, "..", ".", 1), rule
}

// example is spec's own example, or one written from its required
// options: a choice's first value, a piece the rules offer, a number.
func example(spec engine.CommandSpec, pick func(option string) string) string {
	if spec.Example != "" {
		return spec.Example
	}
	parts := []string{"/" + spec.Name}
	for _, o := range spec.Options {
		if !o.Required {
			continue
		}
		v := ""
		switch {
		case len(o.Choices) > 0:
			v = o.Choices[0]
		case o.Kind == engine.OptInt:
			v = "2"
		case pick != nil && o.Kind == engine.OptElement:
			v = pick(o.Name)
		}
		if v == "" {
			v = strings.ToUpper(o.Name)
		}
		if strings.ContainsAny(v, " ,") {
			v = `"` + v + `"`
		}
		parts = append(parts, o.Name+":"+v)
	}
	return strings.Join(parts, " ")
}

// helpOne answers /help COMMAND for the rule system rs, completing
// pieces from g when a game is open.
func (r *Router) helpOne(rs engine.Ruleset, g *engine.Game, user engine.PlayerID, topic string) (string, error) {
	specs := r.bookCommands(rs)
	i := slices.IndexFunc(specs, func(s engine.CommandSpec) bool { return s.Name == topic })
	if i < 0 {
		// A group of commands (/army, /setup) lists its commands.
		var group strings.Builder
		for _, s := range specs {
			if strings.HasPrefix(s.Name, topic+" ") {
				fmt.Fprintf(&group, "\n/%s — %s", s.Name, s.Help)
			}
		}
		if group.Len() > 0 {
			return fmt.Sprintf("/%s is a group of commands in %s; /help %s SUBCOMMAND explains one:%s", topic, rs.Title(), topic, group.String()), nil
		}
		if others := r.rulesWith(topic); len(others) > 0 {
			return "", engine.Refuse("", "There is no /%s in %s; it is a command of %s. Add rules: to /help to read of another system's commands, like /help %s rules:%s.", topic, rs.Title(), englishList(others), topic, others[0])
		}
		names := make([]string, len(specs))
		for j, s := range specs {
			names[j] = s.Name
		}
		if near := nearest(topic, names); near != "" {
			return "", engine.Refuse("", "There is no /%s in %s. Did you mean /%s? /help lists every command.", topic, rs.Title(), near)
		}
		return "", engine.Refuse("", "There is no /%s in %s; /help lists every command.", topic, rs.Title())
	}
	var pick func(string) string
	if c, ok := rs.(engine.Completer); ok && g != nil {
		pick = func(option string) string {
			if got := c.Complete(g.State, user, specs[i].Name, option, ""); len(got) > 0 {
				return got[0].Value
			}
			return ""
		}
	}
	return explain(specs[i], example(specs[i], pick)), nil
}

// rulesWith lists the rule systems that have the command or the group of
// commands topic, by key.
func (r *Router) rulesWith(topic string) []string {
	var keys []string
	for _, rs := range r.cfg.Rulesets {
		if slices.ContainsFunc(r.bookCommands(rs), func(s engine.CommandSpec) bool {
			return s.Name == topic || strings.HasPrefix(s.Name, topic+" ")
		}) {
			keys = append(keys, rs.ID())
		}
	}
	return keys
}

// englishList joins words as a sentence lists them: "a", "a and b",
// "a, b and c".
func englishList(words []string) string {
	if len(words) < 2 {
		return strings.Join(words, "")
	}
	return strings.Join(words[:len(words)-1], ", ") + " and " + words[len(words)-1]
}

// unknown answers a command no rule system here has: with the command
// meant when its options were typed without their names, or the nearest
// name when it was mistyped. It returns nil for a known command.
func (r *Router) unknown(ctx context.Context, key channelKey, c engine.Command) error {
	all := r.Commands()
	if slices.ContainsFunc(all, func(s engine.CommandSpec) bool { return s.Name == c.Name }) {
		return nil
	}
	// The channel's own rule system says what its commands' options are.
	if info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel); err == nil {
		if rs, ok := r.rules[info.Ruleset]; ok {
			if merged, err := MergeCommands(r.bookCommands(rs), all); err == nil {
				all = merged
			}
		}
	}
	words := strings.Fields(c.Name)
	for n := len(words) - 1; n > 0; n-- {
		head := strings.Join(words[:n], " ")
		j := slices.IndexFunc(all, func(s engine.CommandSpec) bool { return s.Name == head })
		if j < 0 {
			continue
		}
		spec := all[j]
		if len(spec.Options) == 0 {
			return engine.Refuse("", "/%s takes no options; /help %s explains it.", head, head)
		}
		// Pair the bare words with the options in order, the
		// required first.
		opts := spec.RequiredFirst()
		guess := []string{"/" + head}
		for k, w := range words[n:] {
			if k < len(opts) {
				if kind := opts[k].Kind; kind == engine.OptElement || kind == engine.OptPoint {
					w = strings.ToUpper(w)
				}
				guess = append(guess, opts[k].Name+":"+w)
			}
		}
		return engine.Refuse("", "Options are written with their names, name:value: did you mean %s? /help %s explains each option.", strings.Join(guess, " "), head)
	}
	names := make([]string, len(r.Commands()))
	for i, s := range r.Commands() {
		names[i] = s.Name
	}
	var group []string
	for _, n := range names {
		if strings.HasPrefix(n, c.Name+" ") {
			group = append(group, "/"+n)
		}
	}
	if len(group) > 0 {
		return engine.Refuse("", "/%s is a group of commands: %s.", c.Name, strings.Join(group, ", "))
	}
	if near := nearest(c.Name, names); near != "" {
		return engine.Refuse("", "There is no /%s. Did you mean /%s? /help lists every command.", c.Name, near)
	}
	return engine.Refuse("", "There is no /%s; /help lists every command.", c.Name)
}

// nearest returns the name closest to typed by edit distance, if it is
// close enough to be a slip of the fingers: at most one edit in three
// letters, and never more than two.
func nearest(typed string, names []string) string {
	best, bestD := "", 1<<30
	for _, n := range names {
		if d := editDistance(typed, n); d < bestD {
			best, bestD = n, d
		}
	}
	if bestD == 0 || bestD > 2 || bestD*3 > len(best) {
		return ""
	}
	return best
}

// editDistance counts the insertions, deletions, substitutions and swaps
// of neighbouring letters that turn a into b.
func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	d := make([][]int, len(ra)+1)
	for i := range d {
		d[i] = make([]int, len(rb)+1)
		d[i][0] = i
	}
	for j := range rb {
		d[0][j+1] = j + 1
	}
	for i := 1; i <= len(ra); i++ {
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			d[i][j] = min(d[i-1][j]+1, d[i][j-1]+1, d[i-1][j-1]+cost)
			if i > 1 && j > 1 && ra[i-1] == rb[j-2] && ra[i-2] == rb[j-1] {
				d[i][j] = min(d[i][j], d[i-2][j-2]+1)
			}
		}
	}
	return d[len(ra)][len(rb)]
}

// helpGame is the channel's open game, if any, for /help's examples. The
// caller holds the channel's lock.
func (r *Router) helpGame(ctx context.Context, key channelKey) *engine.Game {
	info, err := r.cfg.Store.ActiveGame(ctx, key.guild, key.channel)
	if err != nil {
		return nil
	}
	g, err := r.load(ctx, info)
	if err != nil {
		return nil
	}
	return g
}
