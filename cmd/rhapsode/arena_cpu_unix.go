//go:build unix

package main

import (
	"syscall"
	"time"
)

// cpuTime is the processor time the process has spent so far, user and
// system: with one game on one core at a time, what a decision costs that
// core, whatever else the machine runs.
func cpuTime() (time.Duration, bool) {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
