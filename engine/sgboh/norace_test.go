//go:build !race

package sgboh

// raceDetector is set when the tests run under the race detector.
const raceDetector = false
