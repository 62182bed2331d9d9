//go:build !unix

package main

import "os"

// peakRSSKB is 0 where getrusage is not available.
func peakRSSKB(*os.ProcessState) int64 { return 0 }
