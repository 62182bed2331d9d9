package cmd

import (
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/convert"
)

func newFormatsCmd(ios *IOStreams) *cobra.Command {
	return &cobra.Command{
		Use:     "formats",
		Short:   "List the formats agentstream reads and writes",
		Example: "  agentstream formats",
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(*cobra.Command, []string) error {
			return runFormats(ios)
		},
	}
}

func runFormats(ios *IOStreams) error {
	tw := tabwriter.NewWriter(ios.Out, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "FORMAT\tREAD\tWRITE\tDESCRIPTION")
	for _, f := range convert.Formats() {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", f.Name, yesNo(f.NewDecoder != nil), yesNo(f.NewEncoder != nil), f.Description)
	}
	return tw.Flush()
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}
