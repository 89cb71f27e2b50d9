package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/gwab"
	"github.com/rhapsode/rhapsode/store"
)

// viewRecorder is a renderer that keeps, as JSON, every view it is asked
// to draw: what a board picture would show.
type viewRecorder struct {
	mu    sync.Mutex
	views []string
}

func (v *viewRecorder) PNG(view engine.View) ([]byte, error) {
	b, err := json.Marshal(view)
	if err != nil {
		return nil, err
	}
	v.mu.Lock()
	defer v.mu.Unlock()
	v.views = append(v.views, string(b))
	return []byte("picture"), nil
}

func (v *viewRecorder) take() []string {
	v.mu.Lock()
	defer v.mu.Unlock()
	out := v.views
	v.views = nil
	return out
}

// secretSetup brings a sweet game to its melee stage: the Romans' heavy
// infantry has charged the Gauls' at F6, and no one can support.
var secretSetup = []string{
	"@alice /book open rules:sweet size:12x10",
	"@alice /army build name:Romans units:\"2 HI\"",
	"@bob /army build name:Gauls units:\"2 HI\"",
	"@alice /place unit:all",
	"@alice /done",
	"@bob /place unit:all",
	"#load d6 6 1",
	"@bob /done",
	"#place ROM-1 F5 N",
	"#place GAU-1 F6 S",
	"#place ROM-2 A1 N",
	"#place GAU-2 L10 S",
	"@alice /move unit:ROM-1 to:F6",
	"@alice /done",
}

// secretTable is a table, a store and a picture recorder, for tests that
// look for a secret everywhere a player could read it.
type secretTable struct {
	t     *testing.T
	st    *store.Store
	views *viewRecorder
	r     *Router
}

func newSecretTable(t *testing.T) *secretTable {
	st := openStore(t, filepath.Join(t.TempDir(), "secret.db"))
	views := &viewRecorder{}
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Renderer: views, Seed: func() uint64 { return 7 }, Logger: testLogger(t)})
	return &secretTable{t: t, st: st, views: views, r: r}
}

// say plays one line at the table (as alice unless it names a player).
func (s *secretTable) say(line string) []Reply {
	s.t.Helper()
	l, err := engine.ParseLine(line)
	if err != nil {
		s.t.Fatal(err)
	}
	user := l.User
	if user == "" {
		user = "alice"
	}
	return s.r.Handle(context.Background(), Request{Guild: "g", Channel: "c", User: user, Command: l.Command})
}

// seen is what user can read of a set of replies: the public ones and
// those to him.
func seen(reps []Reply, user string) string {
	var b strings.Builder
	for _, rep := range reps {
		if !rep.Ephemeral || string(rep.User) == user {
			b.WriteString(rep.Text + "\n")
		}
	}
	return b.String()
}

func (s *secretTable) export() string {
	var b bytes.Buffer
	if err := Export(context.Background(), s.st, rulesets(), "g", "c", ExportOptions{}, &b); err != nil {
		s.t.Fatal(err)
	}
	return b.String()
}

// hiddenFrom checks that nothing user can read holds secret: the replies
// to the step that sealed it, the pictures drawn since, /status, /log,
// /board and the export.
func (s *secretTable) hiddenFrom(user, secret string, sealed []Reply) {
	s.t.Helper()
	hidden := func(what, text string) {
		s.t.Helper()
		if strings.Contains(strings.ToLower(text), secret) {
			s.t.Errorf("%s shows the secret %q before it is revealed:\n%s", what, secret, text)
		}
	}
	hidden("the reply", seen(sealed, user))
	for _, v := range s.views.take() {
		hidden("the board picture", v)
	}
	hidden("/status for "+user, seen(s.say("@"+user+" /status"), user))
	hidden("/log", seen(s.say("@"+user+" /log last:50"), user))
	s.say("@" + user + " /board")
	pics := s.views.take()
	if len(pics) == 0 {
		s.t.Fatal("/board drew no picture")
	}
	for _, v := range pics {
		hidden("/board", v)
	}
	hidden("the export", s.export())
}

// TestSecretChoiceStaysSecret: once the Romans choose FLANKING in secret,
// nothing the Gauls can see — a reply to the table or to them, a board
// picture, a line of /log, /status, or an export of the log — shows it
// until the Gauls have chosen too. Then the melee reveals both, and the
// same checks find the word: they are not blind.
func TestSecretChoiceStaysSecret(t *testing.T) {
	tb := newSecretTable(t)
	for _, line := range secretSetup {
		tb.say(line)
	}
	tb.views.take()
	if got := seen(tb.say("@bob /status"), "bob"); !strings.Contains(got, "melee stage") {
		t.Fatalf("the game is not at its melee stage:\n%s", got)
	}
	chose := tb.say("@alice /mdi choice:flanking")
	if !strings.Contains(seen(chose, "alice"), "FLANKING") {
		t.Fatalf("alice was not told her own choice: %+v", chose)
	}
	tb.hiddenFrom("bob", "flanking", chose)
	if !strings.Contains(strings.ToLower(seen(tb.say("@bob /status"), "bob")), "waiting for the gauls") {
		t.Error("/status does not say the Gauls are awaited")
	}
	if mine := tb.say("@alice /status"); !strings.Contains(mine[0].Text, "FLANKING") {
		t.Errorf("the Romans' own /status does not show their face-down choice: %s", mine[0].Text)
	}

	// The Gauls choose; both are revealed together.
	revealed := seen(tb.say("@bob /mdi choice:line"), "bob")
	if !strings.Contains(revealed, "FLANKING") || !strings.Contains(revealed, "LINE") {
		t.Fatalf("the melee did not reveal both choices:\n%s", revealed)
	}
	if !strings.Contains(strings.ToLower(tb.export()), `"choice": "flanking"`) {
		t.Error("the export still hides the Romans' choice after the reveal")
	}
	if log := seen(tb.say("@bob /log last:50"), "bob"); !strings.Contains(log, "FLANKING") {
		t.Errorf("/log does not show the revealed choices:\n%s", log)
	}
}

// TestWrittenOrdersStaySecret: a goliath order written in secret ("move
// to 34,16") shows nowhere the other side can read until both sides are
// done; then the revealed orders and the export show it.
func TestWrittenOrdersStaySecret(t *testing.T) {
	tb := newSecretTable(t)
	for _, line := range []string{
		"@alice /book open rules:goliath method:orders",
		"@alice /army pick list:kingdom",
		"@bob /army pick list:horde",
		"@alice /place unit:all",
		"@alice /done",
		"@bob /place unit:all",
		"@bob /done",
	} {
		tb.say(line)
	}
	tb.views.take()
	wrote := tb.say(`@alice /orders unit:KIN-4 order:"move to 34,16"`)
	if !strings.Contains(seen(wrote, "alice"), "move to 34,16") {
		t.Fatalf("alice was not told her own order: %+v", wrote)
	}
	tb.hiddenFrom("bob", "34,16", wrote)
	if mine := seen(tb.say("@alice /status"), "alice"); !strings.Contains(mine, "34,16") {
		t.Errorf("alice's own /status does not show her order: %s", mine)
	}
	tb.say("@alice /done")
	revealed := seen(tb.say("@bob /done"), "bob")
	if !strings.Contains(revealed, "KIN-4: move to 34,16") {
		t.Fatalf("the orders were not revealed:\n%s", revealed)
	}
	if !strings.Contains(tb.export(), "34,16") {
		t.Error("the export still hides the order after the reveal")
	}
}

// TestExportReadsCampaigns: an export needs the rules of what it exports,
// to seal secrets; a campaign's rules come with the book rules that have
// campaigns, so a saga still exports.
func TestExportReadsCampaigns(t *testing.T) {
	path := filepath.Join(t.TempDir(), "saga.db")
	playScript(t, path, sagaScript(t)[:4], "")
	st := openStore(t, path)
	var b bytes.Buffer
	if err := Export(context.Background(), st, rulesets(), "local", campaignKey(gwab.New().Campaign()), ExportOptions{}, &b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "Wrath") {
		t.Fatalf("the saga's export does not show its start:\n%s", b.String())
	}
	if err := Export(context.Background(), st, nil, "local", campaignKey(gwab.New().Campaign()), ExportOptions{}, &b); err == nil {
		t.Fatal("an export without the rules of its game went ahead")
	}
}
