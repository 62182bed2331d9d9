//go:build windows

package cmd

import (
	"os"

	"golang.org/x/sys/windows"
)

// ttyWidth returns the width of the console f, 0 when unknown.
func ttyWidth(f *os.File) int {
	var info windows.ConsoleScreenBufferInfo
	if err := windows.GetConsoleScreenBufferInfo(windows.Handle(f.Fd()), &info); err != nil {
		return 0
	}
	return int(info.Window.Right-info.Window.Left) + 1
}
