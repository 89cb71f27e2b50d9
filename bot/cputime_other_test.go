//go:build !linux

package bot

import "time"

// threadCPU would return the calling thread's processor time; only Linux
// says it, and elsewhere the benchmarks report 0.
func threadCPU() time.Duration { return 0 }
