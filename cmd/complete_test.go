package cmd

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/validate"
	"github.com/agentstream/agentstream/verify"
)

// complete runs `agentstream __complete args...` as a shell's completion
// script does, and returns the values offered (descriptions cut off) and
// the directive line.
func complete(t *testing.T, args ...string) ([]string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	ios := &IOStreams{In: strings.NewReader(""), Out: &out, Err: &errb}
	if code := Run(context.Background(), append([]string{cobra.ShellCompRequestCmd}, args...), ios); code != 0 {
		t.Fatalf("__complete %q: exit %d: %s", args, code, errb.String())
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	directive := lines[len(lines)-1]
	values := []string{}
	for _, l := range lines[:len(lines)-1] {
		v, _, _ := strings.Cut(l, "\t")
		values = append(values, v)
	}
	return values, directive
}

func TestCompleteValues(t *testing.T) {
	t.Parallel()
	reads := append([]string{"auto"}, convert.Names(true)...)
	writes := convert.Names(false)
	noFile := ":4" // cobra.ShellCompDirectiveNoFileComp
	tests := []struct {
		args []string
		want []string
	}{
		{[]string{"convert", "--to", ""}, writes},
		{[]string{"convert", "-t", ""}, writes},
		{[]string{"convert", "--from", ""}, reads},
		{[]string{"assemble", "--from", ""}, reads},
		{[]string{"usage", "--from", ""}, reads},
		{[]string{"validate", "--from", ""}, reads},
		{[]string{"verify", "--from-a", ""}, reads},
		{[]string{"verify", "--from-b", ""}, reads},
		{[]string{"replay", "--to", ""}, writes},
		{[]string{"assemble", "-o", ""}, assembleViews},
		{[]string{"assemble", "--output", ""}, assembleViews},
		{[]string{"assemble", "--agent", ""}, []string{"all", "main"}},
		{[]string{"usage", "--by", ""}, usageGroupings},
		{[]string{"verify", "--ignore", ""}, append(verify.IgnoreNames(), verify.Fields()...)},
		{[]string{"validate", "--format", ""}, validate.Styles()},
		{[]string{"assemble", "--color", ""}, colorModes},
		{[]string{"convert", "--framing", ""}, framings},
		{[]string{"convert", "--tools-protocol", ""}, protocols()},
		{[]string{"assemble", "--tools-protocol", ""}, protocols()},
		{[]string{"convert", "--xml-escaping", ""}, xmlEscapings},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			t.Parallel()
			got, directive := complete(t, tt.args...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("values (-want +got):\n%s", diff)
			}
			if !strings.HasPrefix(directive, ":") || directive == ":0" {
				t.Errorf("directive %q: want no file completion", directive)
			}
			if tt.args[1] != "--ignore" && directive != noFile {
				t.Errorf("directive %q, want %q", directive, noFile)
			}
		})
	}
}

func TestCompleteIgnoreList(t *testing.T) {
	t.Parallel()
	got, directive := complete(t, "verify", "--ignore", "ids,thinking,")
	if slices.Contains(got, "ids,thinking,ids") || !slices.Contains(got, "ids,thinking,meta") {
		t.Errorf("--ignore ids,thinking,<TAB> offered %q", got)
	}
	if directive != ":6" { // NoSpace | NoFileComp
		t.Errorf("directive %q, want :6", directive)
	}
}

// A record -o and an --agent that names a default agent are free values:
// files are completed there, not views or agent filters.
func TestCompleteFreeValues(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{{"record", "-o", ""}, {"convert", "--agent", ""}} {
		got, directive := complete(t, args...)
		if len(got) != 0 || directive != ":0" {
			t.Errorf("%q: got %q %s, want file completion", args, got, directive)
		}
	}
}

// --session completes the ids of the session logs in the directories given.
func TestCompleteSessionIDs(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	claude := filepath.Join(dir, "claude", "-home-dev-app")
	codex := filepath.Join(dir, "codex", "2026", "11", "23")
	copyFile(t, "../testdata/claude-session/claude-plain-text.session.jsonl", filepath.Join(claude, "f0dd6784-bc37-4290-85d8-508ded31e9b7.jsonl"))
	copyFile(t, "../testdata/codex-session/codex-plain.session.jsonl", filepath.Join(codex, "rollout-2026-11-23T19-43-53-01a209ef-b308-75a1-8235-deee526c0742.jsonl"))
	got, directive := complete(t, "assemble", filepath.Join(dir, "claude"), filepath.Join(dir, "codex"), "--session", "")
	want := []string{"f0dd6784-bc37-4290-85d8-508ded31e9b7", "01a209ef-b308-75a1-8235-deee526c0742"}
	slices.Sort(got)
	slices.Sort(want)
	if diff := cmp.Diff(want, got); diff != "" || directive != ":4" {
		t.Errorf("--session %s (-want +got):\n%s", directive, diff)
	}
	if got, _ := complete(t, "assemble", "--session", ""); len(got) != 0 {
		t.Errorf("--session without a directory offered %q", got)
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Dir(to), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// freeFlags are the string flags whose values are not enumerated: files,
// addresses, times, ids, text. Every other string flag of every command
// must complete its values (completions), so that a new flag with a fixed
// set of values cannot be added without them.
var freeFlags = []string{
	"agent", "data", "default-agent", "header", "method", "nonce", "output", "prices", "since", "until",
	"serve", "timing", "tools", "tools-file",
	"brokers", "group", "in", "out", "problems", // kafka: addresses and topic and group names
	"fixtures", "project", "timezone",
}

func TestEveryEnumeratedFlagCompletes(t *testing.T) {
	t.Parallel()
	root := newRootCmd(&IOStreams{In: strings.NewReader(""), Out: &bytes.Buffer{}, Err: &bytes.Buffer{}})
	registerCompletions(root)
	walk(root, func(c *cobra.Command) {
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			if f.Value.Type() != "string" && f.Value.Type() != "stringSlice" && f.Value.Type() != "when" {
				return
			}
			if _, ok := c.GetFlagCompletionFunc(f.Name); ok || slices.Contains(freeFlags, f.Name) {
				return
			}
			t.Errorf("%s --%s: a string flag with no value completion (add it to completions in complete.go, or to freeFlags here if its value is free)", c.CommandPath(), f.Name)
		})
	})
}

func walk(c *cobra.Command, fn func(*cobra.Command)) {
	fn(c)
	for _, sub := range c.Commands() {
		walk(sub, fn)
	}
}
