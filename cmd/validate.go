package cmd

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/source"
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
	fs.IntVar(&o.in.maxEventBytes, "max-event-bytes", event.DefaultMaxBytes, "cap on one SSE message, NDJSON line or block, in bytes")
	fs.StringVar(&o.in.agent, "agent", "", "agent id for sources that carry none")
	fs.StringVar(&o.in.xmlEscaping, "xml-escaping", "auto", "xml input: escaping generation (auto, none, newline, full)")
	fs.IntVar(&o.maxChunkBytes, "max-chunk-bytes", validate.DefaultMaxChunkBytes, "jsonenv: the envelope byte cap to check")
	fs.StringVar(&o.format, "format", "text", "report format: text, json or github")
	addToolsFlags(fs, &o.in.tools)
	addHTTPFlags(fs, &o.in.http)
	return c
}

// validateInput is one input's outcome, as --format json writes it.
type validateInput struct {
	Name       string               `json:"name"`
	Format     string               `json:"format"`
	Valid      bool                 `json:"valid"`
	Violations []validate.Violation `json:"violations"`
}

func runValidate(ctx context.Context, ios *IOStreams, o *validateOptions, inputs []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	switch o.format {
	case "text", "json", "github":
	default:
		return failure(fmt.Errorf("--format must be text, json or github, not %q", o.format))
	}
	if o.in.maxEventBytes <= 0 {
		return failure(fmt.Errorf("--max-event-bytes must be positive, not %d", o.in.maxEventBytes))
	}
	if o.maxChunkBytes <= 0 {
		return failure(fmt.Errorf("--max-chunk-bytes must be positive, not %d", o.maxChunkBytes))
	}
	switch o.in.xmlEscaping {
	case "auto", "none", "newline", "full":
	default:
		return failure(fmt.Errorf("--xml-escaping must be auto, none, newline or full, not %q", o.in.xmlEscaping))
	}
	if o.in.from != "auto" {
		if f, ok := convert.Lookup(o.in.from); !ok || f.NewDecoder == nil {
			return failure(fmt.Errorf("unknown input format %q (one of %s)", o.in.from, strings.Join(convert.Names(true), ", ")))
		}
	}
	if err := o.in.tools.check(); err != nil {
		return failure(err)
	}
	sopts := o.in.source
	sopts.Stdin = ios.In
	sopts.MaxEventBytes = o.in.maxEventBytes
	if err := o.in.http.apply(&sopts, ios.In, inputs); err != nil {
		return failure(err)
	}
	if len(inputs) == 0 {
		inputs = []string{"-"}
	}
	rep := newReporter(ios.Err, false)
	w := bufio.NewWriter(ios.Out)
	var results []validateInput
	total := 0
	for _, name := range inputs {
		res, err := validateOne(ctx, o, &sopts, rep, name)
		if err != nil {
			w.Flush()
			return err
		}
		total += len(res.Violations)
		results = append(results, res)
		switch o.format {
		case "text":
			for _, v := range res.Violations {
				fmt.Fprintln(w, textViolation(v))
			}
		case "github":
			for _, v := range res.Violations {
				fmt.Fprintln(w, githubViolation(v))
			}
		}
		if err := w.Flush(); err != nil {
			return failure(err)
		}
	}
	switch o.format {
	case "text":
		if total == 0 {
			fmt.Fprintf(w, "valid: %d input%s\n", len(results), pluralS(len(results)))
		} else {
			fmt.Fprintf(w, "%d violation%s in %d input%s\n", total, pluralS(total), len(results), pluralS(len(results)))
		}
	case "json":
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			Valid  bool            `json:"valid"`
			Inputs []validateInput `json:"inputs"`
		}{total == 0, results}); err != nil {
			return failure(err)
		}
	}
	if err := w.Flush(); err != nil {
		return failure(err)
	}
	if total > 0 {
		return errNo
	}
	return nil
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// validateOne opens, detects and checks one input.
func validateOne(ctx context.Context, o *validateOptions, sopts *source.Options, rep *reporter, name string) (validateInput, error) {
	rc, err := source.Open(ctx, name, sopts)
	if err != nil {
		return validateInput{}, failure(err)
	}
	defer rc.Close()
	br := bufio.NewReaderSize(rc, 64<<10)
	var f convert.Format
	if o.in.from == "auto" {
		var guessed bool
		f, guessed, err = convert.Detect(br)
		if err != nil {
			return validateInput{}, failure(withName(name, err))
		}
		if guessed {
			rep.note("%s: guessed input format %s (use --from to choose)", name, f.Name)
		}
	} else {
		f, _ = convert.Lookup(o.in.from)
	}
	co := o.in.decodeOptions(name, func(error) {})
	if _, err := o.in.tools.wrap(f, nil, co); err != nil {
		return validateInput{}, failure(fmt.Errorf("%s: %w", name, err))
	}
	vs, err := validate.Check(br, &validate.Config{
		Source: name, Format: f.Name, MaxEventBytes: o.in.maxEventBytes, MaxChunkBytes: o.maxChunkBytes,
		NewDecoder: func(r io.Reader) event.Decoder {
			dec, _ := o.in.tools.wrap(f, f.NewDecoder(r, co), co) // checked above
			return dec
		},
	})
	if err != nil {
		return validateInput{}, failure(withName(name, err))
	}
	if vs == nil {
		vs = []validate.Violation{}
	}
	return validateInput{Name: name, Format: f.Name, Valid: len(vs) == 0, Violations: vs}, nil
}

// textViolation is NAME:LINE:COL: RULE name: message.
func textViolation(v validate.Violation) string {
	at := v.Source
	if v.Line > 0 {
		at += ":" + strconv.Itoa(v.Line)
		if v.Column > 0 {
			at += ":" + strconv.Itoa(v.Column)
		}
	}
	return at + ": " + v.Rule + " " + v.Name + ": " + v.Message
}

// githubViolation is a GitHub Actions error annotation.
func githubViolation(v validate.Violation) string {
	props := "file=" + ghProperty(v.Source)
	if v.Line > 0 {
		props += ",line=" + strconv.Itoa(v.Line)
		if v.Column > 0 {
			props += ",col=" + strconv.Itoa(v.Column)
		}
	}
	props += ",title=" + ghProperty(v.Rule+" "+v.Name)
	return "::error " + props + "::" + ghData(v.Message)
}

// ghData and ghProperty escape as the Actions toolkit does.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
