//go:build unix

package v4a

import (
	"syscall"
	"time"
)

// processCPU is the CPU time (user + system) of the whole process, every thread included
// (the garbage collector's too).
func processCPU() time.Duration {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return time.Duration(r.Utime.Nano() + r.Stime.Nano())
}

// processFaults is the number of page faults of the process so far (minor and major): a
// block of memory the process had given back to the kernel faults again when reused.
func processFaults() int64 {
	var r syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &r) != nil {
		return 0
	}
	return int64(r.Minflt + r.Majflt)
}
