package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/render"
)

// TestRulingIsLoggedExportedDrawnAndReplayed: a game master's ruling
// after the cards is a step of its own: its picture marks what it moved,
// /log and the export show it with its reason, and the log replays to
// the same book.
func TestRulingIsLoggedExportedDrawnAndReplayed(t *testing.T) {
	ctx := context.Background()
	st := openStore(t, filepath.Join(t.TempDir(), "ruling.db"))
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Renderer: render.New(render.Options{}), Seed: func() uint64 { return 1 }})
	doAll(t, r, []string{
		"@alice /book open mode:practice",
		"/clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,javelin,bow",
		"/clan raise name:Lycians hero:Sarpedon side:antagonist warbands:sword,javelin,sling",
		"@bob /clan raise name:Trojans hero:Hector side:antagonist warbands:spear,sword,bow",
		"/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin",
		"@alice #place MYR-W3 20,14 N",
		"#place TRO-W1 20,22 S",
		"#stack sequence KS 10S QS 9S",
		"/book start",
		"#stack combat QH",
		"/fire element:MYR-W3 target:TRO-W1",
	})
	const reason = "the card was turned by mistake"
	reps := do(t, r, `@alice /ruling piece:TRO-W1 wounds:0 at:22,23 reason:"`+reason+`"`)
	if len(reps) == 0 || reps[0].Ephemeral || !strings.Contains(reps[0].Text, "rules on TRO-W1 (spearmen): 0 of 3 wounds; at 22,23 facing S") {
		t.Fatalf("the ruling was answered %+v", reps)
	}
	if reps[0].Image == nil {
		t.Error("the ruling's step has no picture")
	}
	if v := r.viewOf(t, "g", "c"); !hasRulingMark(v) {
		t.Errorf("the ruling's picture marks no ruling: %+v", v.Marks)
	}
	log := do(t, r, "@alice /log last:1")
	if len(log) == 0 || !strings.Contains(log[0].Text, "Reason: "+reason) {
		t.Errorf("/log after the ruling says %+v", log)
	}
	var exp bytes.Buffer
	if err := Export(ctx, st, rulesets(), "g", "c", ExportOptions{}, &exp); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(exp.String(), `"gwab.ruled"`) || !strings.Contains(exp.String(), reason) {
		t.Errorf("the export holds no ruling:\n%.2000s", exp.String())
	}

	// The recorded log, replayed from the first event, comes to the book
	// the router holds.
	info, err := st.ActiveGame(ctx, "g", "c")
	if err != nil {
		t.Fatal(err)
	}
	recs, err := st.Events(ctx, info.ID, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	rs := r.rules[info.Ruleset]
	re := engine.NewGame(rs)
	for _, rec := range recs {
		e, err := engine.DecodeRecord(rs, rec)
		if err != nil {
			t.Fatal(err)
		}
		if err := re.Apply(e); err != nil {
			t.Fatal(err)
		}
	}
	held, err := r.load(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	a, _ := json.Marshal(held.State)
	b, _ := json.Marshal(re.State)
	if string(a) != string(b) {
		t.Error("the replayed book differs from the one played")
	}
}

// viewOf is the view of the channel's book with its last step marked.
func (r *Router) viewOf(t *testing.T, guild, channel string) engine.View {
	t.Helper()
	ctx := context.Background()
	info, err := r.cfg.Store.ActiveGame(ctx, guild, channel)
	if err != nil {
		t.Fatal(err)
	}
	g, err := r.load(ctx, info)
	if err != nil {
		t.Fatal(err)
	}
	recs, err := r.cfg.Store.Events(ctx, info.ID, g.Seq-1, g.Seq)
	if err != nil {
		t.Fatal(err)
	}
	var last []engine.Event
	for _, rec := range recs {
		e, err := engine.DecodeRecord(g.Rules, rec)
		if err != nil {
			t.Fatal(err)
		}
		last = append(last, e)
	}
	return g.Rules.(engine.Viewer).View(g, last)
}

func hasRulingMark(v engine.View) bool {
	for _, m := range v.Marks {
		if m.Label == "ruling" {
			return true
		}
	}
	return false
}
