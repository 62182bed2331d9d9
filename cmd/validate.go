package cmd

import (
	"bufio"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/validate"
)

type validateOptions struct {
	in            inputOptions
	format        string
	maxChunkBytes int
}

func newValidateCmd(ios *IOStreams) *cobra.Command {
	o := &validateOptions{}
	c := &cobra.Command{
		Use:   "validate [INPUT...]",
		Short: "Check agent streams against their format's specification",
		Long: `Validate reads each INPUT (stdin when none is given), in its format (--from,
or detected), and reports every violation of the format's rules with a rule
id, a position and a message: --format text for people, json for machines,
github for GitHub Actions annotations.

Exit status: 0 valid, 1 violations, 2 unreadable input. The rules are listed
in docs/validate.md.`,
		Example: `  agentstream validate testdata/jsonenv/*.sse
  agentstream validate --format github recordings/*.sse`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			return runValidate(c.Context(), ios, o, args)
		},
	}
	fs := c.Flags()
	fs.StringVarP(&o.in.from, "from", "f", "auto", "input format (auto detects it; see 'agentstream formats')")
	fs.StringVar(&o.in.agent, "default-agent", "", "agent id for sources that carry none")
	addReadFlags(fs, &o.in, "")
	addMaxChunkBytesFlag(fs, &o.maxChunkBytes, usedBy(format.OptMaxChunkBytes)+": the envelope byte cap to check")
	fs.StringVar(&o.format, "format", validate.StyleText, "report format: "+strings.Join(validate.Styles(), ", "))
	addHTTPFlags(fs, &o.in.http)
	return c
}

func runValidate(ctx context.Context, ios *IOStreams, o *validateOptions, inputs []string) error {
	if !slices.Contains(validate.Styles(), o.format) {
		return failure(fmt.Errorf("--format must be text, json or github, not %q", o.format))
	}
	if err := checkMaxChunkBytes(o.maxChunkBytes); err != nil {
		return err
	}
	rep := newReporter(ios.Err, false)
	w := bufio.NewWriter(ios.Out)
	var results []validate.Result
	add := func(res validate.Result) error {
		results = append(results, res)
		if err := validate.WriteViolations(w, o.format, res.Violations); err != nil {
			return failure(err)
		}
		if err := w.Flush(); err != nil {
			return failure(err)
		}
		return nil
	}
	in := o.in
	// An empty input is a violation of its own, in the report.
	in.onEmpty = func(e *emptyError) error {
		return add(validate.Result{Name: e.name, Violations: []validate.Violation{validate.NoEvents(e.name, e.format, e.hint)}})
	}
	err := eachInput(ctx, ios, &in, rep, inputs, func(in *input) error {
		if err := checkUses(changedIn(o.in.fs), "--from "+in.format.Name, []convert.Format{in.format}, format.OptMaxChunkBytes); err != nil {
			return err
		}
		vs, err := validate.Check(in.r, &validate.Config{
			Source: in.name, Format: in.format.Format, NewDecoder: in.newDecoder, Hint: in.hint,
			MaxEventBytes: o.in.maxEventBytes, MaxChunkBytes: o.maxChunkBytes,
		})
		if err != nil {
			return failure(withName(in.name, err))
		}
		if in.foreign && len(vs) == 0 {
			vs = append(vs, validate.WrongFormat(in.name, in.format.Name, in.hint))
		}
		if vs == nil {
			vs = []validate.Violation{}
		}
		return add(validate.Result{Name: in.name, Format: in.format.Name, Valid: len(vs) == 0, Violations: vs})
	})
	if err != nil {
		w.Flush()
		return err
	}
	if err := validate.WriteSummary(w, o.format, results); err != nil {
		return failure(err)
	}
	if err := w.Flush(); err != nil {
		return failure(err)
	}
	for _, r := range results {
		if !r.Valid {
			return errNo
		}
	}
	return nil
}
