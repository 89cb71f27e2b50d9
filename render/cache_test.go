package render

import (
	"sync"
	"sync/atomic"
	"testing"
)

// TestCacheKeepsRecentWithinBounds fills a cache past its count and its
// bytes: what is used again stays, the least recently used goes first,
// and a value is made once however many ask for it at the same time.
func TestCacheKeepsRecentWithinBounds(t *testing.T) {
	c := cache[int, []byte]{max: 4, budget: 100, size: func(b []byte) int { return len(b) }}
	var made atomic.Int64
	mk := func(n int) func() []byte {
		return func() []byte { made.Add(1); return make([]byte, n) }
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { c.get(1, mk(10)) })
	}
	wg.Wait()
	if made.Load() != 1 {
		t.Fatalf("value 1 made %d times, want once", made.Load())
	}
	for k := 2; k <= 4; k++ {
		c.get(k, mk(10))
		c.get(1, mk(10)) // 1 is always the most recently used
	}
	c.get(5, mk(10)) // a fifth: 2, the least recently used, goes
	if c.has(2) || !c.has(1) || !c.has(3) || !c.has(5) || c.len() != 4 {
		t.Errorf("after five values in a cache of four: has 1 %v, 2 %v, 3 %v, 5 %v; %d kept", c.has(1), c.has(2), c.has(3), c.has(5), c.len())
	}
	c.get(6, mk(75)) // 40 bytes kept and 75 more: over the budget
	if !c.has(6) || c.bytes > 100 {
		t.Errorf("after a value of 75 bytes: has it %v, %d bytes kept, budget 100", c.has(6), c.bytes)
	}
	c.get(7, mk(500)) // larger than the budget: kept alone, as the last used
	if !c.has(7) || c.len() != 1 {
		t.Errorf("a value over the budget: has it %v, %d kept, want it alone", c.has(7), c.len())
	}
	if made.Load() != 7 {
		t.Errorf("%d values made, want 7", made.Load())
	}
}
