package cmd

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/source/sessions"
	"github.com/agentstream/agentstream/usage"
	"github.com/agentstream/agentstream/validate"
	"github.com/agentstream/agentstream/verify"
)

// Shell completion of flag values. The completions are registered by flag
// name, once, by walking the command tree (registerCompletions), so a new
// command that takes --from, --to, --color, ... completes their values
// without registering anything itself. A flag whose value is free (a file,
// a duration, an id) has no entry and completes as cobra's default does
// (file names); complete_test.go fails on a string flag that is in neither
// list, so that a new enumerated flag cannot be forgotten.

// assembleViews are the values of assemble -o, in documentation order
// ("md" is accepted as well, as a short "markdown").
var assembleViews = []string{"text", "markdown", "json", "html"}

// usageGroupings are the values of usage --by.
var usageGroupings = []string{usage.ByRun, usage.ByModel, usage.ByDay, usage.ByAgent}

// framings are the values of convert --framing.
var framings = []string{"sse", "ndjson"}

// colorModes are the values of --color.
var colorModes = []string{"auto", "always", "never"}

// flagValues completes a flag's value on command c; it returns false when
// the flag's value is not enumerated on c (record -o is a file name, not a
// view).
type flagValues func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, bool)

// fixed completes with the values vs, whatever the command.
func fixed(vs func() []string) flagValues {
	return func(*cobra.Command, []string, string) ([]cobra.Completion, bool) { return vs(), true }
}

// completions lists the completion of every enumerated flag value, by flag
// name.
var completions = map[string]flagValues{
	"from":   readFormats,
	"from-a": readFormats,
	"from-b": readFormats,
	"to":     fixed(func() []string { return formatChoices(false) }),
	"output": func(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, bool) {
		return assembleViews, completes(c, "output")
	},
	"by":             fixed(func() []string { return usageGroupings }),
	"ignore":         ignoreNames,
	"format":         fixed(validate.Styles),
	"color":          fixed(func() []string { return colorModes }),
	"framing":        fixed(func() []string { return framings }),
	"tools-protocol": fixed(protocols),
	"xml-escaping":   fixed(func() []string { return xmlEscapings }),
	"cli":            fixed(sessions.CLIs),
	"agent": func(c *cobra.Command, _ []string, _ string) ([]cobra.Completion, bool) {
		return []string{"all\tevery agent", "main\tthe main agent only"}, completes(c, "agent")
	},
	"session": sessionIDs,
}

// completes reports whether flag name of c has enumerated values: every
// flag of completions does, but --output only on assemble (elsewhere it
// names a file), and --agent only where it selects agents (all, the
// default, main or an id: assemble; where it names the agent of sources
// that carry none it is free).
func completes(c *cobra.Command, name string) bool {
	switch name {
	case "output":
		return c.Name() == "assemble"
	case "agent":
		f := c.Flags().Lookup("agent")
		return f != nil && f.DefValue == "all"
	}
	return true
}

// readFormats completes an input format: auto and every format read.
func readFormats(*cobra.Command, []string, string) ([]cobra.Completion, bool) {
	return append([]string{"auto\tdetect the format"}, formatChoices(true)...), true
}

// formatChoices are the formats read (read true) or written, each with its
// description.
func formatChoices(read bool) []string {
	names := convert.Names(read)
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = n
		if f, ok := convert.Lookup(n); ok && f.Description != "" {
			out[i] += "\t" + f.Description
		}
	}
	return out
}

// ignoreNames completes --ignore, a comma-separated list: the names verify
// knows, after what is already typed.
func ignoreNames(_ *cobra.Command, _ []string, toComplete string) ([]cobra.Completion, bool) {
	done, _ := cutLast(toComplete, ",")
	var out []string
	for _, n := range append(verify.IgnoreNames(), verify.Fields()...) {
		if !slices.Contains(strings.Split(done, ","), n) {
			out = append(out, prefixed(done, n))
		}
	}
	return out, true
}

func cutLast(s, sep string) (before, after string) {
	if i := strings.LastIndex(s, sep); i >= 0 {
		return s[:i], s[i+len(sep):]
	}
	return "", s
}

func prefixed(done, n string) string {
	if done == "" {
		return n
	}
	return done + "," + n
}

// sessionIDRe finds the id in a session log's file name: Claude Code names
// the file after the session, Codex ends rollout-<time>-<id>.jsonl with
// the thread id.
var sessionIDRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$`)

// sessionIDs completes --session with the ids of the session logs in the
// directory and glob arguments already given, taken from the file names
// the CLIs give their logs: nothing when there are none.
func sessionIDs(_ *cobra.Command, args []string, _ string) ([]cobra.Completion, bool) {
	var dirs []string
	for _, a := range args {
		if a != "-" && !strings.Contains(a, "://") {
			dirs = append(dirs, a)
		}
	}
	if len(dirs) == 0 {
		return []string{}, true
	}
	paths, err := sessions.Expand(dirs, nil)
	if err != nil {
		return []string{}, true
	}
	var ids []string
	for _, p := range paths {
		if p == "" || slices.Contains(dirs, p) {
			continue // a file argument, not a session found in a directory
		}
		// A log named otherwise (a copied recording) is left out: its id
		// is inside, and only its file name is read here.
		id := sessionIDRe.FindString(strings.TrimSuffix(filepath.Base(p), ".jsonl"))
		if id != "" && !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	return ids, true
}

// registerCompletions registers the completion of every enumerated flag
// value of c and its subcommands.
func registerCompletions(c *cobra.Command) {
	register := func(f *pflag.Flag) {
		values, ok := completions[f.Name]
		if !ok || !completes(c, f.Name) {
			return
		}
		if _, exists := c.GetFlagCompletionFunc(f.Name); exists {
			return // inherited from a parent, or registered already
		}
		_ = c.RegisterFlagCompletionFunc(f.Name, func(c *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
			vs, _ := values(c, args, toComplete)
			d := cobra.ShellCompDirectiveNoFileComp
			if f.Name == "ignore" {
				d |= cobra.ShellCompDirectiveNoSpace
			}
			return vs, d
		})
	}
	c.LocalFlags().VisitAll(register)
	for _, sub := range c.Commands() {
		registerCompletions(sub)
	}
}
