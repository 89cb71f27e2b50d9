package render

import (
	"container/list"
	"sync"
)

// cache keeps values made for keys, for later pictures that need them
// again (a table's ground or static layer, a legend, a palette, a band
// of a file already compressed), the least recently used going first:
// at most max of them, and, when budget is set, at most budget bytes of
// them as size counts them (the one used last is kept whatever its
// size). Two pictures that need a value not kept make it only once. It
// is safe for concurrent use.
type cache[K comparable, V any] struct {
	max    int
	budget int         // bytes; 0 for no limit but max
	size   func(V) int // a value's bytes; nil when budget is not set

	mu      sync.Mutex
	entries map[K]*list.Element // of *cacheEntry[K, V]
	order   list.List           // most recently used first
	bytes   int                 // of the values made and kept
}

type cacheEntry[K comparable, V any] struct {
	key  K
	once sync.Once
	v    V
	size int // bytes, once made and counted
}

// get returns the value for key, made by make the first time.
func (c *cache[K, V]) get(key K, make func() V) V {
	c.mu.Lock()
	var e *cacheEntry[K, V]
	if el, ok := c.entries[key]; ok {
		c.order.MoveToFront(el)
		e = el.Value.(*cacheEntry[K, V])
	} else {
		if c.entries == nil {
			c.entries = map[K]*list.Element{}
		}
		e = &cacheEntry[K, V]{key: key}
		c.entries[key] = c.order.PushFront(e)
		c.evict()
	}
	c.mu.Unlock()
	e.once.Do(func() {
		e.v = make()
		if c.size == nil {
			return
		}
		c.mu.Lock()
		defer c.mu.Unlock()
		if el, ok := c.entries[key]; ok && el.Value == e { // not let go while made
			e.size = c.size(e.v)
			c.bytes += e.size
			c.evict()
		}
	})
	return e.v
}

// has reports whether the value for key is kept, or being made.
func (c *cache[K, V]) has(key K) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	_, ok := c.entries[key]
	return ok
}

// len returns how many values are kept.
func (c *cache[K, V]) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.entries)
}

// evict lets the least recently used values go until the cache is within
// its bounds. c.mu is held.
func (c *cache[K, V]) evict() {
	for c.order.Len() > c.max || c.budget > 0 && c.bytes > c.budget && c.order.Len() > 1 {
		e := c.order.Remove(c.order.Back()).(*cacheEntry[K, V])
		c.bytes -= e.size
		e.size = 0
		delete(c.entries, e.key)
	}
}
