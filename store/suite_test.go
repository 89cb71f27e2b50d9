package store_test

import (
	"testing"

	"github.com/rhapsode/rhapsode/store/storetest"
)

// TestSuite holds the SQLite store to the contract every store keeps
// (storetest): each test on a database file of its own, opened by as many
// stores as the test asks for, as separate processes would.
func TestSuite(t *testing.T) {
	storetest.Run(t, sqlite)
}
