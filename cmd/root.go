package cmd

import (
	"github.com/spf13/cobra"
)

func newRootCmd(ios *IOStreams) *cobra.Command {
	root := &cobra.Command{
		Use:   "agentstream",
		Short: "Read, convert, assemble and check AI agent event streams",
		Long: `agentstream reads the event streams AI agents produce (the JSON envelope,
the legacy XML stream, Claude Code stream-json, raw Anthropic SSE, Codex
exec --json, ...) from files, stdin or SSE URLs, and converts them, prints
their assembled blocks, and checks them.

Run 'agentstream formats' for the formats it knows.`,
		Example: `  agentstream convert testdata/jsonenv/tooluse.sse --to jsonenv --framing ndjson
  agentstream assemble testdata/jsonenv/tooluse.sse`,
		Version:       version(),
		SilenceErrors: true,
		SilenceUsage:  true,
	}
	root.SetIn(ios.In)
	root.SetOut(ios.Out)
	root.SetErr(ios.Err)
	root.SetFlagErrorFunc(func(_ *cobra.Command, err error) error { return failure(err) })
	root.AddCommand(
		newConvertCmd(ios),
		newAssembleCmd(ios),
		newFormatsCmd(ios),
		newVerifyCmd(ios),
		newValidateCmd(ios),
		newRecordCmd(ios),
		newReplayCmd(ios),
		newUsageCmd(ios),
		newSessionsCmd(ios),
		newKafkaCmd(ios),
	)
	return root
}

// usageArgs wraps a cobra.PositionalArgs so that its error exits 2.
func usageArgs(check cobra.PositionalArgs) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := check(cmd, args); err != nil {
			return failure(err)
		}
		return nil
	}
}
