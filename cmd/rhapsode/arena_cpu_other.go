//go:build !unix

package main

import "time"

// cpuTime is not read where the system does not report it.
func cpuTime() (time.Duration, bool) { return 0, false }
