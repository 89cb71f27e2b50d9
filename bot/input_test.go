package bot

import (
	"bytes"
	"context"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLongNamesAreRefusedShort: a clan name of 6,000 characters and an
// element name of 100,000 are refused; the refusal quotes a few dozen
// characters of them, and nothing is recorded.
func TestLongNamesAreRefusedShort(t *testing.T) {
	db := filepath.Join(t.TempDir(), "long.db")
	st := openStore(t, db)
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true})
	doAll(t, r, practiceSetup[:2])
	before := len(kinds(t, st))
	for _, line := range []string{
		"@alice /clan raise name:" + strings.Repeat("M", 6000) + " hero:Achilles side:protagonist warbands:spear,spear,bow",
		"@alice /book end reason:\"" + strings.Repeat("why ", 60) + "\"",
	} {
		reps := do(t, r, line)
		if len(reps) != 1 || !reps[0].Ephemeral || !strings.Contains(reps[0].Text, "at most") || utf8.RuneCountInString(reps[0].Text) > 160 {
			t.Errorf("%.40s…: %+v", line, reps)
		}
	}
	if got := len(kinds(t, st)); got != before {
		t.Errorf("the refusals recorded %d events", got-before)
	}
	doAll(t, r, practiceSetup[2:])
	before = len(kinds(t, st))
	reps := do(t, r, "@alice /move element:"+strings.Repeat("MYR-W1", 100000/6)+" to:13,11")
	if len(reps) != 1 || !reps[0].Ephemeral || utf8.RuneCountInString(reps[0].Text) > 160 {
		t.Errorf("a 100,000-character element: %.300v", reps)
	}
	if got := len(kinds(t, st)); got != before {
		t.Errorf("the refused move recorded %d events", got-before)
	}
}

// TestNamesLoseControlCharacters: a clan name with a bell, a newline and
// a right-to-left override is kept without them.
func TestNamesLoseControlCharacters(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "clean.db"))
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true})
	doAll(t, r, practiceSetup[:2])
	reps := do(t, r, "@alice /clan raise name:\"Myr\u202emi\adons\" hero:Achilles side:protagonist warbands:spear,spear,bow")
	if len(reps) == 0 || reps[0].Ephemeral || !strings.Contains(reps[0].Text, "Myrmidons") || strings.ContainsAny(reps[0].Text, "\u202e\a") {
		t.Errorf("raised as %+v", reps)
	}
}

// TestLocalTableReadsOnPastALongLine: a line of two megabytes is refused
// and the next line is read.
func TestLocalTableReadsOnPastALongLine(t *testing.T) {
	l, closeStore := table(t, filepath.Join(t.TempDir(), "l.db"))
	defer closeStore()
	in := strings.Repeat("x", 2<<20) + "\n/help\n"
	var out bytes.Buffer
	if err := l.Run(context.Background(), strings.NewReader(in), &out); err != nil {
		t.Fatalf("the table stopped: %v", err)
	}
	if !strings.Contains(out.String(), "longer than") || !strings.Contains(out.String(), "» /help") {
		t.Errorf("the table said %.300q", out.String())
	}
}

// TestTextIsReadAsUnicode: an option that is not UTF-8 is refused and
// records nothing; a clan name with zero-width characters and decomposed
// accents is kept as the name it reads as, so a second clan spelt the
// same with invisible differences is the same name to the table.
func TestTextIsReadAsUnicode(t *testing.T) {
	st := openStore(t, filepath.Join(t.TempDir(), "unicode.db"))
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true})
	doAll(t, r, practiceSetup[:2])
	before := len(kinds(t, st))
	reps := do(t, r, "@alice /clan raise name:Myr\xffmidons hero:Achilles side:protagonist warbands:spear,spear,bow")
	if len(reps) != 1 || !reps[0].Ephemeral || !strings.Contains(reps[0].Text, "The name you gave did not come through as readable text") {
		t.Errorf("a name that is not UTF-8: %+v", reps)
	}
	reps = do(t, r, "@alice /clan raise name:\u200b\u2060 hero:Achilles side:protagonist warbands:spear,spear,bow")
	if len(reps) != 1 || !reps[0].Ephemeral || !strings.Contains(reps[0].Text, "only invisible characters") {
		t.Errorf("a name of zero-width characters: %+v", reps)
	}
	if got := len(kinds(t, st)); got != before {
		t.Errorf("the refusals recorded %d events", got-before)
	}
	reps = do(t, r, "@alice /clan raise name:\"Myr\u200bmi\u200ddons of E\u0301lis\ufe0f\" hero:Achilles side:protagonist warbands:spear,spear,bow")
	if len(reps) == 0 || reps[0].Ephemeral || !strings.Contains(reps[0].Text, "Myrmidons of \u00c9lis") {
		t.Errorf("raised as %+v", reps)
	}
	reps = do(t, r, "@alice /clan raise name:\"Myrmidons of \u00c9lis\u200c\" hero:Sarpedon side:antagonist warbands:sword,javelin,sling,spear")
	if len(reps) != 1 || !reps[0].Ephemeral || !strings.Contains(reps[0].Text, "\"Myrmidons of \u00c9lis\" is already used") {
		t.Errorf("a second clan whose name reads the same was raised: %+v", reps)
	}
}
