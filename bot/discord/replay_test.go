package discord

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/bwmarrin/discordgo"
	"github.com/rhapsode/rhapsode/bot"
	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/systems"
	"github.com/rhapsode/rhapsode/render"
	"github.com/rhapsode/rhapsode/store"
)

var update = flag.Bool("update", false, "write the replay's golden file anew")

const (
	testGuild   = "600000000000000001"
	testChannel = "500000000000000001"
	gmRole      = "400000000000000009"
)

// table is a bot on a fake Discord, with a second router on the same store
// that takes table directives, to set scenes between interactions.
type table struct {
	fake       *fakeDiscord
	store      *store.Store
	storePath  string
	router     *bot.Router
	directives *bot.Router
	bot        *Bot

	mu     sync.Mutex
	now    time.Time
	tokens int
}

func newTable(t testing.TB) *table {
	t.Helper()
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "rhapsode.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	tb := &table{fake: newFakeDiscord(t), store: st, storePath: path, now: time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)}
	st.Now = tb.clock
	rules := replayRulesets()
	tb.router = bot.NewRouter(bot.Config{Store: st, Rulesets: rules, Renderer: render.New(render.Options{}),
		Seed: func() uint64 { return 2026 }, GMRole: gmRole, TurnCalls: true, Now: tb.clock, Token: tb.token, ChannelLink: ChannelLink})
	// The directives' router records steps (and the calls they make) on
	// the table's clock too: a real clock here would put days between a
	// call and its answer in /me stats.
	tb.directives = bot.NewRouter(bot.Config{Store: st, Rulesets: rules, Directives: true, Now: tb.clock})
	tb.bot = New(tb.router, tb.fake.session(t, "Bot test-token"), nil)
	return tb
}

// token numbers the publications of the replay, so that their addresses
// are the same every run.
func (tb *table) token() string {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.tokens++
	return fmt.Sprintf("replaytoken%015d", tb.tokens)
}

func (tb *table) clock() time.Time {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	return tb.now
}

// advance moves the table's clock on by d.
func (tb *table) advance(d time.Duration) {
	tb.mu.Lock()
	defer tb.mu.Unlock()
	tb.now = tb.now.Add(d)
}

// direct gives a table directive in the test channel.
func (tb *table) direct(t testing.TB, line string) {
	t.Helper()
	l, err := engine.ParseLine(line)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range tb.directives.Handle(context.Background(), bot.Request{Guild: testGuild, Channel: testChannel, User: "100000000000000001", Command: l.Command}) {
		if r.Ephemeral {
			t.Fatalf("%s: %s", line, r.Text)
		}
	}
}

func loadInteraction(t testing.TB, name string) *discordgo.Interaction {
	t.Helper()
	data, err := os.ReadFile(filepath.Join("testdata", "interactions", name+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var i discordgo.Interaction
	if err := json.Unmarshal(data, &i); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	return &i
}

// gatewayRespond answers as the gateway does, through the REST API.
func (tb *table) gatewayRespond(i *discordgo.Interaction) Responder {
	return func(ctx context.Context, resp *discordgo.InteractionResponse) error {
		return tb.bot.Session.InteractionRespond(i, resp, discordgo.WithContext(ctx))
	}
}

// describeCall writes a call for the golden file: method, path, the JSON with
// its keys sorted, and the files.
func describeCall(c call) string {
	path := strings.TrimPrefix(c.Path, "/api/v"+discordgo.APIVersion)
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", c.Method, path)
	if c.JSON != nil {
		j, _ := json.Marshal(c.JSON)
		fmt.Fprintf(&b, "\n    %s", j)
	}
	for _, f := range c.Files {
		fmt.Fprintf(&b, "\n    file %s", f)
	}
	return b.String()
}

// replayRulesets are the rule systems of the replays' bot, as a guild
// sees them: every command merged.
func replayRulesets() []engine.Ruleset {
	return systems.All()
}

// TestReplay replays saved interactions (slash commands, buttons and
// autocompletes) from testdata through the router, recording what the bot
// sends Discord, and compares the record with a golden file. Each rule
// system has its script: testdata/replay.script plays GWAB (with sagas),
// testdata/replay-KEY.script the system KEY, each against
// replay[-KEY].golden, and each gives every command of its system at
// least once. Every saved interaction is replayed by some script, and
// every rule system on the one list (engine/systems) has its script.
func TestReplay(t *testing.T) {
	scripts, _ := filepath.Glob(filepath.Join("testdata", "replay*.script"))
	if len(scripts) == 0 {
		t.Fatal("no replay scripts in testdata")
	}
	replayed := map[string]bool{}
	own := map[string]bool{} // the systems whose own script is here
	for _, path := range scripts {
		name := strings.TrimSuffix(filepath.Base(path), ".script")
		key := strings.TrimPrefix(strings.TrimPrefix(name, "replay"), "-")
		// replay-KEY-SCENE.script plays one scene of the system KEY; only
		// the system's own script must give every command.
		key, scene, _ := strings.Cut(key, "-")
		if key == "" {
			key = "gwab"
		}
		if scene == "" {
			own[key] = true
		}
		t.Run(name, func(t *testing.T) {
			// replay-table.script gives the commands of the table's
			// draws, which every rule system has.
			specs := engine.TableCommands()
			if key != "table" {
				var rs engine.Ruleset
				for _, r := range replayRulesets() {
					if r.ID() == key {
						rs = r
					}
				}
				if rs == nil {
					t.Fatalf("%s: no rule system %q among the replay's", path, key)
				}
				specs = rs.Commands()
			}
			out, these := replayScript(t, path)
			for f := range these {
				replayed[f] = true
			}
			for _, spec := range specs {
				if scene == "" && !commandReplayed(t, spec.Name, these) {
					t.Errorf("/%s of %s has no saved interaction in %s", spec.Name, key, path)
				}
			}
			golden := strings.TrimSuffix(path, ".script") + ".golden"
			if *update {
				if err := os.WriteFile(golden, out, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run go test -run TestReplay -update to write it)", err)
			}
			if !bytes.Equal(out, want) {
				os.WriteFile(golden+".actual", out, 0o644)
				t.Errorf("the replay differs from %s; what it sent is in %s.actual", golden, golden)
			}
		})
	}
	for _, id := range systems.IDs() {
		if !own[id] {
			t.Errorf("rule system %s has no replay script of its own (testdata/replay-%s.script, giving each of its commands)", id, id)
		}
	}
	if t.Failed() {
		return
	}
	files, _ := filepath.Glob(filepath.Join("testdata", "interactions", "*.json"))
	for _, f := range files {
		if name := strings.TrimSuffix(filepath.Base(f), ".json"); !replayed[name] {
			t.Errorf("testdata/interactions/%s.json is never replayed", name)
		}
	}
}

// replayScript plays one replay script at a table of its own and returns
// the record of what the bot sent, with the interactions it replayed.
// Lines starting with "# " are comments, other lines starting with # are
// table directives, and the rest name files of testdata/interactions.
func replayScript(t *testing.T, path string) ([]byte, map[string]bool) {
	tb := newTable(t)
	tb.bot.AnswerWithin = time.Minute // the same deferrals on a loaded machine
	script, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	replayed := map[string]bool{}
	uses := map[string]int{}
	sc := bufio.NewScanner(bytes.NewReader(script))
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case line == "" || strings.HasPrefix(line, "# "):
			continue
		case strings.HasPrefix(line, "#"):
			tb.direct(t, line)
			continue
		}
		i := loadInteraction(t, line)
		if replayed[line] {
			// A saved interaction used again is a new one for Discord,
			// with an ID of its own.
			uses[line]++
			i.ID = fmt.Sprintf("9%02d%s", uses[line], i.ID[3:])
		}
		replayed[line] = true
		tb.bot.Handle(context.Background(), i, tb.gatewayRespond(i))
		fmt.Fprintf(&out, "== %s (%s)\n", line, i.Member.User.Username)
		calls := tb.fake.take()
		if len(calls) == 0 {
			t.Errorf("%s: the bot sent nothing", line)
		}
		for _, c := range calls {
			fmt.Fprintf(&out, "%s\n", describeCall(c))
		}
		checkCalls(t, line, i, calls)
	}
	return out.Bytes(), replayed
}

// commandReplayed reports whether some replayed interaction gives the
// command name.
func commandReplayed(t *testing.T, name string, replayed map[string]bool) bool {
	for f := range replayed {
		i := loadInteraction(t, f)
		if i.Type != discordgo.InteractionApplicationCommand {
			continue
		}
		c, _, err := commandOf(i.ApplicationCommandData())
		if err == nil && c.Name == name {
			return true
		}
	}
	return false
}

// checkCalls holds every interaction's calls to Discord's rules: the first
// is the response, a deferral for commands, and no message breaks a limit.
func checkCalls(t *testing.T, name string, i *discordgo.Interaction, calls []call) {
	t.Helper()
	if len(calls) == 0 {
		return
	}
	first := calls[0]
	wantPath := fmt.Sprintf("/api/v%s/interactions/%s/%s/callback", discordgo.APIVersion, i.ID, i.Token)
	if first.Method != "POST" || first.Path != wantPath {
		t.Errorf("%s: first call %s %s, want the interaction's response", name, first.Method, first.Path)
	}
	typ, _ := first.obj()["type"].(float64)
	want := map[discordgo.InteractionType]discordgo.InteractionResponseType{
		discordgo.InteractionApplicationCommand:             discordgo.InteractionResponseDeferredChannelMessageWithSource,
		discordgo.InteractionMessageComponent:               discordgo.InteractionResponseDeferredMessageUpdate,
		discordgo.InteractionApplicationCommandAutocomplete: discordgo.InteractionApplicationCommandAutocompleteResult,
	}[i.Type]
	if discordgo.InteractionResponseType(typ) != want {
		t.Errorf("%s: first response of type %v, want %v", name, typ, want)
	}
	for _, c := range calls {
		m := c.obj()
		if s, _ := m["content"].(string); len([]rune(s)) > maxContent {
			t.Errorf("%s: %s %s has %d characters of content", name, c.Method, c.Path, len([]rune(s)))
		}
		if len(c.Files) > 1 {
			t.Errorf("%s: %s %s carries %d files", name, c.Method, c.Path, len(c.Files))
		}
	}
}
