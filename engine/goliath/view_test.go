package goliath

import (
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine"
	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// TestViewShowsNightAndDarkness: a battle by night says so in every
// picture's title, and a spell of darkness is drawn as darkness, not as
// woods.
func TestViewShowsNightAndDarkness(t *testing.T) {
	tb := enginetest.NewTable(New())
	script := `@ref /book open rules:goliath light:night
@alice /army raise name:Wizardry units:"1 wizards, 12 elves, 10 medium infantry" tag:WIZ
@bob /army raise name:Dead units:"20 orcs, 1 wizards, 10 zombies" tag:DED
#place WIZ-1 36,16 N
#place WIZ-2 14,14 N 6
#place WIZ-3 36,12 N 10
#place DED-1 20,30 S 10
#place DED-2 36,30 S
#place DED-3 46,32 S 10
@alice /done
#load d6 1 6
@bob /done
@bob /answer reply:first
@bob /done
@alice /done
#load 2d6 2 2
@bob /cast unit:DED-2 spell:darkness at:36,22`
	out, err := tb.Play(script)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(out, "casts darkness") {
		t.Fatalf("no darkness was cast:\n%s", out)
	}
	v := New().View(tb.Game(), nil)
	if !strings.Contains(v.Title, "by night") {
		t.Errorf("title %q does not say it is night", v.Title)
	}
	dark := 0
	for _, tr := range v.Terrain {
		if tr.Label == "darkness" {
			dark++
			if tr.Kind != engine.Dark {
				t.Errorf("darkness drawn as terrain kind %d", tr.Kind)
			}
		}
	}
	if dark != 1 {
		t.Errorf("%d areas of darkness in the picture, want 1", dark)
	}
}
