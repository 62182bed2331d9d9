package cmd

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/render"
	"github.com/agentstream/agentstream/source"
	"github.com/agentstream/agentstream/usage"
)

type usageOptions struct {
	in     inputOptions
	by     string
	json   bool
	csv    bool
	prices string
	follow followOptions
}

func newUsageCmd(ios *IOStreams) *cobra.Command {
	o := &usageOptions{}
	c := &cobra.Command{
		Use:   "usage [INPUT...]",
		Short: "Count the tokens and the cost of agent runs",
		Long: `Usage reads each INPUT (files, globs, directories walked recursively, - for
stdin, URLs; stdin when none is given), in any format, and prints the tokens
and the cost of the runs, grouped --by run (each input), model, day or agent.

Tokens are counted once per model message (the last usage of a message id
wins), with input, output, cache write, cache read and reasoning apart. The
cost is the stream's own where it reports one, otherwise it is priced from a
table embedded in the binary, or from --prices FILE. A model without a price
is listed as unpriced, never counted as free. docs/usage.md says where each
number comes from.

In a directory, files that hold no agent stream are skipped with a note.`,
		Example: `  agentstream usage ~/runs/
  agentstream usage --by model 'runs/*.jsonl'
  agentstream usage --by day --csv runs/ > usage.csv
  agentstream usage --prices my-prices.json --json run.jsonl`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			return runUsage(c.Context(), ios, o, args)
		},
	}
	fs := c.Flags()
	addInputFlags(fs, &o.in)
	fs.StringVar(&o.by, "by", usage.ByRun, "group by run, model, day or agent")
	fs.BoolVar(&o.json, "json", false, "write the rows as JSON")
	fs.BoolVar(&o.csv, "csv", false, "write the rows as CSV")
	fs.StringVar(&o.prices, "prices", "", "pricing table to use instead of the embedded one (JSON, docs/usage.md)")
	o.in.follow = &o.follow
	addFollowFlags(fs, &o.follow)
	return c
}

// usageInput is one input to read; walked: found in a directory, where a
// file that is no agent stream is skipped.
type usageInput struct {
	name   string
	walked bool
}

// expandInputs turns the command line's inputs into the files to read:
// directories walked in lexical order (hidden directories, such as .git,
// skipped), globs the shell left alone expanded.
func expandInputs(args []string) ([]usageInput, error) {
	if len(args) == 0 {
		return []usageInput{{name: "-"}}, nil
	}
	var out []usageInput
	walk := func(dir string) error {
		return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				out = append(out, usageInput{name: p, walked: true})
			}
			return nil
		})
	}
	for _, a := range args {
		if a == "-" || source.IsURL(a) {
			out = append(out, usageInput{name: a})
			continue
		}
		names := []string{a}
		if _, err := os.Stat(a); err != nil && strings.ContainsAny(a, "*?[") {
			m, gerr := filepath.Glob(a)
			if gerr != nil {
				return nil, fmt.Errorf("%s: %w", a, gerr)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("%s: no file matches", a)
			}
			names = m
		}
		for _, n := range names {
			if st, err := os.Stat(n); err == nil && st.IsDir() {
				if err := walk(n); err != nil {
					return nil, err
				}
				continue
			}
			out = append(out, usageInput{name: n})
		}
	}
	return out, nil
}

func runUsage(ctx context.Context, ios *IOStreams, o *usageOptions, args []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.json && o.csv {
		return failure(errors.New("--json and --csv cannot be used together"))
	}
	switch o.by {
	case usage.ByRun, usage.ByModel, usage.ByDay, usage.ByAgent:
	default:
		return failure(fmt.Errorf("--by must be run, model, day or agent, not %q", o.by))
	}
	prices, err := loadPrices(o.prices)
	if err != nil {
		return failure(err)
	}
	inputs, err := expandInputs(args)
	if err != nil {
		return failure(err)
	}
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = in.name
	}
	ctx, stop, err := o.follow.start(ctx, names)
	if err != nil {
		return err
	}
	defer stop()
	rep := newReporter(ios.Err, o.in.strict)
	var runs []usage.Run
	failed := false
	for _, in := range inputs {
		err := eachInput(ctx, ios, &o.in, rep, []string{in.name}, func(in *input) error {
			name, dec := in.name, in.decoder()
			c := usage.NewCounter()
			stop := eachEvent(dec, rep, func(ev event.Event) error {
				c.Add(ev)
				return nil
			})
			r := c.Run()
			r.Name, r.Day = name, fileDay(name)
			// An input without a single event is no run (an empty file).
			if r.Events > 0 {
				runs = append(runs, r)
			} else {
				rep.note("%s: skipped: no events", name)
			}
			return readError(stop)
		})
		var ue *unreadableError
		switch {
		case err == nil:
		case in.walked && errors.As(err, &ue) && errors.Is(ue.err, convert.ErrUnknownFormat):
			rep.note("%s: skipped: not an agent stream", in.name)
		case errors.As(err, &ue) && !o.in.strict && len(inputs) > 1:
			rep.note("%v", ue.err)
			failed = true
		default:
			return err
		}
	}
	if len(runs) == 0 {
		return failure(errors.New("no agent stream in the inputs"))
	}
	rows, total, err := usage.Report(runs, o.by, prices)
	if err != nil {
		return failure(err)
	}
	switch {
	case o.json:
		err = writeUsageJSON(ios, rows, total)
	case o.csv:
		err = writeUsageCSV(ios, o.by, rows)
	default:
		err = writeUsageTable(ios, o.by, rows, total)
	}
	if err != nil {
		return failure(err)
	}
	if failed {
		return &exitError{code: ExitFailure}
	}
	return rep.result()
}

func loadPrices(name string) (*usage.Prices, error) {
	if name == "" {
		return usage.Default()
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := usage.ReadPrices(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

// fileDay is the day a run is counted on: the file's modification day in
// UTC (the streams carry no time of their own); "" for stdin and URLs.
func fileDay(name string) string {
	if name == "-" || source.IsURL(name) {
		return ""
	}
	st, err := os.Stat(name)
	if err != nil {
		return ""
	}
	return st.ModTime().UTC().Format("2006-01-02")
}

func writeUsageJSON(ios *IOStreams, rows []usage.Row, total usage.Row) error {
	if rows == nil {
		rows = []usage.Row{}
	}
	enc := json.NewEncoder(ios.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Rows  []usage.Row `json:"rows"`
		Total usage.Row   `json:"total"`
	}{rows, total})
}

var usageColumns = []string{"runs", "messages", "input", "output", "cache_write", "cache_read", "reasoning", "cost_usd", "cost_source", "unpriced_models"}

func usageCells(r usage.Row) []string {
	cost := ""
	if r.CostUSD != nil {
		cost = strconv.FormatFloat(*r.CostUSD, 'f', 6, 64)
	}
	return []string{
		strconv.Itoa(r.Runs), strconv.Itoa(r.Messages),
		strconv.FormatInt(r.Input, 10), strconv.FormatInt(r.Output, 10),
		strconv.FormatInt(r.CacheWrite, 10), strconv.FormatInt(r.CacheRead, 10),
		strconv.FormatInt(r.Reasoning, 10), cost, r.CostSource, strings.Join(r.Unpriced, ";"),
	}
}

func writeUsageCSV(ios *IOStreams, by string, rows []usage.Row) error {
	w := csv.NewWriter(ios.Out)
	if err := w.Write(append([]string{by}, usageColumns...)); err != nil {
		return err
	}
	for _, r := range rows {
		if err := w.Write(append([]string{r.Key}, usageCells(r)...)); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

func writeUsageTable(ios *IOStreams, by string, rows []usage.Row, total usage.Row) error {
	// Numbers right-aligned, the key column left-aligned (padded here,
	// since tabwriter aligns every column alike).
	w := len(by)
	for _, r := range append(rows, total) {
		w = max(w, utf8.RuneCountInString(r.Key))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", w-utf8.RuneCountInString(s)) }
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tRUNS\tMSGS\tINPUT\tOUTPUT\tCACHE WRITE\tCACHE READ\tREASONING\tCOST\t\n", pad(strings.ToUpper(by)))
	line := func(r usage.Row) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", pad(r.Key), r.Runs, r.Messages,
			render.FormatCount(r.Input), render.FormatCount(r.Output), render.FormatCount(r.CacheWrite), render.FormatCount(r.CacheRead), render.FormatCount(r.Reasoning), costCell(r))
	}
	for _, r := range rows {
		line(r)
	}
	if len(rows) > 1 {
		line(total)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(total.Unpriced) > 0 {
		_, err := fmt.Fprintf(ios.Out, "* leaves out models without a price: %s\n", strings.Join(total.Unpriced, ", "))
		return err
	}
	return nil
}

// costCell shows a cost: "-" when nothing was priced, a * when unpriced
// models are left out, "(table)" when it was priced from the table.
func costCell(r usage.Row) string {
	if r.CostUSD == nil {
		if len(r.Unpriced) > 0 {
			return "unpriced*"
		}
		return "-"
	}
	s := "$" + strconv.FormatFloat(*r.CostUSD, 'f', 4, 64)
	switch r.CostSource {
	case usage.SourceTable:
		s += " (table)"
	case usage.SourceMixed:
		s += " (stream+table)"
	}
	if len(r.Unpriced) > 0 {
		s += "*"
	}
	return s
}
