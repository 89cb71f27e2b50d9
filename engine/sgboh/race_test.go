//go:build race

package sgboh

// raceDetector is set when the tests run under the race detector, which
// makes whole battles of the larger scenarios take minutes.
const raceDetector = true
