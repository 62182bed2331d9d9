package verify

import (
	"bufio"
	"errors"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/assemble/assembletest"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/source/sessions"
)

// readAs decodes and assembles a file through the format table.
func readAs(t *testing.T, path string) Side {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return readString(t, path, string(b))
}

// readString decodes and assembles a stream through the format table.
func readString(t *testing.T, path, stream string) Side {
	t.Helper()
	br := bufio.NewReader(strings.NewReader(stream))
	f, _, err := convert.Detect(br)
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	dec := f.NewDecoder(br, &format.Options{Source: path, Subagent: sessions.Subagents(path)})
	asm := assemble.New(0)
	s := Side{Name: path, Format: f.Name, Lacks: f.Lacks}
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if errors.As(err, &perr) {
				t.Errorf("%v", err)
				continue
			}
			t.Fatal(err)
		}
		bs, err := asm.Add(ev)
		if err != nil {
			t.Fatal(err)
		}
		s.Blocks = append(s.Blocks, bs...)
	}
	s.Blocks = append(s.Blocks, asm.Flush()...)
	return s
}

// TestCorpusPairs is the acceptance: the same run as the legacy XML stream
// and as the JSON envelope, both written by the reference producer,
// verifies equal.
func TestCorpusPairs(t *testing.T) {
	t.Parallel()
	if _, ok := convert.Lookup("xml"); !ok {
		t.Skip("no xml format yet")
	}
	files, err := filepath.Glob("../testdata/xml/*.sse")
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, x := range files {
		name := filepath.Base(x)
		env := filepath.Join("../testdata/jsonenv", name)
		if strings.Count(name, ".") > 1 {
			continue // older producer generations: no meta_init, lossy escaping
		}
		if _, err := os.Stat(env); err != nil {
			continue
		}
		n++
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := Compare(readAs(t, x), readAs(t, env), nil)
			if !r.Equal {
				t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
			}
		})
	}
	if n == 0 {
		t.Error("no pairs")
	}
}

// TestCorpusMutations: each single mutation of the envelope stream is
// reported against the XML stream of the same run, at the right place.
func TestCorpusMutations(t *testing.T) {
	t.Parallel()
	if _, ok := convert.Lookup("xml"); !ok {
		t.Skip("no xml format yet")
	}
	xml := readAs(t, "../testdata/xml/tooluse.sse")
	orig := read(t, "tooluse.sse")
	toolResult := `data: {"type":"tool_result","agent":"` + main1 + `","final":true,"delta":"hello","id":"toolu_019thJkgIewkUrqlQ62qLSu7","name":"Bash"}` + "\n\n"
	thinking := orig[strings.Index(orig, `data: {"type":"thinking"`):strings.Index(orig, msgA)]
	tests := []struct {
		name   string
		mutate func(*testing.T, string) string
		want   []string
	}{
		{"equal", func(_ *testing.T, s string) string { return s }, nil},
		{
			"one character of text",
			func(t *testing.T, s string) string { return replace(t, s, `"delta":" you."`, `"delta":" you!"`) },
			[]string{`agent 1 (main) block 2 (text) field text at char 28: "I'll run the command for you." != "I'll run the command for you!"`},
		},
		{
			"dropped block",
			func(t *testing.T, s string) string { return replace(t, s, toolResult, "") },
			[]string{`agent 1 (main) block 4 (tool_result): only in A`},
		},
		{
			"changed tool input value",
			func(t *testing.T, s string) string {
				return replace(t, s, `"delta":"{\"command\": \"echo hello`, `"delta":"{\"command\": \"echo hullo`)
			},
			[]string{`agent 1 (main) block 3 (tool_call) field input.command at char 6: "echo hello" != "echo hullo"`},
		},
		{
			"reordered block",
			func(t *testing.T, s string) string {
				s = replace(t, s, thinking, "")
				return replace(t, s, toolResult, toolResult+thinking)
			},
			[]string{`agent 1 (main) block 1 (thinking): moved to block 4 in B`},
		},
		{
			"changed agent",
			func(t *testing.T, s string) string {
				return replace(t, s, toolResult, strings.Replace(toolResult, main1, "other-agent", 1))
			},
			[]string{`agent 1 (main) block 4 (tool_result): only in A`, `agent 2 (subagent): only in B`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := Compare(xml, readString(t, "b.sse", tt.mutate(t, orig)), nil)
			if diff := cmp.Diff(tt.want, lines(r)); diff != "" {
				t.Errorf("differences (-want +got):\n%s", diff)
			}
		})
	}
}

// convertTo re-encodes stream (in format from) as format to.
func convertTo(t *testing.T, stream string, from, to convert.Format) string {
	t.Helper()
	var out strings.Builder
	dec := from.NewDecoder(strings.NewReader(stream), &format.Options{})
	enc := to.NewEncoder(&out, &format.Options{})
	if err := convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(error) bool { return true }}); err != nil {
		t.Fatalf("convert %s to %s: %v", from.Name, to.Name, err)
	}
	enc.Close() // what it reports (blocks left open) is the input's
	return out.String()
}

// TestConversions: every recording verifies equal against its conversion
// to the JSON envelope and to its own format, given what each lacks.
func TestConversions(t *testing.T) {
	t.Parallel()
	for _, from := range convert.Formats() {
		if from.NewDecoder == nil {
			continue
		}
		files, _ := filepath.Glob(filepath.Join("../testdata", from.Name, "*"))
		for _, path := range files {
			switch filepath.Ext(path) {
			case ".sse", ".jsonl", ".json", ".txt":
			default:
				continue // documentation, golden events, tool lists
			}
			if strings.HasSuffix(path, ".tools.json") || strings.Contains(filepath.Base(path), "hand-bad") {
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, to := range convert.Formats() {
				// The envelope (the migration's target) and the format
				// itself: conversions to others rename tools and regenerate
				// ids, which no field list describes.
				if to.NewEncoder == nil || (to.Name != "jsonenv" && to.Name != from.Name) {
					continue
				}
				name := from.Name + "/" + filepath.Base(path) + "/" + to.Name
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					a := readSideQuiet(t, path, string(b), from)
					c := readSideQuiet(t, "converted", convertTo(t, string(b), from, to), to)
					if r := Compare(a, c, nil); !r.Equal {
						t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
					}
				})
			}
		}
	}
}

// readSideQuiet decodes a stream in a known format, skipping problems.
func readSideQuiet(t *testing.T, name, stream string, f convert.Format) Side {
	t.Helper()
	dec := f.NewDecoder(strings.NewReader(stream), &format.Options{Source: name})
	return Side{Name: name, Format: f.Name, Lacks: f.Lacks, Blocks: assembletest.Blocks(t, dec)}
}

// runSpecific matches what differs between two runs of one Claude Code
// scenario whatever the output mode: the model server's port, the
// subagents' ids and the durations. (The scratch directory, named after
// the scenario, is renamed in the whole recording: in the partial one,
// deltas may split it.)
var runSpecific = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`127\.0\.0\.1:\d+`), "127.0.0.1:PORT"},
	{regexp.MustCompile(`\ba[0-9a-f]{16}\b`), "AGENTID"},
	{regexp.MustCompile(`((?:totalDurationMs|duration_ms|duration_api_ms)(?:\\?":\s*|: ))\d+`), "${1}0"},
}

// TestClaudePartialPairs: each scenario recorded by Claude Code with and
// without --include-partial-messages verifies equal (agent ids aside, and
// what differs between two runs), retries and abandoned streams included.
func TestClaudePartialPairs(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("../testdata/claude/partial-*.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no partial Claude recordings")
	}
	read := func(t *testing.T, path string, rename *strings.Replacer) Side {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		s := rename.Replace(string(b))
		for _, r := range runSpecific {
			s = r.re.ReplaceAllString(s, r.with)
		}
		return readString(t, path, s)
	}
	for _, partial := range files {
		whole := filepath.Join(filepath.Dir(partial), strings.TrimPrefix(filepath.Base(partial), "partial-"))
		t.Run(filepath.Base(whole), func(t *testing.T) {
			t.Parallel()
			x := strings.TrimSuffix(filepath.Base(whole), ".jsonl")
			a := read(t, whole, strings.NewReplacer("claude-"+x, "claude-partial-"+x))
			b := read(t, partial, strings.NewReplacer())
			r := Compare(a, b, &Options{Ignore: []string{IgnoreAgentIDs}})
			if !r.Equal {
				t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
			}
			if r.A.Blocks == 0 {
				t.Errorf("%s: no block compared", whole)
			}
		})
	}
}

// TestSessionLogPairs: the stdout and the session log the same real Claude
// Code or Codex process wrote (../shared/corpus/sessions/, and the copies in
// testdata/) verify equal with nothing ignored: what one side's format
// cannot carry is not compared, never a difference.
func TestSessionLogPairs(t *testing.T) {
	t.Parallel()
	type pair struct{ stdout, log string }
	var pairs []pair
	logs, _ := filepath.Glob("../../shared/corpus/sessions/*.session.jsonl")
	for _, log := range logs {
		pairs = append(pairs, pair{strings.TrimSuffix(log, ".session.jsonl") + ".jsonl", log})
	}
	stdouts, _ := filepath.Glob("../testdata/sessions/*.jsonl")
	for _, stdout := range stdouts {
		run := strings.TrimSuffix(filepath.Base(stdout), ".jsonl")
		agent, _, _ := strings.Cut(run, "-")
		log := filepath.Join("../testdata", agent+"-session", run+".session.jsonl")
		if _, err := os.Stat(log); err == nil {
			pairs = append(pairs, pair{stdout, log})
		}
	}
	if len(pairs) == 0 {
		t.Fatal("no session log pairs")
	}
	for _, p := range pairs {
		t.Run(p.log, func(t *testing.T) {
			t.Parallel()
			r := Compare(readAs(t, p.stdout), readAs(t, p.log), nil)
			if !r.Equal {
				t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
			}
			if r.A.Blocks == 0 {
				t.Errorf("%s: no block compared", p.stdout)
			}
		})
	}
}
