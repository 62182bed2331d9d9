package cmd

import (
	"os"
	"strconv"
)

// termWidth is the width the transcript is laid out for: $COLUMNS when
// set, the terminal's width when stdout is one, 100 columns otherwise.
func termWidth(ios *IOStreams) int {
	if n, err := strconv.Atoi(ios.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := ios.Out.(*os.File); ok && ios.OutTTY {
		if n := ttyWidth(f); n > 0 {
			return n
		}
	}
	return 100
}
