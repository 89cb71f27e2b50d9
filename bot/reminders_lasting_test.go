package bot

import (
	"testing"
	"time"
)

// TestLasting: spans are said to the minute under two hours, to the hour
// under two days, and in days and hours beyond, rounded to the hour as a
// whole (never "3 days and 24 hours").
func TestLasting(t *testing.T) {
	for _, c := range []struct {
		d    time.Duration
		want string
	}{
		{30 * time.Second, "less than a minute"},
		{time.Hour, "1 hour"},
		{90 * time.Minute, "90 minutes"},
		{10*time.Hour + 20*time.Minute, "10 hours"},
		{3*24*time.Hour + 23*time.Hour + 40*time.Minute, "4 days"},
		{3*24*time.Hour + 5*time.Hour + 10*time.Minute, "3 days and 5 hours"},
		{2*24*time.Hour + time.Hour, "2 days and 1 hour"},
	} {
		if got := lasting(c.d); got != c.want {
			t.Errorf("lasting(%s) = %q, want %q", c.d, got, c.want)
		}
	}
}
