package cmd

import (
	"fmt"

	"github.com/spf13/pflag"
)

// colorMode is the --color flag: auto, always or never.
type colorMode string

func (c *colorMode) String() string { return string(*c) }
func (c *colorMode) Type() string   { return "when" }
func (c *colorMode) Set(s string) error {
	switch s {
	case "auto", "always", "never":
		*c = colorMode(s)
		return nil
	}
	return fmt.Errorf("must be auto, always or never")
}

func addColorFlag(fs *pflag.FlagSet, c *colorMode) {
	*c = "auto"
	fs.Var(c, "color", "colour output: auto (when stdout is a terminal and NO_COLOR/TERM=dumb are unset), always, never")
}

// enabled decides colour for the command's output stream.
func (c colorMode) enabled(ios *IOStreams) bool {
	switch c {
	case "always":
		return true
	case "never":
		return false
	}
	if ios.Getenv("NO_COLOR") != "" || ios.Getenv("TERM") == "dumb" {
		return false
	}
	return ios.OutTTY
}
