package mutation

import (
	"go/format"
	"strings"
	"testing"
)

const sample = `package p

type s struct{ n, m int }

func f(a, b int, x *s) bool {
	x.n = a + 2
	x.m++
	t := s{n: 1, m: 0}
	if a < b && b >= 3 || a == t.m {
		return true
	}
	return false
}
`

// TestSites checks that each kind of mistake is found where it can be made
// and that every mutant is still Go.
func TestSites(t *testing.T) {
	ss, err := sites("p.go", []byte(sample))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, s := range ss {
		for _, down := range []bool{false, true} {
			m := s.mutant([]byte(sample), down)
			if _, err := format.Source(m); err != nil {
				t.Errorf("%s: mutant does not parse: %v\n%s", s.describe([]byte(sample), down), err, m)
			}
			got[s.describe([]byte(sample), down)] = true
		}
	}
	for _, want := range []string{
		`flip comparison: "<" -> "<="`,
		`flip comparison: ">=" -> ">"`,
		`flip comparison: "==" -> "!="`,
		`swap && and ||: "&&" -> "||"`,
		`swap && and ||: "||" -> "&&"`,
		`shift constant: "2" -> "3"`,
		`shift constant: "2" -> "1"`,
		`shift constant: "0" -> "1"`,
		`negate condition: "a < b && b >= 3 || a == t.m" -> "!(a < b && b >= 3 || a == t.m)"`,
		`drop field: "x.n = a + 2" -> "_ = a + 2"`,
		`drop field: "x.m++" -> "_ = x.m"`,
		`drop field: "n: 1," -> ""`,
	} {
		if !got[want] {
			t.Errorf("no mutant %s; have:\n%s", want, strings.Join(keys(got), "\n"))
		}
	}
	// A field set to its zero value is set to what leaving it out gives:
	// dropping it changes nothing, and is not drawn.
	if got[`drop field: "m: 0" -> ""`] {
		t.Error(`drop field: "m: 0" is a mutant, but m is 0 either way`)
	}
}

func keys(m map[string]bool) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}
