//go:build !race

package bot

// raceDetector is set when the tests run under the race detector, which
// makes drawing pictures some thirty times slower.
const raceDetector = false
