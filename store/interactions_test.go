package store

import (
	"bytes"
	"context"
	"path/filepath"
	"testing"
	"time"
)

// TestInteractionTakenOnce: the first taker of an interaction is told it
// is fresh; every other, on the same store or another on the same file,
// after a restart too, is not, and reads the answer once recorded.
func TestInteractionTakenOnce(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "i.db")
	a, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	if _, fresh, err := a.TakeInteraction(ctx, "800", now); err != nil || !fresh {
		t.Fatalf("first take: fresh %v, %v", fresh, err)
	}
	if ans, fresh, err := b.TakeInteraction(ctx, "800", now); err != nil || fresh || ans != nil {
		t.Fatalf("second take while in hand: %q, fresh %v, %v", ans, fresh, err)
	}
	if err := a.AnswerInteraction(ctx, "800", []byte("done")); err != nil {
		t.Fatal(err)
	}
	a.Close()
	a, err = Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer a.Close()
	if ans, fresh, err := a.TakeInteraction(ctx, "800", now.Add(time.Minute)); err != nil || fresh || !bytes.Equal(ans, []byte("done")) {
		t.Fatalf("take after a restart: %q, fresh %v, %v", ans, fresh, err)
	}
	// Two hours on, it is forgotten.
	if _, fresh, err := b.TakeInteraction(ctx, "800", now.Add(2*time.Hour)); err != nil || !fresh {
		t.Fatalf("take two hours on: fresh %v, %v", fresh, err)
	}
}
