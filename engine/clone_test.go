package engine

import (
	"sync"
	"testing"
)

// copyTree is a type that contains itself, copied for the first time by
// TestCopyConcurrentFirstUse alone.
type copyTree struct {
	Name     string
	Children []*copyTree
	Tags     map[string][]int
}

// TestCopyConcurrentFirstUse copies a type no copy has met before from
// many goroutines at once: each gets a whole, independent copy, whichever
// of them makes the type's copier.
func TestCopyConcurrentFirstUse(t *testing.T) {
	tree := &copyTree{Name: "root", Tags: map[string][]int{"a": {1, 2}},
		Children: []*copyTree{{Name: "leaf", Children: []*copyTree{{Name: "deep"}}}}}
	var wg sync.WaitGroup
	start := make(chan struct{})
	copies := make([]*copyTree, 16)
	for i := range copies {
		wg.Go(func() {
			<-start
			copies[i] = Copy(tree)
		})
	}
	close(start)
	wg.Wait()
	for i, c := range copies {
		if c == tree || c.Children[0] == tree.Children[0] || c.Children[0].Children[0].Name != "deep" || c.Tags["a"][1] != 2 {
			t.Fatalf("copy %d is not a whole, separate copy: %+v", i, c)
		}
		c.Tags["a"][0] = 9
		if tree.Tags["a"][0] != 1 {
			t.Fatalf("copy %d shares its tags with the original", i)
		}
	}
}
