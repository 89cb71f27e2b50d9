package sgboh

import (
	"os"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
)

// TestViewListsPursuersOffTheMap: cavalry that rides off the map after
// the fugitives (8.3) is gone from the hexes but not from the battle: the
// picture lists it aside, with when it comes back.
func TestViewListsPursuersOffTheMap(t *testing.T) {
	src, err := os.ReadFile("testdata/transcripts/sgboh-shock.script")
	if err != nil {
		t.Fatal(err)
	}
	tb := enginetest.NewTable(New())
	if _, err := tb.Play(string(src)); err != nil {
		t.Fatal(err)
	}
	v := New().View(tb.Game(), nil)
	if len(v.Aside) != 1 || v.Aside[0].Label != "C2" || v.Aside[0].Crew == "" {
		t.Fatalf("aside: %+v, want C2 pursuing", v.Aside)
	}
	for _, p := range v.Pieces {
		if p.Label == "C2" {
			t.Errorf("C2 is drawn on the map at %v while off it", p.Base.Center)
		}
	}
}
