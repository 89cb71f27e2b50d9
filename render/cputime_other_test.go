//go:build !linux

package render_test

import "time"

// processCPU would return the process's processor time; only Linux is
// asked here, and elsewhere the processor-time figures read 0.
func processCPU() time.Duration { return 0 }
