package cmd

import (
	"os"
	"strconv"

	"golang.org/x/sys/unix"
)

// termWidth is the width the transcript is laid out for: $COLUMNS when
// set, the terminal's width when stdout is one, 100 columns otherwise.
func termWidth(ios *IOStreams) int {
	if n, err := strconv.Atoi(ios.Getenv("COLUMNS")); err == nil && n > 0 {
		return n
	}
	if f, ok := ios.Out.(*os.File); ok && ios.OutTTY {
		if ws, err := unix.IoctlGetWinsize(int(f.Fd()), unix.TIOCGWINSZ); err == nil && ws.Col > 0 {
			return int(ws.Col)
		}
	}
	return 100
}
