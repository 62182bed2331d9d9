package cmd

import (
	"cmp"
	"context"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/render"
	"github.com/agentstream/agentstream/source/sessions"
	"github.com/agentstream/agentstream/usage"
)

// sessionOptions select among the session logs a directory or glob input
// stands for (package source/sessions).
type sessionOptions struct {
	since, until, session string
}

func addSessionFlags(fs *pflag.FlagSet, o *sessionOptions) {
	fs.StringVar(&o.since, "since", "", "directory or glob input: sessions written at or after this time (RFC 3339, YYYY-MM-DD, or a duration ago such as 36h)")
	fs.StringVar(&o.until, "until", "", "directory or glob input: sessions started at or before this time (as --since)")
	fs.StringVar(&o.session, "session", "", "directory or glob input: the session with this id (or id prefix)")
}

// expand turns directory and glob inputs into their session logs, oldest
// first; other inputs are kept as they are.
func (o *sessionOptions) expand(inputs []string) ([]string, error) {
	f := &sessions.Filter{Session: o.session}
	now := time.Now()
	for _, t := range []struct {
		flag, value string
		dst         *time.Time
	}{{"since", o.since, &f.Since}, {"until", o.until, &f.Until}} {
		if t.value == "" {
			continue
		}
		v, err := sessions.ParseTime(t.value, now)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", t.flag, err)
		}
		*t.dst = v
	}
	return sessions.Expand(inputs, f)
}

func newSessionsCmd(ios *IOStreams) *cobra.Command {
	o := &usageOptions{by: usage.BySession}
	c := &cobra.Command{
		Use:   "sessions [INPUT...]",
		Short: "List agent sessions, newest first, with their tokens and cost",
		Long: `Sessions lists the sessions in the INPUTs (as usage reads them; with none,
the session logs the agent CLIs keep in their default places), newest first:
the agent CLI, the project, the session id, the times of its first and last
model calls, its models, tokens and cost. Each model call is counted once, as
usage counts it; --since, --until, --session, --project, --cli and --agent
select the calls counted.`,
		Example: `  agentstream sessions
  agentstream sessions --since 7d --cli claude
  agentstream sessions --json ~/.codex/sessions | jq '.rows[0]'`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			return runSessions(c.Context(), ios, o, args)
		},
	}
	fs := c.Flags()
	addInputFlags(fs, &o.in)
	addUsageFilterFlags(fs, &o.filter)
	fs.BoolVar(&o.json, "json", false, "write the sessions as JSON")
	fs.StringVar(&o.prices, "prices", "", "price table to use instead of the embedded one (LiteLLM's JSON form, docs/usage.md)")
	return c
}

func runSessions(ctx context.Context, ios *IOStreams, o *usageOptions, args []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	rows, total, rep, err := usageRows(ctx, ios, o, args)
	if err != nil {
		return err
	}
	if o.json {
		err = writeUsageJSON(ios, rows, total)
	} else {
		err = writeSessionsTable(ios, rows)
	}
	if err != nil {
		return failure(err)
	}
	return rep()
}

func writeSessionsTable(ios *IOStreams, rows []usage.Row) error {
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "CLI\tPROJECT\tSESSION\tFIRST\tLAST\tMODELS\tMSGS\tINPUT\tOUTPUT\tCACHE WRITE\tCACHE READ\tCOST\n")
	when := func(t *time.Time) string {
		if t == nil {
			return "-"
		}
		return t.Format("2006-01-02 15:04")
	}
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", r.CLI, cmp.Or(r.Project, "-"), cmp.Or(r.Session, "-"),
			when(r.First), when(r.Last), cmp.Or(strings.Join(r.Models, ","), "-"), r.Messages,
			render.FormatCount(r.Input), render.FormatCount(r.Output), render.FormatCount(r.CacheWrite), render.FormatCount(r.CacheRead), costCell(r))
	}
	return tw.Flush()
}
