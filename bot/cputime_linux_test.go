package bot

import (
	"syscall"
	"time"
	"unsafe"
)

// threadCPU returns the processor time the calling thread has used, in
// user and kernel mode, or 0 if the system will not say. It reads the
// thread's CPU clock (CLOCK_THREAD_CPUTIME_ID), which counts up to the
// moment of the call. (Linux's RUSAGE_THREAD, read before, counts only
// up to the scheduler's last look at the thread, a tick or the last time
// it blocked: a reading taken after some computing and before a sync
// left that computing to whatever was timed next, so an append that
// followed the rules' work was charged with part of it.)
func threadCPU() time.Duration {
	const clockThreadCPUTime = 3
	var ts syscall.Timespec
	if _, _, errno := syscall.RawSyscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		return 0
	}
	return time.Duration(ts.Nano())
}
