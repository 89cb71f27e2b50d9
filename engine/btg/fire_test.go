package btg

import "testing"

// 2.H bands with 2.H-mods applied to each die, 2.J casualties.
func TestFire(t *testing.T) {
	rolls := []int{1, 2, 3, 4, 5, 6}
	if got := Hits(rolls, 4, 0); got != 4 {
		t.Errorf("short bow short range: %d hits, want 4", got)
	}
	if got := Hits(rolls, 4, FireMod{Cover: true}.Sum()); got != 3 {
		t.Errorf("into woods: %d hits, want 3", got)
	}
	if got := Hits(rolls, 5, FireMod{CloseOrderTarget: true, Superior: true}.Sum()); got != 5 {
		t.Errorf("composite at a phalanx from a hill: %d hits, want 5 (a 6 never hits)", got)
	}
	if got := (FireMod{HitBonus: 1, Overhead: true}).Sum(); got != 0 {
		t.Errorf("Hittite firing overhead: modifier %d, want 0", got)
	}
	if got := Casualties(4, true, 1); got != 2 {
		t.Errorf("4 hits, leader hit, armor 1: %d, want 2", got)
	}
	if got := Casualties(1, false, 2); got != 0 {
		t.Errorf("armor above hits: %d, want 0", got)
	}
}
