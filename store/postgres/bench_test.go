package postgres

import (
	"testing"

	"github.com/rhapsode/rhapsode/store/storetest"
)

// BenchmarkStore measures the PostgreSQL store with the benchmarks every
// store runs (storetest.Bench), beside the SQLite store's: run both with
// go test -run '^$' -bench Store ./store/... with RHAPSODE_TEST_POSTGRES
// set.
func BenchmarkStore(b *testing.B) {
	storetest.Bench(b, schema)
}
