package engine

import (
	"maps"
	"slices"
	"strings"
	"testing"
)

func TestParseLine(t *testing.T) {
	tests := []struct {
		in      string
		user    PlayerID
		name    string
		opts    map[string]string
		args    []string
		dir     bool
		empty   bool
		wantErr string
	}{
		{in: `@alice /clan raise name:Myrmidons hero:Achilles side:protagonist warbands:spear,spear,bow`,
			user: "alice", name: "clan raise",
			opts: map[string]string{"name": "Myrmidons", "hero": "Achilles", "side": "protagonist", "warbands": "spear,spear,bow"}},
		{in: `/clan raise hero:"Great Ajax" name:"Sons of Telamon"`, name: "clan raise",
			opts: map[string]string{"hero": "Great Ajax", "name": "Sons of Telamon"}},
		{in: `  /STATUS  `, name: "status"},
		{in: `/saga schedule when:"Friday 19:00"`, name: "saga schedule", opts: map[string]string{"when": "Friday 19:00"}},
		{in: `/saga adjust reason:"said \"sorry\""`, name: "saga adjust", opts: map[string]string{"reason": `said "sorry"`}},
		{in: `/move element:MYR-W1 to:12,7.5`, name: "move", opts: map[string]string{"element": "MYR-W1", "to": "12,7.5"}},
		{in: `/book end reason:`, name: "book end", opts: map[string]string{"reason": ""}},
		{in: `#stack combat KS 7H 10D JOKER`, name: "stack", dir: true, args: []string{"combat", "KS", "7H", "10D", "JOKER"}},
		{in: `@bob #place "Great Ajax" 10,4 N`, user: "bob", name: "place", dir: true, args: []string{"Great Ajax", "10,4", "N"}},
		{in: ``, empty: true},
		{in: `# a comment`, empty: true},
		{in: `#`, empty: true},
		{in: `hello`, wantErr: "is not a command"},
		{in: `@alice`, wantErr: "says nothing"},
		{in: `@ /status`, wantErr: "must follow @"},
		{in: `/clan raise hero:"Great Ajax`, wantErr: "quote is left open"},
		{in: `/move element:A element:B`, wantErr: "given twice"},
		{in: `/move element:A stray`, wantErr: "is not an option"},
		{in: `/move "a:b"`, wantErr: "is not an option"},
		{in: `/`, wantErr: "is not a command"},
	}
	for _, tt := range tests {
		got, err := ParseLine(tt.in)
		if tt.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("ParseLine(%q) error = %v, want one saying %q", tt.in, err, tt.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("ParseLine(%q): %v", tt.in, err)
			continue
		}
		c := got.Command
		if got.Empty != tt.empty || got.User != tt.user || c.Name != tt.name || c.Directive != tt.dir ||
			!maps.Equal(c.Options, tt.opts) || !slices.Equal(c.Args, tt.args) {
			t.Errorf("ParseLine(%q) = %+v", tt.in, got)
		}
	}
}

// FuzzParseLine checks that no line panics the parser, and that a parsed
// command written back the way the table reads it parses to the same
// command.
func FuzzParseLine(f *testing.F) {
	for _, s := range []string{
		`@alice /clan raise name:Myrmidons hero:"Great Ajax" side:protagonist warbands:spear,spear,bow`,
		`#stack combat KS 7H`, `/move element:X to:1,2 facing:N`, `/a b:"c \" d"`, `# c`, `@x #seed 4`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		l, err := ParseLine(s)
		if err != nil || l.Empty {
			return
		}
		again, err := ParseLine(l.Command.String())
		if err != nil {
			t.Fatalf("%q parsed, but its rewriting %q does not: %v", s, l.Command.String(), err)
		}
		a, b := l.Command, again.Command
		if a.Name != b.Name || a.Directive != b.Directive || !maps.Equal(a.Options, b.Options) || !slices.Equal(a.Args, b.Args) {
			t.Fatalf("%q → %+v, rewritten %q → %+v", s, a, l.Command.String(), b)
		}
	})
}
