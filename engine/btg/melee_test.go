package btg

import "testing"

func TestMeleeHits(t *testing.T) {
	base := []int{1, 2, 3, 4, 5, 6}
	if got := MeleeHits(Sword, base, nil, 0); got != 4 {
		t.Errorf("swords: %d, want 4", got)
	}
	if got := MeleeHits(Club, base, []int{4, 5, 6}, 0); got != 4 {
		t.Errorf("clubs with three bonus dice: %d, want 2+2", got)
	}
	if got := MeleeHits(Tusks, []int{1, 6}, nil, 5); got != 3 {
		t.Errorf("elephant triple on 5: %d, want 3", got)
	}
	if got := MeleeHits(Tusks, []int{1, 6}, nil, 6); got != 1 {
		t.Errorf("elephant no triple on 6: %d, want 1", got)
	}
	if MeleeLeaderHit(0, false) || !MeleeLeaderHit(0, true) || MeleeLeaderHit(3, true) {
		t.Error("leader in melee is hit on a D10 of 0 only when the unit lost figures")
	}
}
