package render_test

import (
	"syscall"
	"time"
)

// processCPU returns the processor time the whole process has used so
// far, on every thread, in user and kernel mode (RUSAGE_SELF). The
// renderer paints, maps and compresses a picture on several threads at
// once, so one thread's time would miss most of its work.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
