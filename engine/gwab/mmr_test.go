package gwab_test

import (
	"os"
	"strings"
	"testing"

	"github.com/rhapsode/rhapsode/engine/enginetest"
	"github.com/rhapsode/rhapsode/engine/gwab"
)

// TestMultipleMeleeExample plays the Multiple Melee Example of GWAB
// section 10 (MMR4) with every card stacked as the example lists them, and
// checks each result the example gives, round by round, in order. (Its
// transcript is also a golden in testdata/transcripts; this test states
// what the rules require of it.)
func TestMultipleMeleeExample(t *testing.T) {
	src, err := os.ReadFile("testdata/transcripts/mmr-example.script")
	if err != nil {
		t.Fatal(err)
	}
	got, err := enginetest.NewTable(gwab.New()).Play(string(src))
	if err != nil {
		t.Fatal(err)
	}

	// MYC-H is the Mycenaean Hero, MYC-W1 the Mycenaean warband, TRO-C1
	// the Trojan Companion and TRO-W1 the Trojan warband.
	want := []string{
		"Melee, round 1:",
		"Aeneas (TRO-C1) wounds Agamemnon (MYC-H) (KC beats JC): 1 of 4.",
		"Aeneas (TRO-C1) wounds MYC-W1 (spearmen) (QS beats 5S): 1 of 3.",
		"Agamemnon (MYC-H) wounds TRO-W1 (spearmen) (JS beats 6H): 1 of 3.",
		"Melee, round 2:",
		"Aeneas (TRO-C1) wounds MYC-W1 (spearmen) (AH beats AC): 2 of 3.",
		"Agamemnon (MYC-H) wounds TRO-W1 (spearmen) (KH beats 5H): 2 of 3.",
		"Agamemnon (MYC-H) wounds Aeneas (TRO-C1) (JD beats 8H): 1 of 3.",
		"Melee, round 3:",
		"Agamemnon (MYC-H) wounds Aeneas (TRO-C1) (AS beats 2H): 2 of 3.",
		"Aeneas (TRO-C1) wounds MYC-W1 (spearmen) (KS beats 10H): 3 of 3. MYC-W1 (spearmen) is out of the fight.",
		"TRO-W1 (spearmen) plays 9C against 7D and wins an impact of 2 strides on Agamemnon (MYC-H).",
		"Impact: Agamemnon (MYC-H) is pushed back 1 stride; Aeneas (TRO-C1) comes forward",
		"Melee, round 4:",
		"TRO-W1 (spearmen) wounds Agamemnon (MYC-H) (QC beats QD): 2 of 4.",
		"Agamemnon (MYC-H) plays 6S against 3D and wins an impact of 3 strides on Aeneas (TRO-C1).",
		"Impact: Aeneas (TRO-C1) is pushed back 3 strides.",
		"MYC-W3 (bowmen) shoots at Aeneas (TRO-C1)",
		"7C misses.",
		"Melee, round 5:",
		"TRO-W1 (spearmen) wounds Agamemnon (MYC-H) (AD beats 8D): 3 of 4.",
		"Agamemnon (MYC-H) wounds Aeneas (TRO-C1) (QH beats 8S): 3 of 3. Aeneas (TRO-C1) is out of the fight.",
		"Melee, round 6:",
		"Agamemnon (MYC-H) plays 10C against 3H and wins an impact of 7 strides on TRO-W1 (spearmen).",
		"Impact: TRO-W1 (spearmen) is pushed back 4 strides; MYC-W2 (spearmen) comes forward 1 stride; MYC-W3 (bowmen) comes forward 1 stride; Talthybius (MYC-C1) comes forward 1 stride.",
	}
	rest := got
	for _, w := range want {
		i := strings.Index(rest, w)
		if i < 0 {
			t.Fatalf("the example's result %q does not follow in order; the transcript from there:\n%s", w, rest[:min(len(rest), 3000)])
		}
		rest = rest[i+len(w):]
	}
	// The round 3 impact brought Aeneas back into contact: he fights
	// Agamemnon again in round 4. And the round 6 push leaves the Trojan
	// warband beyond a foot move of the Hero.
	if !strings.Contains(got, "Agamemnon (MYC-H) draws 6S 4H; Aeneas (TRO-C1) draws 3D.") {
		t.Error("Aeneas did not regain contact with Agamemnon after the third round's impact")
	}
	for _, unwanted := range []string{"wounds Agamemnon (MYC-H) (pushed", "cannot", "no longer in contact"} {
		if strings.Contains(got, unwanted) {
			t.Errorf("the transcript says %q, which the example never does", unwanted)
		}
	}
}
