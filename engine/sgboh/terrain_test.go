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

// The successors' battle is a fair fight: the second army stands as the
// first turned half round the map's centre, unit for unit (type, line,
// ratings, the opposite facing), leader for leader, and every hex of
// ground likewise; neither army goes first by the set-up (3.3: a roll
// decides). A slip of one hex in its script would hand one side an edge
// the arena's measurements would read as skill.
func TestSuccessorsIsTheSameArmyTurnedRound(t *testing.T) {
	s := openBattle(t, "successors", 1).Game.State.(*State)
	if len(s.Leaders) != 2 || s.Leaders[0].Side != 0 || s.Leaders[1].Side != 1 {
		t.Fatalf("leaders %+v: want one a side, the first army's first", s.Leaders)
	}
	// Turning half round maps axial hex h to c-h for one c, found from the
	// two leaders.
	c := engine.Hex{Q: s.Leaders[0].Hex.Q + s.Leaders[1].Hex.Q, R: s.Leaders[0].Hex.R + s.Leaders[1].Hex.R}
	turned := func(h engine.Hex) engine.Hex { return engine.Hex{Q: c.Q - h.Q, R: c.R - h.R} }
	a, b := s.Leaders[0], s.Leaders[1]
	if a.Initiative != b.Initiative || a.Range != b.Range || a.MA != b.MA || a.Elite != b.Elite {
		t.Errorf("leaders differ: %+v and %+v", a, b)
	}
	byHex := map[engine.Hex]Unit{}
	for _, u := range s.Units {
		byHex[u.Hex] = u
	}
	n := 0
	for _, u := range s.Units {
		if u.Side != 0 {
			continue
		}
		n++
		v, ok := byHex[turned(u.Hex)]
		switch {
		case !ok || v.Side != 1:
			t.Errorf("%s at %s: no unit of the second army at %s", u.ID, u.Hex, turned(u.Hex))
		case v.Type != u.Type || v.Line != u.Line || v.TQ != u.TQ || v.Size != u.Size || v.MA != u.MA || v.Missile != u.Missile:
			t.Errorf("%s and %s differ: %+v and %+v", u.ID, v.ID, u, v)
		case v.Facing != u.Facing.Opposite():
			t.Errorf("%s faces %s, %s %s: want opposite facings", u.ID, u.Facing, v.ID, v.Facing)
		}
	}
	if n == 0 || 2*n != len(s.Units) {
		t.Errorf("%d units of the first army among %d", n, len(s.Units))
	}
	laid := 0
	for q := -20; q < 40; q++ {
		for r := -20; r < 40; r++ {
			h := engine.Hex{Q: q, R: r}
			if !s.onMap(h) {
				continue
			}
			if !s.onMap(turned(h)) {
				t.Fatalf("%s is on the map, %s turned round is not", h, turned(h))
			}
			if s.cell(h) != s.cell(turned(h)) {
				t.Errorf("ground at %s is %+v, at %s %+v", h, s.cell(h), turned(h), s.cell(turned(h)))
			}
			if s.cell(h) != (Cell{}) {
				laid++
			}
		}
	}
	if laid == 0 {
		t.Error("no ground laid: the check of the ground checks nothing")
	}
	if s.Armies[0].Withdraw != s.Armies[1].Withdraw || s.Armies[0].First || s.Armies[1].First {
		t.Errorf("armies %+v and %+v: want the same rout limit and neither first by the set-up", s.Armies[0], s.Armies[1])
	}
}
