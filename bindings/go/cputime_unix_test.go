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
