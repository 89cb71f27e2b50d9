package engine

import "testing"

func TestPlural(t *testing.T) {
	for _, tt := range []struct {
		n         int
		one, many string
		want      string
	}{
		{1, "game", "games", "1 game"},
		{0, "game", "games", "0 games"},
		{3, "picture", "pictures", "3 pictures"},
		{1, "movement card", "movement cards", "1 movement card"},
	} {
		if got := Plural(tt.n, tt.one, tt.many); got != tt.want {
			t.Errorf("Plural(%d, %q, %q) = %q, want %q", tt.n, tt.one, tt.many, got, tt.want)
		}
	}
}

func TestPossessive(t *testing.T) {
	for name, want := range map[string]string{
		"the Persians":      "the Persians'",
		"Mordor":            "Mordor's",
		"Achilles":          "Achilles'",
		"Hector":            "Hector's",
		"the Lycian band":   "the Lycian band's",
		"ROM-1":             "ROM-1's",
		"the Restless Dead": "the Restless Dead's",
	} {
		if got := Possessive(name); got != want {
			t.Errorf("Possessive(%q) = %q, want %q", name, got, want)
		}
	}
}
