package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/store"
)

// Commands returns every command a guild's players can give, whatever
// rules their books are played by: the table's own, then each rule
// system's, merged by name. Transports that declare commands up front
// (Discord's application commands) register these.
func (r *Router) Commands() []engine.CommandSpec { return r.commands }

// allCommands merges the table's commands with every rule system's. Each
// source of commands is one line of sources.
func (r *Router) allCommands() ([]engine.CommandSpec, error) {
	var table []engine.CommandSpec
	for _, tc := range r.tables {
		table = append(table, tc.CommandSpec)
	}
	sources := [][]engine.CommandSpec{table, tableDrawCommands()}
	for _, rs := range r.cfg.Rulesets {
		sources = append(sources, r.withRulesOption(rs.Commands()))
	}
	for _, ch := range r.chronicles {
		sources = append(sources, ch.Commands())
	}
	merged, err := MergeCommands(sources...)
	if err != nil {
		return nil, err
	}
	r.helpBySystem(merged)
	return merged, nil
}

// sharedHelpLength is the longest help an option shared by several rule
// systems keeps when it tells each system's meaning; Discord shows 100
// characters.
const sharedHelpLength = 100

// helpBySystem rewrites the help of every merged option that the rule
// systems describe differently ("/move to:" is strides in one and a
// square in another), so that no system's players read another's: each
// system's help after its name, or, when that is too long to show, a
// pointer to /help, which explains the command as the channel's book
// plays it.
func (r *Router) helpBySystem(merged []engine.CommandSpec) {
	for i := range merged {
		c := &merged[i]
		for j := range c.Options {
			o := &c.Options[j]
			var parts []string
			seen := map[string]bool{}
			for _, rs := range r.cfg.Rulesets {
				spec, ok := specNamed(rs.Commands(), c.Name)
				if !ok {
					continue
				}
				if own, ok := spec.Option(o.Name); ok && !seen[own.Help] {
					seen[own.Help] = true
					parts = append(parts, rs.ID()+": "+own.Help)
				}
			}
			if len(parts) < 2 {
				continue
			}
			o.Help = strings.Join(parts, "; ")
			if len(o.Help) > sharedHelpLength {
				o.Help = fmt.Sprintf("as the book's rules have it: /help %s explains", c.Name)
			}
		}
	}
}

func specNamed(specs []engine.CommandSpec, name string) (engine.CommandSpec, bool) {
	for _, s := range specs {
		if s.Name == name {
			return s, true
		}
	}
	return engine.CommandSpec{}, false
}

// MergeCommands joins lists of commands: the first list to name a
// command gives its help; its flags and options are the union of every
// list's, options in order of first appearance, an option's choices the
// union of theirs (none when one list leaves it free). An option is
// required only when every list that has the command requires it: the
// rule system a game is played by still checks its own. An option name
// must mean one kind of thing in every list: two kinds for one name
// (a free text and a piece, say) are an error, for a transport types each
// option once.
func MergeCommands(lists ...[]engine.CommandSpec) ([]engine.CommandSpec, error) {
	var out []engine.CommandSpec
	at := map[string]int{}
	inLists := map[string]int{}        // how many lists have each command
	has := map[string]map[string]int{} // and how many of them each option
	for _, list := range lists {
		for _, c := range list {
			inLists[c.Name]++
			if has[c.Name] == nil {
				has[c.Name] = map[string]int{}
			}
			for _, o := range c.Options {
				has[c.Name][o.Name]++
			}
			i, ok := at[c.Name]
			if !ok {
				at[c.Name] = len(out)
				c.Options = slices.Clone(c.Options)
				out = append(out, c)
				continue
			}
			m := &out[i]
			m.Flags |= c.Flags
			for _, o := range c.Options {
				j := slices.IndexFunc(m.Options, func(x engine.OptionSpec) bool { return x.Name == o.Name })
				if j < 0 {
					m.Options = append(m.Options, o)
					continue
				}
				have := &m.Options[j]
				if have.Kind != o.Kind {
					return nil, fmt.Errorf("bot: /%s %s: is %s in one rule system and %s in another; give the options different names", c.Name, o.Name, have.Kind, o.Kind)
				}
				have.Required = have.Required && o.Required
				if len(have.Choices) == 0 || len(o.Choices) == 0 {
					have.Choices = nil
					continue
				}
				choices := slices.Clone(have.Choices)
				for _, ch := range o.Choices {
					if !slices.Contains(choices, ch) {
						choices = append(choices, ch)
					}
				}
				have.Choices = choices
			}
		}
	}
	for i := range out {
		c := &out[i]
		for j := range c.Options {
			if has[c.Name][c.Options[j].Name] < inLists[c.Name] {
				c.Options[j].Required = false
			}
		}
	}
	return out, nil
}

// Complete offers values for option of command as req's user types it
// (typed), from the channel's open book: the rules' own suggestions when
// they make any, the likely ones first. A channel without a book, or
// rules that offer nothing, get none.
func (r *Router) Complete(ctx context.Context, req Request, option, typed string) []engine.Completion {
	var info store.Game
	var rs engine.Ruleset
	var err error
	if ch, ok := r.chronicleFor(req.Command.Name); ok {
		info, err = r.cfg.Store.ActiveGame(ctx, req.Guild, campaignKey(ch))
		if errors.Is(err, store.ErrNotFound) {
			info, err = r.cfg.Store.LatestGame(ctx, req.Guild, campaignKey(ch))
		}
		rs = ch
	} else {
		info, err = r.cfg.Store.ActiveGame(ctx, req.Guild, req.Channel)
		rs = r.rules[info.Ruleset]
	}
	if err != nil || rs == nil {
		return nil
	}
	c, ok := rs.(engine.Completer)
	if !ok {
		return nil
	}
	g, err := r.locked(ctx, info)
	if err != nil {
		r.cfg.Logger.WarnContext(ctx, "no completions", "game", info.ID, "err", err)
		return nil
	}
	return c.Complete(g.State, req.User, req.Command.Name, option, strings.TrimSpace(typed))
}
