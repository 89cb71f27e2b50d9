package sgboh

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestMapShared: a copy of a battle shares its map rather than copying it
// (what saves a step copying the map), laying ground on the copy leaves
// the original's map as it was, and the state's JSON writes the map as
// the lists it always has, reading back the same.
func TestMapShared(t *testing.T) {
	s := &State{}
	if err := (MapLaid{Cols: 3, Rows: 2}).Apply(s); err != nil {
		t.Fatal(err)
	}
	if b, _ := json.Marshal(s); strings.Contains(string(b), `"features"`) {
		t.Fatalf("a map with no ground laid writes its features: %s", b)
	}
	woods := Feature{Name: "the grove", Ground: Woods, Hexes: []engine.Hex{engine.HexFromOffset(1, 2)}}
	if err := (GroundLaid{Feature: woods}).Apply(s); err != nil {
		t.Fatal(err)
	}
	c := s.clone()
	if &c.Cells.all[0] != &s.Cells.all[0] || &c.Features.all[0] != &s.Features.all[0] {
		t.Fatal("a copy of the state copied its map")
	}
	hill := Feature{Name: "the knoll", Level: 2, Hexes: []engine.Hex{engine.HexFromOffset(1, 2), engine.HexFromOffset(3, 1)}}
	if err := (GroundLaid{Feature: hill}).Apply(c); err != nil {
		t.Fatal(err)
	}
	if got := s.cell(engine.HexFromOffset(1, 2)); got != (Cell{Ground: Woods}) {
		t.Fatalf("laying a hill on a copy changed the original's 0102 to %+v", got)
	}
	if got := s.cell(engine.HexFromOffset(3, 1)); got != (Cell{}) {
		t.Fatalf("laying a hill on a copy changed the original's 0301 to %+v", got)
	}
	if n := len(slices.Collect(s.Features.All())); n != 1 {
		t.Fatalf("laying a hill on a copy gave the original %d features", n)
	}
	if got := c.cell(engine.HexFromOffset(1, 2)); got != (Cell{Ground: Woods, Level: 2}) {
		t.Fatalf("the copy's 0102 is %+v, want woods at level 2", got)
	}
	b, err := json.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	const cells = `"cells":[{},{"g":"woods","l":2},{},{},{"l":2},{}],"features":[{"name":"the grove","ground":"woods","hexes":[{"Q":1,"R":1}]},{"name":"the knoll","ground":"clear","level":2,"hexes":[{"Q":1,"R":1},{"Q":3,"R":-1}]}]`
	if !strings.Contains(string(b), cells) {
		t.Fatalf("the map is written\n%s\nwant it to hold\n%s", b, cells)
	}
	var back State
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if again, _ := json.Marshal(&back); string(again) != string(b) {
		t.Fatalf("the state reads back as\n%s\nnot\n%s", again, b)
	}
}
