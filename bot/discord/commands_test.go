package discord

import (
	"context"
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/engine/systems"
)

var commandName = regexp.MustCompile(`^[-_a-z0-9]{1,32}$`)

// TestApplicationCommandsKeepDiscordsRules declares every command a guild
// can use and checks each against Discord's rules for application
// commands, which it would refuse to register otherwise.
func TestApplicationCommandsKeepDiscordsRules(t *testing.T) {
	router := bot.NewRouter(bot.Config{Rulesets: systems.All()})
	specs := router.Commands()
	cmds, err := ApplicationCommands(specs)
	if err != nil {
		t.Fatal(err)
	}
	if len(cmds) > 100 {
		t.Errorf("%d commands, more than Discord's 100", len(cmds))
	}
	var check func(where string, opts []*discordgo.ApplicationCommandOption)
	check = func(where string, opts []*discordgo.ApplicationCommandOption) {
		if len(opts) > maxOptions {
			t.Errorf("%s: %d options", where, len(opts))
		}
		optional := false
		for _, o := range opts {
			w := where + " " + o.Name
			if !commandName.MatchString(o.Name) {
				t.Errorf("%s: bad name", w)
			}
			if n := utf8.RuneCountInString(o.Description); n == 0 || n > maxDescription {
				t.Errorf("%s: description of %d characters", w, n)
			}
			if o.Required && optional {
				t.Errorf("%s: a required option after an optional one", w)
			}
			optional = optional || !o.Required
			if o.Autocomplete && len(o.Choices) > 0 {
				t.Errorf("%s: autocomplete and choices together", w)
			}
			if len(o.Choices) > maxChoices {
				t.Errorf("%s: %d choices", w, len(o.Choices))
			}
			if o.Type == discordgo.ApplicationCommandOptionString && len(o.Choices) == 0 && o.MaxLength != bot.OptionLimit(o.Name) {
				t.Errorf("%s: max_length %d, the router takes %d", w, o.MaxLength, bot.OptionLimit(o.Name))
			}
			check(w, o.Options)
		}
	}
	seen := map[string]bool{}
	for _, c := range cmds {
		if seen[c.Name] || !commandName.MatchString(c.Name) {
			t.Errorf("command %q: duplicate or bad name", c.Name)
		}
		seen[c.Name] = true
		if n := utf8.RuneCountInString(c.Description); n == 0 || n > maxDescription {
			t.Errorf("/%s: description of %d characters", c.Name, n)
		}
		check("/"+c.Name, c.Options)
	}
	// Each spec is there, with its options typed.
	for _, s := range specs {
		opts := findCommand(cmds, s.Name)
		if opts == nil {
			t.Errorf("/%s is not declared", s.Name)
			continue
		}
		for _, o := range s.Options {
			var got *discordgo.ApplicationCommandOption
			for _, x := range *opts {
				if x.Name == o.Name {
					got = x
				}
			}
			switch {
			case got == nil:
				t.Errorf("/%s lacks option %s", s.Name, o.Name)
			case o.Kind == engine.OptInt && got.Type != discordgo.ApplicationCommandOptionInteger:
				t.Errorf("/%s %s: type %v, want integer", s.Name, o.Name, got.Type)
			case o.Kind == engine.OptElement && len(o.Choices) == 0 && !got.Autocomplete:
				t.Errorf("/%s %s: an element without autocomplete", s.Name, o.Name)
			case len(o.Choices) != len(got.Choices):
				t.Errorf("/%s %s: %d choices, want %d", s.Name, o.Name, len(got.Choices), len(o.Choices))
			}
		}
	}
}

func findCommand(cmds []*discordgo.ApplicationCommand, name string) *[]*discordgo.ApplicationCommandOption {
	words := strings.Fields(name)
	for _, c := range cmds {
		if c.Name != words[0] {
			continue
		}
		if len(words) == 1 {
			return &c.Options
		}
		for _, sub := range c.Options {
			if sub.Type == discordgo.ApplicationCommandOptionSubCommand && sub.Name == words[1] {
				return &sub.Options
			}
		}
	}
	return nil
}

func TestApplicationCommandsRefuseAGroupThatIsACommand(t *testing.T) {
	_, err := ApplicationCommands([]engine.CommandSpec{{Name: "book", Help: "x"}, {Name: "book open", Help: "y"}})
	if err == nil {
		t.Error("a command that is also a group was declared")
	}
}

func TestSplitKeepsLimitsAndText(t *testing.T) {
	line := strings.Repeat("word ", 30) + "\n"
	text := strings.Repeat(line, 200) + strings.Repeat("x", 5000)
	for _, n := range []int{maxContent, maxEmbed} {
		parts := split(text, n)
		var joined []string
		for _, p := range parts {
			if utf8.RuneCountInString(p) > n || p == "" {
				t.Fatalf("a part of %d characters (limit %d)", utf8.RuneCountInString(p), n)
			}
			joined = append(joined, p)
		}
		squash := func(s string) string { return strings.Join(strings.Fields(s), "") }
		if squash(strings.Join(joined, "")) != squash(text) {
			t.Errorf("splitting at %d lost text", n)
		}
	}
}

func TestShapeLongTextAsEmbeds(t *testing.T) {
	text := strings.Repeat("Hector (100000000000000002) strikes. ", 300)
	msgs := shape(bot.Reply{Text: text, Image: []byte("png"), Buttons: []engine.Button{{Label: "Accept", For: "100000000000000002", Command: engine.Command{Name: "answer", Options: map[string]string{"reply": "accept"}}}}})
	if len(msgs) < 2 {
		t.Fatalf("%d messages for %d characters", len(msgs), len(text))
	}
	for i, m := range msgs {
		if m.Content != "" || utf8.RuneCountInString(m.Embed) > maxEmbed {
			t.Errorf("message %d: content %d, embed %d characters", i, len(m.Content), utf8.RuneCountInString(m.Embed))
		}
		if (m.Image != nil) != (i == 0) || (m.Components != nil) != (i == len(msgs)-1) {
			t.Errorf("message %d: the picture goes first and the buttons last", i)
		}
		if len(m.Users) != 0 {
			t.Errorf("message %d may ping %v", i, m.Users)
		}
	}
	if !strings.Contains(msgs[0].Embed, "Hector (<@100000000000000002>)") {
		t.Errorf("the player is not written as a mention: %.80q", msgs[0].Embed)
	}
}

func TestMentionText(t *testing.T) {
	for _, c := range []struct {
		text  string
		pings []engine.PlayerID
		want  string
	}{
		{"Next: the Trojans (100000000000000002).", nil, "Next: the Trojans (<@100000000000000002>)."},
		{"Your turn.", []engine.PlayerID{"100000000000000001"}, "<@100000000000000001> Your turn."},
		{"<@100000000000000001> already", []engine.PlayerID{"100000000000000001"}, "<@100000000000000001> already"},
		{"a seed 12345 and 2026", nil, "a seed 12345 and 2026"},
	} {
		if got := mentionText(c.text, c.pings); got != c.want {
			t.Errorf("mentionText(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

func TestCustomIDRoundTrip(t *testing.T) {
	for _, b := range []engine.Button{
		{Label: "Accept", For: "100000000000000002", Command: engine.Command{Name: "answer", Options: map[string]string{"reply": "accept"}}},
		{Label: "Fight on", Command: engine.Command{Name: "answer", Options: map[string]string{"reply": "fight"}}},
		{Label: "Joker", For: "100000000000000001", Command: engine.Command{Name: "joker", Options: map[string]string{"use": "jump", "clan": "MYR"}}},
		{Label: "Push", For: "100000000000000001", Command: engine.Command{Name: "impact"}},
		{Label: "Raise", For: "1", Command: engine.Command{Name: "clan raise", Options: map[string]string{"name": "Sons of \"Atreus\""}}},
	} {
		for _, seq := range []engine.Seq{0, 1, 4096} {
			id, ok := customID(b, seq)
			if !ok {
				t.Errorf("%v does not fit a custom ID", b)
				continue
			}
			who, c, at, err := parseCustomID(id)
			if err != nil {
				t.Errorf("%q: %v", id, err)
				continue
			}
			if who != b.For || c.String() != b.Command.String() || at != seq {
				t.Errorf("%q read back as %s %s at %d", id, who, c, at)
			}
		}
	}
	if _, ok := customID(engine.Button{Command: engine.Command{Name: "x", Options: map[string]string{"long": strings.Repeat("y", 100)}}}, 7); ok {
		t.Error("a custom ID past 100 characters was accepted")
	}
	for _, bad := range []string{"", "rh ", "rh #seed 1", "other /status", "rh @bob", "rh 0 /impact", "rh 99999999999999999999 /impact", "rh 12 "} {
		if _, _, _, err := parseCustomID(bad); err == nil {
			t.Errorf("%q read as a button", bad)
		}
	}
}

func FuzzParseCustomID(f *testing.F) {
	f.Add("rh @100000000000000002 /answer reply:accept")
	f.Add("rh /joker use:jump clan:MYR")
	f.Add("rh 42 @100000000000000002 /impact")
	f.Fuzz(func(t *testing.T, id string) {
		who, c, seq, err := parseCustomID(id)
		if err != nil {
			return
		}
		again, ok := customID(engine.Button{For: who, Command: c}, seq)
		if !ok && len(id) <= maxCustomID {
			return
		}
		who2, c2, seq2, err := parseCustomID(again)
		if err != nil || who2 != who || c2.String() != c.String() || seq2 != seq {
			t.Errorf("%q → %q does not read back: %v", id, again, err)
		}
	})
}

// TestRegister declares the commands in one guild, and globally without
// one, through the fake Discord.
func TestRegister(t *testing.T) {
	f := newFakeDiscord(t)
	s := f.session(t, "Bot test-token")
	router := bot.NewRouter(bot.Config{Rulesets: []engine.Ruleset{gwab.New()}})
	for guild, path := range map[string]string{
		"600000000000000001": "/api/v9/applications/700000000000000001/guilds/600000000000000001/commands",
		"":                   "/api/v9/applications/700000000000000001/commands",
	} {
		got, err := Register(t.Context(), s, "700000000000000001", guild, router.Commands())
		if err != nil {
			t.Fatal(err)
		}
		calls := f.take()
		if len(calls) != 1 || calls[0].Method != "PUT" || calls[0].Path != path {
			t.Fatalf("registering in %q made %+v", guild, calls)
		}
		if sent, _ := calls[0].JSON.([]any); len(sent) != len(got) || len(got) < 10 {
			t.Errorf("registered %d commands, Discord returned %d", len(sent), len(got))
		}
	}
	id, err := ApplicationID(s)
	if err != nil || id != "700000000000000001" {
		t.Errorf("application ID %q, %v", id, err)
	}
}

// TestAutocompleteOffersAtMost25: a book of four clans has more elements
// than Discord shows; the bot offers 25, the player's own first.
func TestAutocompleteOffersAtMost25(t *testing.T) {
	tb := newTable(t)
	for _, name := range []string{"book-open", "clan-raise-myrmidons", "clan-raise-lycians", "clan-raise-trojans", "clan-raise-achaeans"} {
		i := loadInteraction(t, name)
		tb.bot.Handle(t.Context(), i, tb.gatewayRespond(i))
	}
	tb.fake.take()
	i := loadInteraction(t, "autocomplete-move")
	i.ApplicationCommandData().Options[0].Value = ""
	var choices []*discordgo.ApplicationCommandOptionChoice
	tb.bot.Handle(t.Context(), i, func(_ context.Context, r *discordgo.InteractionResponse) error {
		choices = r.Data.Choices
		return nil
	})
	if len(choices) != maxCompletions {
		t.Fatalf("%d choices, want %d", len(choices), maxCompletions)
	}
	for _, c := range choices[:8] {
		if v := c.Value.(string); !strings.HasPrefix(v, "TRO-") && !strings.HasPrefix(v, "ACH-") {
			t.Errorf("bob is offered %s before his own elements", v)
		}
	}
}

// TestButtonsHaveUniqueIDs: two Jokers kept by one clan in one step offer
// one button, not two that Discord would refuse together.
func TestButtonsHaveUniqueIDs(t *testing.T) {
	joker := engine.Button{Label: "MYR: play the Joker, act now", For: "100000000000000001",
		Command: engine.Command{Name: "joker", Options: map[string]string{"use": "jump", "clan": "MYR"}}}
	other := joker
	other.For, other.Command = "100000000000000002", engine.Command{Name: "joker", Options: map[string]string{"use": "jump", "clan": "TRO"}}
	rows := components([]engine.Button{joker, joker, other, joker}, 9)
	seen := map[string]bool{}
	n := 0
	for _, row := range rows {
		for _, c := range row.(discordgo.ActionsRow).Components {
			id := c.(discordgo.Button).CustomID
			if seen[id] {
				t.Errorf("custom ID %q given twice", id)
			}
			seen[id] = true
			n++
		}
	}
	if n != 2 {
		t.Errorf("%d buttons, want one per distinct choice", n)
	}
}

// TestSplitCutsAtCharacters: text of invalid bytes, and of characters of
// several bytes, is cut between characters, and nothing is lost.
func TestSplitCutsAtCharacters(t *testing.T) {
	for _, text := range []string{strings.Repeat("\xff", 5000), strings.Repeat("é", 9000), strings.Repeat("a\xffé ", 3000)} {
		parts := split(text, maxEmbed)
		if strings.Join(parts, "") != strings.ReplaceAll(text, " ", "") && strings.Join(parts, " ") != text && len(parts) < 2 {
			t.Errorf("split into %d parts", len(parts))
		}
		total := 0
		for _, p := range parts {
			if utf8.RuneCountInString(p) > maxEmbed {
				t.Errorf("a part of %d characters", utf8.RuneCountInString(p))
			}
			if utf8.ValidString(text) && !utf8.ValidString(p) {
				t.Errorf("a part cut inside a character")
			}
			total += len(p)
		}
		if total < len(strings.ReplaceAll(text, " ", "")) {
			t.Errorf("split lost %d bytes", len(strings.ReplaceAll(text, " ", ""))-total)
		}
	}
}

// TestHandleSurvivesAPanic: a panic while answering is logged, and the
// bot goes on.
func TestHandleSurvivesAPanic(t *testing.T) {
	tb := newTable(t)
	i := loadInteraction(t, "help")
	tb.bot.Handle(context.Background(), i, func(context.Context, *discordgo.InteractionResponse) error { panic("boom") })
	tb.bot.Handle(context.Background(), i, tb.gatewayRespond(i))
	if len(tb.fake.take()) == 0 {
		t.Error("the bot answered nothing after the panic")
	}
}
