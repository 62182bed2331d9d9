//go:build unix

package main

import (
	"os"
	"runtime"
	"syscall"
)

// peakRSSKB returns the peak resident set size of a finished process in
// KiB, from getrusage (ru_maxrss: KiB on Linux, bytes on Darwin).
func peakRSSKB(ps *os.ProcessState) int64 {
	ru, ok := ps.SysUsage().(*syscall.Rusage)
	if !ok {
		return 0
	}
	if runtime.GOOS == "darwin" {
		return int64(ru.Maxrss) >> 10
	}
	return int64(ru.Maxrss)
}
