package store

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestDeadlinesSurviveReopening(t *testing.T) {
	ctx := context.Background()
	path := testPath(t)
	s := openAt(t, path)
	g, err := s.CreateGame(ctx, "g", "c", "gwab", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.GameDeadline(ctx, g.ID); !errors.Is(err, ErrNotFound) {
		t.Fatalf("deadline before one is set: %v, want ErrNotFound", err)
	}
	t0 := time.Date(2026, 11, 22, 6, 0, 0, 0, time.UTC)
	d := Deadline{Game: g.ID, Guild: "g", Channel: "c", Per: 2 * time.Hour, Seq: 7,
		Due: t0.Add(2 * time.Hour), Remind: t0.Add(90 * time.Minute)}
	if err := s.PutDeadline(ctx, d); err != nil {
		t.Fatal(err)
	}
	if err := s.PutDeadline(ctx, Deadline{Game: g.ID, Per: time.Second}); err == nil {
		t.Fatal("a deadline shorter than a minute was stored")
	}
	s.Close()
	s = openAt(t, path)
	got, err := s.GameDeadline(ctx, g.ID)
	if err != nil {
		t.Fatal(err)
	}
	if got != d {
		t.Fatalf("after reopening: %+v, want %+v", got, d)
	}
	// The game's row says it has a deadline, so a step need not ask.
	if info, err := s.ActiveGame(ctx, "g", "c"); err != nil || !info.Deadline {
		t.Fatalf("the game with a deadline reads %+v, %v", info, err)
	}
	if info, err := s.Game(ctx, g.ID); err != nil || !info.Deadline {
		t.Fatalf("the game with a deadline reads %+v, %v", info, err)
	}
	for _, c := range []struct {
		at   time.Time
		want int
	}{{t0, 0}, {t0.Add(90 * time.Minute), 1}, {t0.Add(3 * time.Hour), 1}} {
		due, err := s.DueDeadlines(ctx, c.at)
		if err != nil {
			t.Fatal(err)
		}
		if len(due) != c.want {
			t.Errorf("due at %s: %d deadlines, want %d", c.at, len(due), c.want)
		}
	}
	if ok, err := s.ClaimDeadline(ctx, g.ID, 6, false); err != nil || ok {
		t.Fatalf("a reminder for another step was claimed: %v, %v", ok, err)
	}
	if ok, err := s.ClaimDeadline(ctx, g.ID, 7, false); err != nil || !ok {
		t.Fatalf("the reminder was not claimed: %v, %v", ok, err)
	}
	if ok, _ := s.ClaimDeadline(ctx, g.ID, 7, false); ok {
		t.Fatal("the reminder was claimed twice")
	}
	d.Reminded = true
	if due, _ := s.DueDeadlines(ctx, t0.Add(100*time.Minute)); len(due) != 0 {
		t.Errorf("a reminded deadline is due again before its time: %+v", due)
	}
	if ok, err := s.ClaimDeadline(ctx, g.ID, 7, true); err != nil || !ok {
		t.Fatalf("the time run out was not claimed: %v, %v", ok, err)
	}
	if ok, _ := s.ClaimDeadline(ctx, g.ID, 7, true); ok {
		t.Fatal("the time run out was claimed twice")
	}
	if due, _ := s.DueDeadlines(ctx, t0.Add(5*time.Hour)); len(due) != 0 {
		t.Errorf("a claimed deadline is still due: %+v", due)
	}
	if err := s.RemoveDeadline(ctx, g.ID); err != nil {
		t.Fatal(err)
	}
	if due, _ := s.DueDeadlines(ctx, t0.Add(5*time.Hour)); len(due) != 0 {
		t.Errorf("a removed deadline is still due: %+v", due)
	}
}
