//go:build !race

package render_test

// raceDetector says the tests run under the race detector, where
// drawing is some thirty times slower: the longer picture tests draw
// less.
const raceDetector = false
