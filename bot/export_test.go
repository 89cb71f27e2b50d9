package bot

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/store"
)

// TestExportAnyGame plays two books in one channel with a seed beyond what
// a JavaScript number holds, and exports each: the newest by default, the
// older by its number; the seed is a string and every key snake_case.
func TestExportAnyGame(t *testing.T) {
	ctx := context.Background()
	st, err := store.Open(ctx, filepath.Join(t.TempDir(), "export.db"))
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	const seed = 1<<63 + 12345
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Seed: func() uint64 { return seed }})
	l := &Local{Router: r, Guild: "local", Channel: "table", User: "alice"}
	script := strings.Join([]string{
		"/book open rules:sweet",
		"/book end",
		"/book open mode:practice",
		"/clan raise name:Achaeans hero:Ajax side:protagonist warbands:spear,spear,javelin",
	}, "\n")
	if err := l.Run(ctx, strings.NewReader(script), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	var list bytes.Buffer
	if err := ExportList(ctx, st, "local", "table", &list); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(list.String(), "game 1: sweet") || !strings.Contains(list.String(), "game 2: gwab") {
		t.Fatalf("the list does not show both games:\n%s", list.String())
	}
	camel := regexp.MustCompile(`"[a-z_]*[A-Z][A-Za-z_]*":`)
	for _, tt := range []struct {
		game  store.GameID
		rules string
	}{{0, "gwab"}, {1, "sweet"}, {2, "gwab"}} {
		var b bytes.Buffer
		if err := Export(ctx, st, rulesets(), "local", "table", ExportOptions{Game: tt.game}, &b); err != nil {
			t.Fatal(err)
		}
		var doc struct {
			Game struct {
				Rules string `json:"rules"`
			} `json:"game"`
			Events []struct {
				Payload map[string]any `json:"payload"`
			} `json:"events"`
		}
		if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
			t.Fatal(err)
		}
		if doc.Game.Rules != tt.rules {
			t.Errorf("game %d: exported %s, want %s", tt.game, doc.Game.Rules, tt.rules)
		}
		if got, ok := doc.Events[0].Payload["seed"].(string); !ok || got != "9223372036854788153" {
			t.Errorf("game %d: the seed is %#v, want the string 9223372036854788153", tt.game, doc.Events[0].Payload["seed"])
		}
		if k := camel.FindString(b.String()); k != "" {
			t.Errorf("game %d: the key %s is not snake_case", tt.game, k)
		}
	}
	if err := Export(ctx, st, rulesets(), "local", "table", ExportOptions{Game: 9}, &bytes.Buffer{}); err == nil || !strings.Contains(err.Error(), "--list") {
		t.Errorf("a missing game: %v", err)
	}
}

func TestPortableKeys(t *testing.T) {
	dec := json.NewDecoder(strings.NewReader(`{"Base":{"Center":{"X":1.5,"Y":2},"Facing":90},"a_cards":["KS"],"FrontCenter":1,"big":9007199254740993,"id":3}`))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		t.Fatal(err)
	}
	got, err := json.Marshal(portable(v, ""))
	if err != nil {
		t.Fatal(err)
	}
	want := `{"a_cards":["KS"],"base":{"center":{"x":1.5,"y":2},"facing":90},"big":"9007199254740993","front_center":1,"id":3}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestReadOnlyTable plays a book, then opens its database read-only: the
// commands that read answer as before, and one that would record a step
// is refused with a sentence saying why, the file unchanged.
func TestReadOnlyTable(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ro.db")
	st, err := store.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	r := NewRouter(Config{Store: st, Rulesets: rulesets(), Directives: true, Seed: func() uint64 { return 1 }})
	l := &Local{Router: r, Guild: "local", Channel: "table", User: "alice"}
	if err := l.Run(ctx, strings.NewReader("/book open rules:sweet size:12x10\n/army build name:Romans units:\"2 HI\"\n"), &bytes.Buffer{}); err != nil {
		t.Fatal(err)
	}
	st.Close()
	ro, err := store.OpenReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	r = NewRouter(Config{Store: ro, Rulesets: rulesets(), ReadOnly: true})
	l = &Local{Router: r, Guild: "local", Channel: "table", User: "alice"}
	var out bytes.Buffer
	if err := l.Run(ctx, strings.NewReader("/status\n/log last:1\n/measure from:A1 to:C3\n@bob /army build name:Gauls units:\"1 LI\"\n"), &out); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"The Romans (alice, south edge)", "leads the Romans", "From A1 to C3: 3 squares", "read-only, so nothing can be recorded"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the read-only table does not say %q:\n%s", want, out.String())
		}
	}
}
