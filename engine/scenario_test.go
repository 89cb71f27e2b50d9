package engine

import (
	"slices"
	"testing"
)

// TestScriptsReadBack: a set-up written as one line reads back as the
// same commands, quoted values and semicolons inside them included, and
// a script holds only set-up commands, written with no player.
func TestScriptsReadBack(t *testing.T) {
	cmds := []Command{
		{Name: "setup terrain", Options: map[string]string{"kind": "rough", "where": "1,2 3,4 5,6", "name": `the "old" grove; east`}},
		{Name: "setup place", Options: map[string]string{"piece": "MYR-W1", "at": "20,15", "facing": "0"}},
	}
	line := WriteScript(cmds)
	got, err := ParseScript(line)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(cmds) {
		t.Fatalf("%q read as %d commands", line, len(got))
	}
	for i := range cmds {
		if got[i].Name != cmds[i].Name || !mapsEqual(got[i].Options, cmds[i].Options) {
			t.Errorf("command %d read back as %+v, want %+v", i, got[i], cmds[i])
		}
	}
	for _, bad := range []string{"@alice /setup place piece:X at:1,1", "#place X 1,1", "setup place"} {
		if _, err := ParseScript(bad); err == nil {
			t.Errorf("%q was read as a scenario", bad)
		}
	}
	if got, err := ParseScript("# a comment\n\n/setup clear name:wall ;"); err != nil || len(got) != 1 {
		t.Errorf("comments and blank parts: %v, %v", got, err)
	}
}

// FuzzScript: any text either fails to read or reads as commands that,
// written again, read back the same.
func FuzzScript(f *testing.F) {
	f.Add(`/setup terrain kind:stream where:"0,19 60,19 60,21" name:"the river"; /setup place piece:A at:1,2`)
	f.Add("/a b:c;/d e:\"f;g\"")
	f.Fuzz(func(t *testing.T, text string) {
		cmds, err := ParseScript(text)
		if err != nil {
			return
		}
		again, err := ParseScript(WriteScript(cmds))
		if err != nil {
			t.Fatalf("%q wrote %q, which does not read: %v", text, WriteScript(cmds), err)
		}
		if !slices.EqualFunc(cmds, again, func(a, b Command) bool { return a.Name == b.Name && mapsEqual(a.Options, b.Options) }) {
			t.Fatalf("%q read back as %+v, want %+v", text, again, cmds)
		}
	})
}

func mapsEqual(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}
