package verify

import (
	"errors"
	"io"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/jsonenv"
)

// blocks decodes a JSON envelope stream and assembles it.
func blocks(t *testing.T, stream string) []*assemble.Block {
	t.Helper()
	dec := jsonenv.NewDecoder(strings.NewReader(stream), nil)
	asm := assemble.New(0)
	var out []*assemble.Block
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if errors.As(err, &perr) {
				t.Fatalf("test stream: %v", err)
			}
			t.Fatal(err)
		}
		bs, err := asm.Add(ev)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bs...)
	}
	return append(out, asm.Flush()...)
}

func side(t *testing.T, stream string) Side {
	return Side{Name: "x", Format: "jsonenv", Blocks: blocks(t, stream)}
}

func read(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../testdata/jsonenv/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// lines renders the differences as report lines.
func lines(r *Report) []string {
	var out []string
	for _, d := range r.Differences {
		out = append(out, d.String())
	}
	return out
}

// replace replaces exactly one occurrence of old.
func replace(t *testing.T, s, old, new string) string {
	t.Helper()
	if n := strings.Count(s, old); n != 1 {
		t.Fatalf("%q occurs %d times, want 1", old, n)
	}
	return strings.Replace(s, old, new, 1)
}

const (
	main1 = "fdd848f8-0cc9-5f74-93d8-a3f59907f3a2"
	msgA  = `data: {"type":"text","agent":"` + main1 + `","final":false,"delta":"I'll run the"}` + "\n\n"
	msgB  = `data: {"type":"text","agent":"` + main1 + `","final":false,"delta":" command for"}` + "\n\n"
)

// TestMutations is the acceptance: each single mutation of the same run is
// reported at the right place.
func TestMutations(t *testing.T) {
	t.Parallel()
	orig := read(t, "tooluse.sse")
	toolResult := `data: {"type":"tool_result","agent":"` + main1 + `","final":true,"delta":"hello","id":"toolu_019thJkgIewkUrqlQ62qLSu7","name":"Bash"}` + "\n\n"
	thinking := orig[strings.Index(orig, `data: {"type":"thinking"`):strings.Index(orig, msgA)]
	tests := []struct {
		name   string
		mutate func(*testing.T, string) string
		want   []string
	}{
		{
			name:   "one character of text",
			mutate: func(t *testing.T, s string) string { return replace(t, s, `"delta":" you."`, `"delta":" you!"`) },
			want:   []string{`agent 1 (main) block 2 (text) field text at char 28: "I'll run the command for you." != "I'll run the command for you!"`},
		},
		{
			name:   "dropped block",
			mutate: func(t *testing.T, s string) string { return replace(t, s, toolResult, "") },
			want:   []string{`agent 1 (main) block 4 (tool_result): only in A`},
		},
		{
			name: "changed tool input value",
			mutate: func(t *testing.T, s string) string {
				return replace(t, s, `"delta":"{\"command\": \"echo hello`, `"delta":"{\"command\": \"echo hullo`)
			},
			want: []string{`agent 1 (main) block 3 (tool_call) field input.command at char 6: "echo hello" != "echo hullo"`},
		},
		{
			name: "reordered block",
			mutate: func(t *testing.T, s string) string {
				s = replace(t, s, thinking, "")
				return replace(t, s, toolResult, toolResult+thinking)
			},
			want: []string{`agent 1 (main) block 1 (thinking): moved to block 4 in B`},
		},
		{
			name: "changed agent",
			mutate: func(t *testing.T, s string) string {
				return replace(t, s, toolResult, strings.Replace(toolResult, main1, "other-agent", 1))
			},
			want: []string{
				`agent 1 (main) block 4 (tool_result): only in A`,
				`agent 2 (subagent): only in B`,
			},
		},
		{
			name:   "added block",
			mutate: func(t *testing.T, s string) string { return replace(t, s, toolResult, toolResult+toolResult) },
			want:   []string{`agent 1 (main) B block 5 (tool_result): only in B`},
		},
		{
			name: "dropped meta_init",
			mutate: func(t *testing.T, s string) string {
				return s[strings.Index(s, `data: {"type":"thinking"`):]
			},
			want: []string{`agent 1 (main) meta_init: only in A`},
		},
		{
			name: "changed stop reason",
			mutate: func(t *testing.T, s string) string {
				return replace(t, s, `\"stop_reason\": \"end_turn\"`, `\"stop_reason\": \"max_tokens\"`)
			},
			want: []string{`agent 1 (main) meta_final field stop_reason at char 0: "end_turn" != "max_tokens"`},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := Compare(side(t, orig), side(t, tt.mutate(t, orig)), nil)
			if diff := cmp.Diff(tt.want, lines(r)); diff != "" {
				t.Errorf("differences (-want +got):\n%s", diff)
			}
			if r.Equal {
				t.Error("Equal is true")
			}
		})
	}
}

// TestTransportNeverMatters: chunking, framing, key order and spacing of
// the same content compare equal.
func TestTransportNeverMatters(t *testing.T) {
	t.Parallel()
	const ag = `"agent":"a"`
	a := `data: {"type":"text",` + ag + `,"final":false,"delta":"Hello, world"}` + "\n\n" +
		`data: {"type":"text",` + ag + `,"final":true,"delta":""}` + "\n\n" +
		`data: {"type":"tool_call",` + ag + `,"final":true,"id":"t1","name":"f","delta":"{\"a\":1,\"b\":[1,2]}"}` + "\n\n" +
		"data: [DONE]\n\n"
	b := ": keep-alive\n\n" +
		`{"delta":"Hel","final":false,"type":"text",` + ag + `}` + "\n" +
		`{"type":"text",` + ag + `,"final":false,"delta":"lo, world"}` + "\n" +
		`{"type":"text",` + ag + `,"final":true,"delta":""}` + "\n" +
		`{"type":"tool_call",` + ag + `,"final":false,"id":"t1","name":"f","delta":"{\"b\": [1, 2],"}` + "\n" +
		`{"type":"tool_call",` + ag + `,"final":true,"id":"t1","name":"f","delta":" \"a\": 1.0}"}` + "\n"
	b = strings.TrimPrefix(b, ": keep-alive\n\n")
	r := Compare(side(t, a), side(t, b), nil)
	if diff := cmp.Diff([]string(nil), lines(r)); diff != "" {
		t.Errorf("differences (-want +got):\n%s", diff)
	}
	if !r.Equal {
		t.Error("Equal is false")
	}
}

func TestSameFileEqual(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"tooluse.sse", "subagent.sse", "hand-all-types.sse", "edge-citations.sse", "edge-multimodal.sse", "hand-unicode.jsonl"} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := read(t, name)
			r := Compare(side(t, s), side(t, s), nil)
			if !r.Equal {
				t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
			}
		})
	}
}

func TestIgnore(t *testing.T) {
	t.Parallel()
	orig := read(t, "tooluse.sse")
	tests := []struct {
		name   string
		ignore []string
		mutate func(*testing.T, string) string
	}{
		{"ids", []string{IgnoreIDs}, func(t *testing.T, s string) string {
			return strings.ReplaceAll(s, "toolu_019thJkgIewkUrqlQ62qLSu7", "call_1")
		}},
		{"agent-ids", []string{IgnoreAgentIDs}, func(t *testing.T, s string) string { return strings.ReplaceAll(s, main1, "agent-x") }},
		{"thinking", []string{IgnoreThinking}, func(t *testing.T, s string) string {
			return replace(t, s, `"delta":" will use the Bash t"`, `"delta":" shall use the Bash t"`)
		}},
		{"whitespace", []string{IgnoreWhitespace}, func(t *testing.T, s string) string {
			return replace(t, s, `"delta":" command for"`, `"delta":"  command\nfor"`)
		}},
		{"meta", []string{IgnoreMeta}, func(t *testing.T, s string) string {
			return replace(t, s, `\"model\": \"claude-sonnet-4-5\"`, `\"model\": \"claude-opus-4\"`)
		}},
		{"field name", []string{"content"}, func(t *testing.T, s string) string { return replace(t, s, `"delta":"hello"`, `"delta":"HELLO"`) }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if err := CheckIgnore(tt.ignore); err != nil {
				t.Fatal(err)
			}
			a, b := side(t, orig), side(t, tt.mutate(t, orig))
			if r := Compare(a, b, nil); r.Equal {
				t.Fatal("equal without --ignore: the mutation changed nothing")
			}
			r := Compare(a, b, &Options{Ignore: tt.ignore})
			if !r.Equal {
				t.Errorf("not equal with --ignore %v:\n%s", tt.ignore, strings.Join(lines(r), "\n"))
			}
		})
	}
	if err := CheckIgnore([]string{"colour"}); err == nil {
		t.Error("CheckIgnore accepted an unknown name")
	}
}

func TestUsage(t *testing.T) {
	t.Parallel()
	orig := read(t, "tooluse.sse")
	i := strings.Index(orig, `\"cumulative_usage\": {\"input_tokens\": `)
	if i < 0 {
		t.Fatal("no usage in tooluse.sse")
	}
	mut := orig[:i] + strings.Replace(orig[i:], `\"input_tokens\": `, `\"input_tokens\": 9`, 1)
	a, b := side(t, orig), side(t, mut)
	if r := Compare(a, b, nil); !r.Equal {
		t.Errorf("usage compared without --usage:\n%s", strings.Join(lines(r), "\n"))
	}
	r := Compare(a, b, &Options{Usage: true})
	got := lines(r)
	if len(got) != 1 || !strings.HasPrefix(got[0], "agent 1 (main) meta_final field usage.input_tokens: ") {
		t.Errorf("with --usage: %q", got)
	}
}

// TestLacks: a field one side's format cannot carry is skipped and listed,
// and compared with Strict.
func TestLacks(t *testing.T) {
	t.Parallel()
	res := func(isErr bool) []*assemble.Block {
		c := "boom"
		return []*assemble.Block{
			{Agent: "a", Type: assemble.TypeToolCall, ID: "t1", Name: "f", Input: []byte(`{}`)},
			{Agent: "a", Type: assemble.TypeToolResult, ID: "t1", Name: "f", Content: &c, IsError: isErr},
		}
	}
	a := Side{Name: "a.sse", Format: "xml", Lacks: []format.Content{"is_error", "signature", "todo_list"}, Blocks: res(false)}
	b := Side{Name: "b.jsonl", Format: "claude", Lacks: []format.Content{"todo_list"}, Blocks: res(true)}

	r := Compare(a, b, nil)
	// signature: lacked, but no block has one: nothing left out, no note.
	wantSkips := []Skip{{"is_error", "a", "A (xml) cannot carry it"}}
	if diff := cmp.Diff(wantSkips, r.NotCompared); diff != "" {
		t.Errorf("not compared (-want +got):\n%s", diff)
	}
	// Swapped, the note names the other side.
	if diff := cmp.Diff([]Skip{{"is_error", "b", "B (xml) cannot carry it"}}, Compare(b, a, nil).NotCompared); diff != "" {
		t.Errorf("swapped: not compared (-want +got):\n%s", diff)
	}
	// turn_end is never compared as a block: never listed.
	turns := func(s Side, lacks ...format.Content) Side {
		s.Lacks = append(slices.Clone(s.Lacks), lacks...)
		s.Blocks = append(slices.Clone(s.Blocks), &assemble.Block{Agent: "a", Type: assemble.TypeTurnEnd, StopReason: "end_turn"})
		return s
	}
	for _, s := range Compare(turns(a, "turn_end"), turns(b), nil).NotCompared {
		if s.Field == "turn_end" {
			t.Errorf("turn_end listed as not compared: %+v", s)
		}
	}
	if !r.Equal {
		t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
	}

	r = Compare(a, b, &Options{Strict: true})
	want := []string{`agent 1 (main) block 2 (tool_result) field is_error: false != true`}
	if diff := cmp.Diff(want, lines(r)); diff != "" {
		t.Errorf("strict (-want +got):\n%s", diff)
	}
	if len(r.NotCompared) != 0 {
		t.Errorf("strict: not compared %v", r.NotCompared)
	}
}

// TestNotContent: block types only some formats produce never make two
// streams differ.
func TestNotContent(t *testing.T) {
	t.Parallel()
	text := &assemble.Block{Agent: "a", Type: assemble.TypeText, Text: "hi"}
	a := Side{Format: "x", Blocks: []*assemble.Block{text}}
	b := Side{Format: "y", Blocks: []*assemble.Block{
		{Agent: "a", Type: assemble.TypeNotice, Kind: "api_retry"},
		{Agent: "a", Type: assemble.TypeText},
		text,
		{Agent: "a", Type: assemble.TypeUnknown, Kind: "ping"},
		{Agent: "a", Type: assemble.TypeTurnEnd},
	}}
	if r := Compare(a, b, nil); !r.Equal {
		t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
	}
}

// TestAbandoned: an abandoned stream (Claude's partial mode, a retried
// call) is no part of the answer: it neither adds an agent nor moves one
// ahead of another.
func TestAbandoned(t *testing.T) {
	t.Parallel()
	main := &assemble.Block{Agent: "m", Type: assemble.TypeText, Text: "main"}
	sub := &assemble.Block{Agent: "s", Type: assemble.TypeText, Text: "sub"}
	a := Side{Format: "claude", Blocks: []*assemble.Block{main, sub}}
	b := Side{Format: "claude", Blocks: []*assemble.Block{
		{Agent: "s", Type: assemble.TypeNotice, Kind: event.NoticeAbandoned, Text: "given up"},
		{Agent: "x", Type: assemble.TypeNotice, Kind: event.NoticeAbandoned, Text: "given up"},
		main, sub,
	}}
	r := Compare(a, b, nil)
	if !r.Equal {
		t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
	}
	if diff := cmp.Diff(r.A, r.B); diff != "" {
		t.Errorf("summary of B (-A +B):\n%s", diff)
	}
}

func TestExcerpt(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("abcdefghij", 10)
	tests := []struct {
		a, b, wantA, wantB string
		at                 int
	}{
		{"same", "sane", `"same"`, `"sane"`, 2},
		{long + "x", long + "y", `…"` + long[60:] + `x"`, `…"` + long[60:] + `y"`, 100},
		{"x" + long, "y" + long, `"x` + long[:39] + `"…`, `"y` + long[:39] + `"…`, 0},
		{"é<ü>", "é<ü", `"é<ü>"`, `"é<ü"`, 3},
	}
	for _, tt := range tests {
		a, b, at := excerpt(tt.a, tt.b)
		if diff := cmp.Diff([]any{tt.wantA, tt.wantB, tt.at}, []any{a, b, at}); diff != "" {
			t.Errorf("excerpt(%q, %q) (-want +got):\n%s", tt.a, tt.b, diff)
		}
	}
}

// TestFailedTurn: a failed turn and the turn_failed error the envelope
// writes for it are the same content.
func TestFailedTurn(t *testing.T) {
	t.Parallel()
	a := Side{Format: "codex", Blocks: []*assemble.Block{
		{Agent: "a", Type: assemble.TypeText, Text: "partial"},
		{Agent: "a", Type: assemble.TypeTurnEnd, Text: "stream disconnected", IsError: true},
	}}
	b := Side{Format: "jsonenv", Blocks: []*assemble.Block{
		{Agent: "a", Type: assemble.TypeText, Text: "partial"},
		{Agent: "a", Type: assemble.TypeError, Kind: "turn_failed", Text: "stream disconnected"},
	}}
	if r := Compare(a, b, nil); !r.Equal {
		t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
	}
}

// TestCitationExtras: a citation field the legacy XML stream does not
// write for the citation's type is compared only with Strict.
func TestCitationExtras(t *testing.T) {
	t.Parallel()
	title := "Blocks"
	idx := int64(2)
	cites := func(withTitle bool) []*assemble.Block {
		c := assemble.Citation{Type: "content_block_location", CitedText: "block cite", DocumentIndex: &idx}
		if withTitle {
			c.DocumentTitle = &title
		}
		return []*assemble.Block{{Agent: "a", Type: assemble.TypeText, Text: "x", Citations: []assemble.Citation{c}}}
	}
	a := Side{Format: "xml", Lacks: []format.Content{format.CitationExtras}, Blocks: cites(false)}
	b := Side{Format: "jsonenv", Blocks: cites(true)}
	if r := Compare(a, b, nil); !r.Equal {
		t.Errorf("not equal:\n%s", strings.Join(lines(r), "\n"))
	}
	r := Compare(a, b, &Options{Strict: true})
	want := []string{`agent 1 (main) block 1 (text) field citations[0].document_title: (none) != "Blocks"`}
	if diff := cmp.Diff(want, lines(r)); diff != "" {
		t.Errorf("strict (-want +got):\n%s", diff)
	}
	// A standard field still counts.
	b.Blocks[0].Citations[0].CitedText = "other"
	if r := Compare(a, b, nil); r.Equal {
		t.Error("a changed cited text compared equal")
	}
}

// TestEmptyMetadata: a meta_init or meta_final one side has and the other
// does not is a difference only when it says something compared; formats
// that always open and close with one write empty ones.
func TestEmptyMetadata(t *testing.T) {
	t.Parallel()
	body := `data: {"type":"text","agent":"a","final":true,"delta":"hi"}` + "\n\n"
	done := "data: [DONE]\n\n"
	empty := `data: {"type":"meta_init","agent":"a","final":true,"delta":"{\"format\": \"json\", \"agent_uuid\": \"a\", \"parent_agent_uuid\": null}"}` + "\n\n" +
		body + `data: {"type":"meta_final","agent":"a","final":true,"delta":"{\"stop_reason\": \"\", \"total_steps\": 0}"}` + "\n\n"
	full := `data: {"type":"meta_init","agent":"a","final":true,"delta":"{\"format\": \"json\", \"model\": \"m\", \"parent_agent_uuid\": null}"}` + "\n\n" +
		body + `data: {"type":"meta_final","agent":"a","final":true,"delta":"{\"stop_reason\": \"end_turn\", \"total_steps\": 1}"}` + "\n\n"
	empty, full = empty+done, full+done
	if r := Compare(side(t, body+done), side(t, empty), nil); !r.Equal {
		t.Errorf("empty metadata made a difference:\n%s", strings.Join(lines(r), "\n"))
	}
	r := Compare(side(t, body+done), side(t, full), nil)
	if diff := cmp.Diff([]string{
		"agent 1 (main) meta_init: only in B",
		"agent 1 (main) meta_final: only in B",
	}, lines(r)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
