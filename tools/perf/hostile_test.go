package main

import (
	"bytes"
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/convert"
)

// fakeEnv makes the test binary stand in for agentstream (TestMain):
// validate exits 1, every other command 0, with one line of output.
const fakeEnv = "AGENTSTREAM_PERF_FAKE"

func TestMain(m *testing.M) {
	if os.Getenv(fakeEnv) != "" {
		fmt.Println(strings.Join(os.Args[1:], " "))
		if len(os.Args) > 1 && os.Args[1] == "validate" {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestHostileTable runs -hostile's table on inputs of a few agents,
// calls and choices, with the test binary as the command measured: a
// header, a row for each command with a cell for each input (peak RSS,
// CPU time, the exit code the command gave), and the closing line.
func TestHostileTable(t *testing.T) {
	t.Setenv(fakeEnv, "1")
	var out bytes.Buffer
	if err := hostile(options{bin: os.Args[0], runs: 2}, &out, 100_000); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	var want []string
	for _, to := range convert.Names(false) {
		want = append(want, "convert --to "+to)
	}
	want = append(want, "assemble -o text", "assemble -o json", "assemble -o html", "validate", "verify (itself)", "usage")
	if len(lines) != 4+len(want)+2 {
		t.Fatalf("%d lines, want %d:\n%s", len(lines), 4+len(want)+2, out.String())
	}
	if !strings.HasPrefix(lines[0], "machine: ") || lines[1] != "" {
		t.Errorf("head %q", lines[:2])
	}
	if h := "| command | `a1m.jsonl` | `calls1m.jsonl` | `choices200k.sse` |"; lines[2] != h || lines[3] != "| --- | --- | --- | --- |" {
		t.Errorf("table head %q, want %q", lines[2:4], h)
	}
	cell := `\d+ MB, \d+\.\d s, `
	var got []string
	for _, l := range lines[4 : 4+len(want)] {
		m := regexp.MustCompile("^\\| `([^`]+)` \\| " + cell + `(\d) \| ` + cell + `(\d) \| ` + cell + `(\d) \|$`).FindStringSubmatch(l)
		if m == nil {
			t.Errorf("row %q", l)
			continue
		}
		got = append(got, m[1])
		exit := "0"
		if m[1] == "validate" {
			exit = "1"
		}
		if !slices.Equal(m[2:], []string{exit, exit, exit}) {
			t.Errorf("row %q: exit codes %q, want %s", l, m[2:], exit)
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("rows %q, want %q", got, want)
	}
	if last := lines[len(lines)-1]; !strings.HasPrefix(last, "peak RSS, CPU time (user + system), exit code") || !strings.Contains(last, "over 64 MB (0)") {
		t.Errorf("last line %q", last)
	}
}
