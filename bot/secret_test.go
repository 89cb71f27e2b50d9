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

// TestSecretChoiceStaysSecret: once the Romans choose FLANKING in secret,
// nothing the Gauls can see — a reply to the table or to them, a board
// picture, a line of /log, /status, or an export of the log — shows it
// until the Gauls have chosen too. Then the melee reveals both, and the
// same checks find the word: they are not blind.
func TestSecretChoiceStaysSecret(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "secret.db"))
	views := &viewRecorder{}
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Renderer: views, Seed: func() uint64 { return 7 }, Logger: testLogger(t)})
	say := func(line string) []Reply {
		t.Helper()
		l, err := engine.ParseLine(line)
		if err != nil {
			t.Fatal(err)
		}
		user := l.User
		if user == "" {
			user = "alice"
		}
		return r.Handle(ctx, Request{Guild: "g", Channel: "c", User: user, Command: l.Command})
	}
	// seen is what bob can read of a set of replies: the public ones and
	// those to him.
	seen := func(reps []Reply) string {
		var b strings.Builder
		for _, rep := range reps {
			if !rep.Ephemeral || rep.User == "bob" {
				b.WriteString(rep.Text + "\n")
			}
		}
		return b.String()
	}
	export := func() string {
		var b bytes.Buffer
		if err := Export(ctx, st, rulesets(), "g", "c", ExportOptions{}, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	const secret = "flanking"
	hidden := func(what, text string) {
		t.Helper()
		if strings.Contains(strings.ToLower(text), secret) {
			t.Errorf("%s shows the Romans' secret choice before the Gauls chose:\n%s", what, text)
		}
	}
	for _, line := range secretSetup {
		say(line)
	}
	views.take()
	if got := seen(say("@bob /status")); !strings.Contains(got, "melee stage") {
		t.Fatalf("the game is not at its melee stage:\n%s", got)
	}

	chose := say("@alice /mdi choice:flanking")
	var toAlice string
	for _, rep := range chose {
		if rep.Ephemeral && rep.User == "alice" {
			toAlice += rep.Text
		}
	}
	if !strings.Contains(toAlice, "FLANKING") {
		t.Fatalf("alice was not told her own choice: %+v", chose)
	}
	hidden("the reply to /mdi", seen(chose))
	for _, v := range views.take() {
		hidden("the board picture", v)
	}
	hidden("/status for the Gauls", seen(say("@bob /status")))
	hidden("/log", seen(say("@bob /log last:50")))
	say("@bob /board")
	pics := views.take()
	if len(pics) == 0 {
		t.Fatal("/board drew no picture")
	}
	for _, v := range pics {
		hidden("/board", v)
	}
	hidden("the export", export())
	if !strings.Contains(strings.ToLower(seen(say("@bob /status"))), "waiting for the gauls") {
		t.Error("/status does not say the Gauls are awaited")
	}
	if mine := say("@alice /status"); !strings.Contains(mine[0].Text, "FLANKING") {
		t.Errorf("the Romans' own /status does not show their face-down choice: %s", mine[0].Text)
	}

	// The Gauls choose; both are revealed together.
	revealed := seen(say("@bob /mdi choice:line"))
	if !strings.Contains(revealed, "FLANKING") || !strings.Contains(revealed, "LINE") {
		t.Fatalf("the melee did not reveal both choices:\n%s", revealed)
	}
	if !strings.Contains(strings.ToLower(export()), `"choice": "flanking"`) {
		t.Error("the export still hides the Romans' choice after the reveal")
	}
	if log := seen(say("@bob /log last:50")); !strings.Contains(log, "FLANKING") {
		t.Errorf("/log does not show the revealed choices:\n%s", log)
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
