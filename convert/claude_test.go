package convert

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Tests of the claude and anthropic formats against each other and the
// rest of the table: the recordings of one run in several formats must
// assemble to the same blocks.

const (
	claudeDir    = "../testdata/claude"
	anthropicDir = "../testdata/anthropic"
)

// recordings returns the unmodified corpus recordings in dir (not the
// hand-made files, some of which are broken on purpose).
func recordings(t *testing.T, dir, glob string) []string {
	t.Helper()
	all, err := filepath.Glob(filepath.Join(dir, glob))
	if err != nil {
		t.Fatal(err)
	}
	var files []string
	for _, f := range all {
		if !strings.HasPrefix(filepath.Base(f), "hand-") {
			files = append(files, f)
		}
	}
	if len(files) == 0 {
		t.Fatalf("no recordings in %s", dir)
	}
	return files
}

func decoderFor(t *testing.T, name string, r io.Reader) event.Decoder {
	t.Helper()
	f, ok := Lookup(name)
	if !ok || f.NewDecoder == nil {
		t.Fatalf("no %s decoder", name)
	}
	return f.NewDecoder(r, &format.Options{})
}

// readEvents decodes all of data, failing the test on any problem.
func readEvents(t *testing.T, format string, data []byte) []event.Event {
	t.Helper()
	dec := decoderFor(t, format, bytes.NewReader(data))
	var evs []event.Event
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return evs
		}
		if err != nil {
			t.Fatalf("%s: %v", format, err)
		}
		evs = append(evs, ev)
	}
}

// view is the part of an assembled block the comparisons look at.
type view struct {
	Agent      string
	Type       string
	Text       string `json:",omitempty"`
	Signature  string `json:",omitempty"`
	ID         string `json:",omitempty"`
	Name       string `json:",omitempty"`
	Input      any    `json:",omitempty"`
	MCPServer  string `json:",omitempty"`
	Content    string `json:",omitempty"`
	Images     int    `json:",omitempty"`
	IsError    bool   `json:",omitempty"`
	Structured bool   `json:",omitempty"`
	Citations  int    `json:",omitempty"`
}

var (
	partialPath = strings.NewReplacer("claude-partial-", "claude-")
	runVarying  = regexp.MustCompile(`(agentId: |to: '|duration_ms: |127\.0\.0\.1:)[0-9a-f]+`)
)

// contentTypes are the blocks that carry what the model and the tools
// said, as opposed to metadata.
var contentTypes = map[string]bool{
	assemble.TypeText: true, assemble.TypeThinking: true, assemble.TypeToolCall: true,
	assemble.TypeServerToolCall: true, assemble.TypeToolResult: true, assemble.TypeServerToolResult: true,
	assemble.TypeError: true, assemble.TypeTurnEnd: true,
}

// views assembles events into the views of their content blocks. Agents
// are renamed a0, a1, ... in order of appearance, paths of the partial
// recordings lose their "partial-", and the run-specific ids and times in
// subagent results are blanked.
func views(t *testing.T, evs []event.Event) []view {
	t.Helper()
	a := assemble.New(0)
	agents := map[string]string{}
	var out []view
	add := func(bs []*assemble.Block) {
		for _, b := range bs {
			if !contentTypes[b.Type] {
				continue
			}
			if _, ok := agents[b.Agent]; !ok {
				agents[b.Agent] = fmt.Sprintf("a%d", len(agents))
			}
			v := view{
				Agent: agents[b.Agent], Type: b.Type, Text: runVarying.ReplaceAllString(b.Text, "$1X"), Signature: b.Signature, ID: b.ID,
				Name: b.Name, MCPServer: b.MCPServer, Images: len(b.Images), IsError: b.IsError,
				Structured: len(b.Structured) > 0, Citations: len(b.Citations),
			}
			if b.Type == assemble.TypeTurnEnd {
				v = view{Agent: v.Agent, Type: b.Type}
			}
			if len(b.Input) > 0 {
				if err := json.Unmarshal([]byte(partialPath.Replace(string(b.Input))), &v.Input); err != nil {
					t.Fatalf("tool input %s: %v", b.Input, err)
				}
			}
			if b.Content != nil {
				v.Content = runVarying.ReplaceAllString(partialPath.Replace(*b.Content), "$1X")
			}
			out = append(out, v)
		}
	}
	for _, ev := range evs {
		bs, err := a.Add(ev)
		if err != nil {
			t.Fatal(err)
		}
		add(bs)
	}
	add(a.Flush())
	return out
}

func read(t *testing.T, file string) []byte {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// TestClaudePartialMatchesWhole: the run recorded with and without
// --include-partial-messages assembles to the same blocks.
func TestClaudePartialMatchesWhole(t *testing.T) {
	t.Parallel()
	for _, partial := range recordings(t, claudeDir, "partial-*.jsonl") {
		whole := filepath.Join(claudeDir, strings.TrimPrefix(filepath.Base(partial), "partial-"))
		t.Run(filepath.Base(whole), func(t *testing.T) {
			t.Parallel()
			want := views(t, readEvents(t, "claude", read(t, whole)))
			got := views(t, readEvents(t, "claude", read(t, partial)))
			if diff := cmp.Diff(withoutTurnEnds(want), withoutTurnEnds(got)); diff != "" {
				t.Errorf("partial recording assembles to other blocks (-whole +partial):\n%s", diff)
			}
		})
	}
}

func withoutTurnEnds(vs []view) []view {
	var out []view
	for _, v := range vs {
		if v.Type != assemble.TypeTurnEnd {
			out = append(out, v)
		}
	}
	return out
}

// turns splits the views of one agent at its turn ends, keeping what the
// model wrote (no tool results, which the API body does not carry).
func turns(vs []view, agent string) [][]view {
	var out [][]view
	var cur []view
	for _, v := range vs {
		if v.Agent != agent {
			continue
		}
		switch v.Type {
		case assemble.TypeTurnEnd:
			out = append(out, cur)
			cur = nil
		case assemble.TypeToolResult:
		default:
			cur = append(cur, v)
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// TestAnthropicTurnMatchesClaude: the API body of each turn assembles to
// the same blocks as that turn in the Claude Code recordings (with and
// without partial messages) of the same run. Claude Code forwards only
// the tool calls of a subagent, so its turns are compared on those.
func TestAnthropicTurnMatchesClaude(t *testing.T) {
	t.Parallel()
	name := regexp.MustCompile(`^(.*?)(-sub)?-turn(\d+)\.sse$`)
	for _, body := range recordings(t, anthropicDir, "*.sse") {
		m := name.FindStringSubmatch(filepath.Base(body))
		if m == nil {
			t.Fatalf("unexpected file name %s", body)
		}
		scenario, sub, n := m[1], m[2] != "", 0
		fmt.Sscan(m[3], &n)
		for _, prefix := range []string{"", "partial-"} {
			t.Run(filepath.Base(body)+"/"+prefix+scenario, func(t *testing.T) {
				t.Parallel()
				all := views(t, readEvents(t, "claude", read(t, filepath.Join(claudeDir, prefix+scenario+".jsonl"))))
				agent := "a0"
				if sub {
					agent = "a1"
				}
				ts := turns(all, agent)
				var want []view
				switch {
				case n <= len(ts):
					want = ts[n-1]
				case !sub:
					t.Fatalf("the claude recording has %d turns of agent %s, want at least %d", len(ts), agent, n)
				}
				// else a subagent turn with no tool call: Claude Code
				// shows nothing of it.
				got := turns(views(t, readEvents(t, "anthropic", read(t, body))), "a0")
				if len(got) != 1 {
					t.Fatalf("the body assembles to %d turns, want 1", len(got))
				}
				if sub {
					want, got[0] = toolCalls(want), toolCalls(got[0])
				}
				for i := range want {
					want[i].Agent = "a0"
				}
				if diff := cmp.Diff(want, got[0]); diff != "" {
					t.Errorf("turn %d differs (-claude +anthropic):\n%s", n, diff)
				}
			})
		}
	}
}

func toolCalls(vs []view) []view {
	var out []view
	for _, v := range vs {
		if v.Type == assemble.TypeToolCall {
			out = append(out, v)
		}
	}
	return out
}

// TestCorpusConvertsEverywhere: every recording, in every format the
// corpus has, converts to every format with an encoder without a problem.
func TestCorpusConvertsEverywhere(t *testing.T) {
	t.Parallel()
	inputs := map[string][]string{
		"claude":    recordings(t, claudeDir, "*.jsonl"),
		"anthropic": recordings(t, anthropicDir, "*.sse"),
		"codex":     recordings(t, "../testdata/codex", "*.jsonl"),
		"xml":       recordings(t, "../testdata/xml", "*.sse"),
		"jsonenv":   recordings(t, "../testdata/jsonenv", "*.sse"),
	}
	for from, files := range inputs {
		for _, file := range files {
			for _, to := range Formats() {
				if to.NewEncoder == nil {
					continue
				}
				t.Run(filepath.Base(file)+"/"+to.Name, func(t *testing.T) {
					t.Parallel()
					var out bytes.Buffer
					var warnings []error
					enc := to.NewEncoder(&out, &format.Options{Warn: func(err error) { warnings = append(warnings, err) }})
					err := Pipe(decoderFor(t, from, bytes.NewReader(read(t, file))), enc, &PipeOptions{
						Problem: func(err error) bool { t.Errorf("problem: %v", err); return true },
					})
					if err != nil {
						t.Fatal(err)
					}
					if err := enc.Close(); err != nil {
						t.Fatal(err)
					}
					for _, w := range warnings {
						var loss *event.LossError
						if !errors.As(w, &loss) {
							t.Errorf("warning that is not a loss: %v", w)
						}
					}
				})
			}
		}
	}
}

// encode writes evs in format and returns the bytes and the warnings.
func encode(t *testing.T, format string, o *format.Options, evs []event.Event) []byte {
	t.Helper()
	f, ok := Lookup(format)
	if !ok || f.NewEncoder == nil {
		t.Fatalf("no %s encoder", format)
	}
	var out bytes.Buffer
	enc := f.NewEncoder(&out, o)
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatalf("%s: encode %T: %v", format, ev, err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatalf("%s: close: %v", format, err)
	}
	return out.Bytes()
}

// lossy blanks in views what the JSON envelope cannot carry.
func lossy(vs []view) []view {
	var out []view
	for _, v := range vs {
		if v.Type == assemble.TypeTurnEnd {
			continue
		}
		v.Signature, v.Structured, v.IsError, v.MCPServer = "", false, false, ""
		out = append(out, v)
	}
	return out
}

// TestRoundTrips: every content block survives a trip through the JSON
// envelope and back, and a trip through the format itself keeps
// everything the views look at, turn ends included.
func TestRoundTrips(t *testing.T) {
	t.Parallel()
	type trip struct {
		from string
		via  []string
		opts *format.Options
		keep func([]view) []view
	}
	same := func(vs []view) []view { return vs }
	trips := []trip{
		{"claude", []string{"jsonenv", "claude"}, &format.Options{}, lossy},
		{"claude", []string{"jsonenv", "claude"}, &format.Options{Partial: true}, lossy},
		{"claude", []string{"claude"}, &format.Options{}, withoutTurnEnds}, // no turn ends in the output to place them
		{"claude", []string{"claude"}, &format.Options{Partial: true}, same},
		{"claude", []string{"xml"}, &format.Options{}, lossy},
		{"anthropic", []string{"xml"}, &format.Options{}, lossy},
		{"anthropic", []string{"jsonenv", "anthropic"}, &format.Options{}, lossy},
		{"anthropic", []string{"anthropic"}, &format.Options{}, same},
		{"anthropic", []string{"claude", "anthropic"}, &format.Options{}, same},
	}
	dirs := map[string]string{"claude": claudeDir, "anthropic": anthropicDir}
	for _, tr := range trips {
		files := recordings(t, dirs[tr.from], "*")
		files = append(files, filepath.Join(dirs[tr.from], "hand-all-types."+map[string]string{"claude": "jsonl", "anthropic": "sse"}[tr.from]))
		for _, file := range files {
			if strings.HasSuffix(file, ".md") {
				continue
			}
			name := fmt.Sprintf("%s/%s/partial=%v", filepath.Base(file), strings.Join(tr.via, "-"), tr.opts.Partial)
			t.Run(name, func(t *testing.T) {
				t.Parallel()
				evs := readEvents(t, tr.from, read(t, file))
				want := tr.keep(views(t, evs))
				cur := evs
				for _, to := range tr.via {
					cur = readEvents(t, to, encode(t, to, tr.opts, cur))
				}
				if diff := cmp.Diff(want, tr.keep(views(t, cur))); diff != "" {
					t.Errorf("blocks differ after the trip (-before +after):\n%s", diff)
				}
			})
		}
	}
}

// TestClaudeRecordingsAssemble: each recording assembles to its text,
// its tool calls each with a result, and one final outcome.
func TestClaudeRecordingsAssemble(t *testing.T) {
	t.Parallel()
	for _, file := range recordings(t, claudeDir, "*.jsonl") {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			a := assemble.New(0)
			var blocks []*assemble.Block
			for _, ev := range readEvents(t, "claude", read(t, file)) {
				bs, err := a.Add(ev)
				if err != nil {
					t.Fatal(err)
				}
				blocks = append(blocks, bs...)
			}
			blocks = append(blocks, a.Flush()...)
			calls, results := map[string]bool{}, map[string]bool{}
			count := map[string]int{}
			for _, b := range blocks {
				count[b.Type]++
				switch b.Type {
				case assemble.TypeToolCall:
					calls[b.ID] = true
					if len(b.Input) == 0 || b.Name == "" {
						t.Errorf("tool call %s without its name or input", b.ID)
					}
				case assemble.TypeToolResult:
					results[b.ID] = true
				case assemble.TypeText, assemble.TypeThinking:
					if b.Text == "" || b.Truncated {
						t.Errorf("empty or truncated %s block", b.Type)
					}
				}
			}
			if diff := cmp.Diff(calls, results); diff != "" {
				t.Errorf("tool calls and results do not pair (-calls +results):\n%s", diff)
			}
			if count[assemble.TypeMetaInit] < 1 || count[assemble.TypeMetaFinal] != 1 {
				t.Errorf("want a start and one final outcome, got %v", count)
			}
			if count[assemble.TypeText]+count[assemble.TypeError] == 0 {
				t.Errorf("no text and no error: %v", count)
			}
		})
	}
}
