package store_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/rhapsode/rhapsode/store"
	"github.com/rhapsode/rhapsode/store/storetest"
)

// BenchmarkStore measures the SQLite store with the benchmarks every
// store runs (storetest.Bench); store/postgres runs the same ones, for
// the two to be read side by side.
func BenchmarkStore(b *testing.B) {
	storetest.Bench(b, sqlite)
}

// sqlite makes a new database file for a test.
func sqlite(tb testing.TB) storetest.Opener {
	path := filepath.Join(tb.TempDir(), "rhapsode.db")
	return func(ctx context.Context) (storetest.Store, error) { return store.Open(ctx, path) }
}
