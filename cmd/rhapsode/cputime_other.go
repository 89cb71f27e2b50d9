//go:build !linux

package main

import "time"

// threadCPU falls back to the wall clock where the thread's processor
// time is not at hand.
func threadCPU() time.Duration { return wallClock() }
