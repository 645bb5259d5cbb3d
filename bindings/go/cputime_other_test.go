//go:build !unix

package v4a

import "time"

// processCPU is not measured on this platform.
func processCPU() time.Duration { return 0 }

// processFaults is not measured on this platform.
func processFaults() int64 { return 0 }
