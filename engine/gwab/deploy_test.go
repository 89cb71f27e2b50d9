package gwab

import (
	"fmt"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
)

// TestDeployment starts books of 2 to 8 players and checks section 7 on
// the table they deploy to: every clan in one huddle of touching,
// non-overlapping stands on the table (7.1); the two sides' front lines
// 20 strides apart (7.2); and no player's two clans facing each other
// across the table (7.3).
func TestDeployment(t *testing.T) {
	for players := 2; players <= 8; players++ {
		t.Run(fmt.Sprintf("%d players", players), func(t *testing.T) {
			var cmds []engine.Command
			cmds = append(cmds, opt("p0", "book open"))
			for p := range players {
				who := engine.PlayerID(fmt.Sprintf("p%d", p))
				warbands := []string{"spear,sword,bow", "spear,spear,javelin,sling"}[p%2]
				cmds = append(cmds,
					opt(who, "clan raise", "name", fmt.Sprintf("Pro%d", p), "hero", fmt.Sprintf("Hero%dP", p), "side", "protagonist", "warbands", warbands),
					opt(who, "clan raise", "name", fmt.Sprintf("Ant%d", p), "hero", fmt.Sprintf("Hero%dA", p), "side", "antagonist", "warbands", warbands))
			}
			cmds = append(cmds, opt("p0", "book start"))
			g, _ := play(t, cmds...)
			s := g.State.(*State)

			fronts := map[Side]float64{}
			for _, c := range s.Clans {
				els := s.ClanElements(c.Tag)
				// One huddle: every element reaches every other through
				// stands that touch.
				seen := map[ElementID]bool{els[0].ID: true}
				for grew := true; grew; {
					grew = false
					for _, a := range els {
						for _, b := range els {
							if seen[a.ID] && !seen[b.ID] && a.Base.Touches(b.Base) {
								seen[b.ID], grew = true, true
							}
						}
					}
				}
				if len(seen) != len(els) {
					t.Errorf("the %s stand in more than one huddle", c.Name)
				}
				for _, a := range els {
					if !s.Board.holds(a.Base) {
						t.Errorf("%s is off the table", a.ID)
					}
					if a.Kind == Warband {
						fronts[c.Side] = a.Base.FrontCenter().Y
					}
				}
			}
			for i := range s.Elements {
				for j := i + 1; j < len(s.Elements); j++ {
					if a, b := &s.Elements[i], &s.Elements[j]; a.Base.Clashes(b.Base) {
						t.Errorf("%s stands on %s", a.ID, b.ID)
					}
				}
			}
			if gap := fronts[Antagonist] - fronts[Protagonist]; gap != frontGap {
				t.Errorf("the front lines are %g strides apart, want %g (7.2)", gap, frontGap)
			}
			for _, p := range s.Players() {
				cl := s.PlayerClans(p)
				if cl[0].Slot == cl[1].Slot {
					t.Errorf("%s's two clans face each other across the table (7.3)", p)
				}
			}
		})
	}
}
