package bot

import (
	"syscall"
	"time"
)

// threadCPU returns the processor time the calling thread has used, in
// user and kernel mode (Linux's RUSAGE_THREAD), or 0 if the system will
// not say.
func threadCPU() time.Duration {
	const rusageThread = 1
	var ru syscall.Rusage
	if err := syscall.Getrusage(rusageThread, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
