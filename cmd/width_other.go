//go:build !unix && !windows

package cmd

import "os"

// ttyWidth returns 0: the width of a terminal is not known here.
func ttyWidth(*os.File) int { return 0 }
