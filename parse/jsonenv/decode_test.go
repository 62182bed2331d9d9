package jsonenv_test

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/agentmeta"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
	"github.com/agentstream/agentstream/parse/jsonenv"
)

// decodeAll reads every event and every problem from r.
func decodeAll(t testing.TB, r io.Reader) ([]event.Event, []string) {
	t.Helper()
	return eventtest.EventsAndProblems(t, jsonenv.NewDecoder(r, &jsonenv.Config{Source: "in"}))
}

func ptr[T any](v T) *T { return &v }

func TestDecode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       string
		want     []event.Event
		problems []string
	}{
		{
			name: "streamed text with whitespace delta",
			in: `data: {"type":"text","agent":"a","final":false,"delta":"Hi"}

data: {"type":"text","agent":"a","final":false,"delta":" "}

data: {"type":"text","agent":"a","final":true,"delta":""}

data: [DONE]

`,
			want: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "Hi"},
				&event.Delta{Agent: "a", Kind: event.Text, Text: " "},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
		},
		{
			name: "final with content and no open block is a whole block",
			in:   `{"type":"thinking","agent":"a","final":true,"delta":"all"}` + "\n",
			want: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Thinking},
				&event.Delta{Agent: "a", Kind: event.Thinking, Text: "all"},
				&event.BlockEnd{Agent: "a", Kind: event.Thinking},
			},
		},
		{
			name: "stray final marker carries nothing",
			in:   `{"type":"text","agent":"a","final":true,"delta":""}` + "\n",
		},
		{
			name: "chunked tool call reassembled",
			in: `{"type":"tool_call","agent":"a","final":false,"delta":"{\"q\": ","id":"t1","name":"s"}
{"type":"tool_call","agent":"a","final":true,"delta":"1}","id":"t1","name":"s"}
`,
			want: []event.Event{&event.ToolCall{Agent: "a", ID: "t1", Name: "s", Input: []byte(`{"q": 1}`)}},
		},
		{
			name: "unparsable arguments stay as a JSON string",
			in:   `{"type":"tool_call","agent":"a","final":true,"delta":"{oops","id":"t1","name":"s"}` + "\n",
			want: []event.Event{&event.ToolCall{Agent: "a", ID: "t1", Name: "s", Input: []byte(`"{oops"`)}},
		},
		{
			name: "multimodal result",
			in: `{"type":"tool_result","agent":"a","final":false,"delta":"shot","id":"t","name":"n"}
{"type":"tool_result_image","agent":"a","final":false,"delta":"","id":"t","name":"n","src":"data:image/png;base64,AA==","media_type":"image/png"}
{"type":"tool_result","agent":"a","final":true,"delta":"","id":"t","name":"n"}
`,
			want: []event.Event{&event.ToolResult{Agent: "a", ID: "t", Name: "n", Content: []event.Part{
				{Type: "text", Text: "shot"},
				{Type: "image", Source: "data:image/png;base64,AA==", MediaType: "image/png"},
			}}},
		},
		{
			name: "citations grouped until final",
			in: `{"type":"citation","agent":"a","final":false,"delta":"one","citation_type":"char_location","document_index":0,"start_char_index":1,"end_char_index":2}
{"type":"citation","agent":"a","final":true,"delta":"two","citation_type":"web_search_result_location","url":"u","title":"t"}
`,
			want: []event.Event{&event.Citations{Agent: "a", Items: []event.Citation{
				{Type: "char_location", CitedText: "one", DocumentIndex: ptr[int64](0), StartCharIndex: ptr[int64](1), EndCharIndex: ptr[int64](2)},
				{Type: "web_search_result_location", CitedText: "two", URL: ptr("u"), Title: ptr("t")},
			}}},
		},
		{
			name: "interleaved agents keep separate blocks",
			in: `{"type":"text","agent":"p","final":false,"delta":"P1"}
{"type":"text","agent":"c","final":false,"delta":"C1"}
{"type":"text","agent":"p","final":true,"delta":""}
{"type":"text","agent":"c","final":true,"delta":""}
`,
			want: []event.Event{
				&event.BlockStart{Agent: "p", Kind: event.Text},
				&event.Delta{Agent: "p", Kind: event.Text, Text: "P1"},
				&event.BlockStart{Agent: "c", Kind: event.Text},
				&event.Delta{Agent: "c", Kind: event.Text, Text: "C1"},
				&event.BlockEnd{Agent: "p", Kind: event.Text},
				&event.BlockEnd{Agent: "c", Kind: event.Text},
			},
		},
		{
			name: "unknown type preserved verbatim",
			in:   `{"type":"envelope_log","agent":"a","final":true,"delta":"x"}` + "\n",
			want: []event.Event{&event.Unknown{
				Agent: "a", Format: "jsonenv", Type: "envelope_log",
				Raw: []byte(`{"type":"envelope_log","agent":"a","final":true,"delta":"x"}`),
			}},
		},
		{
			name: "rollback takes back the agent's open blocks",
			in: `{"type":"text","agent":"a","final":false,"delta":"Hal"}` + "\n" +
				`{"type":"text","agent":"b","final":false,"delta":"B"}` + "\n" +
				`{"type":"rollback","agent":"a","final":true,"delta":"{\"message\": \"retry\", \"code\": \"r1\"}"}` + "\n" +
				`{"type":"text","agent":"a","final":false,"delta":"Hello"}` + "\n" +
				`{"type":"text","agent":"a","final":true,"delta":""}` + "\n" +
				`{"type":"text","agent":"b","final":true,"delta":""}` + "\n",
			want: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "Hal"},
				&event.BlockStart{Agent: "b", Kind: event.Text},
				&event.Delta{Agent: "b", Kind: event.Text, Text: "B"},
				&event.Notice{Agent: "a", Kind: event.NoticeAbandoned, Message: "retry"},
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "Hello"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
				&event.BlockEnd{Agent: "b", Kind: event.Text},
			},
		},
		{
			name: "server error object",
			in:   "data: {\"error\": \"ValueError\", \"message\": \"boom\", \"traceback\": \"...\"}\n\n",
			want: []event.Event{&event.Error{
				Message: "boom", Type: "ValueError", Fatal: true,
				Raw: []byte(`{"error": "ValueError", "message": "boom", "traceback": "..."}`),
			}},
		},
		{
			name: "meta_init and meta_final",
			in: `{"type":"meta_init","agent":"a","final":true,"delta":"{\"format\": \"json\", \"user_query\": \"hi\", \"agent_uuid\": \"a\", \"parent_agent_uuid\": \"p\", \"model\": \"m\"}"}
{"type":"meta_final","agent":"a","final":true,"delta":"{\"stop_reason\": \"end_turn\", \"total_steps\": 2, \"cost\": {\"total_cost\": 0.5, \"currency\": \"USD\"}, \"cumulative_usage\": {\"input_tokens\": 3, \"output_tokens\": 4}}"}
`,
			want: []event.Event{
				&event.SessionStart{
					Agent: "a", ParentAgent: "p", Model: "m", Prompt: "hi", MetaKind: agentmeta.Kind,
					Meta: []byte(`{"format": "json", "user_query": "hi", "agent_uuid": "a", "parent_agent_uuid": "p", "model": "m"}`),
				},
				&event.RunEnd{
					Agent: "a", StopReason: "end_turn", Turns: 2, CostUSD: ptr(0.5), MetaKind: agentmeta.Kind,
					Usage: &event.Usage{InputTokens: 3, OutputTokens: 4, Has: event.HasInput | event.HasOutput},
					Meta:  []byte(`{"stop_reason": "end_turn", "total_steps": 2, "cost": {"total_cost": 0.5, "currency": "USD"}, "cumulative_usage": {"input_tokens": 3, "output_tokens": 4}}`),
				},
			},
		},
		{
			name: "bad lines reported, rest read",
			in:   "{nope\n" + `{"type":"text","agent":"a","final":true,"delta":"ok"}` + "\n" + `{"agent":"a"}` + "\n",
			want: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "ok"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
			problems: []string{
				"in:1:1: expected a JSON envelope: invalid character 'n' looking for beginning of object key string",
				"in:3:1: envelope has no type",
			},
		},
		{
			name: "truncated inside a streamed block and a buffered payload",
			in: `{"type":"text","agent":"a","final":false,"delta":"cut"}
{"type":"tool_result","agent":"a","final":false,"delta":"par","id":"t","name":"n"}
`,
			want: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "cut"},
				&event.ToolResult{Agent: "a", ID: "t", Name: "n", Content: []event.Part{{Type: "text", Text: "par"}}},
			},
			problems: []string{`in:2:1: stream ended inside text block of agent "a", tool_result of agent "a"`},
		},
		{
			name: "NDJSON whose first line is garbage is still NDJSON",
			in:   "garbage\n" + `{"type":"text","agent":"a","final":true,"delta":"x"}` + "\n",
			want: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "x"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
			problems: []string{"in:1:1: expected a JSON envelope: invalid character 'g' looking for beginning of value"},
		},
		{
			name: "NDJSON after a byte order mark",
			in:   "\xef\xbb\xbf" + `{"type":"text","agent":"a","final":true,"delta":"x"}` + "\n",
			want: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "x"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
		},
		{
			name: "SSE after a byte order mark",
			in:   "\xef\xbb\xbfdata: " + `{"type":"text","agent":"a","final":true,"delta":"x"}` + "\n\ndata: [DONE]\n\n",
			want: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "x"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
		},
		{
			name: "what follows [DONE] is the next stream",
			in:   "data: [DONE]\n\ndata: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"x\"}\n\ndata: [DONE]\n\n",
			want: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "x"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, problems := decodeAll(t, strings.NewReader(tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
		})
	}
}

// TestReaders checks that how the input is split into reads never changes
// the events: every testdata stream decodes the same whole, one byte at a
// time, and in halves.
func TestReaders(t *testing.T) {
	t.Parallel()
	for _, path := range testdataFiles(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			eventtest.SameReads(t, data, func(r io.Reader) []eventtest.Item {
				return eventtest.All(jsonenv.NewDecoder(r, &jsonenv.Config{Source: "in"}))
			})
		})
	}
}

// testdataFiles returns the recordings of testdata/jsonenv.
func testdataFiles(t testing.TB) []string {
	t.Helper()
	return append(eventtest.Corpus(t, "../../testdata/jsonenv", "*.sse"), eventtest.Corpus(t, "../../testdata/jsonenv", "*.jsonl")...)
}

// TestStopAtDone: on a live connection [DONE] ends the input; nothing
// after it is waited for.
func TestStopAtDone(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	go io.WriteString(pw, "data: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"x\"}\n\ndata: [DONE]\n\n")
	dec := jsonenv.NewDecoder(pr, &jsonenv.Config{StopAtDone: true})
	n := 0
	for {
		_, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		n++
	}
	if n != 3 {
		t.Errorf("%d events, want 3", n)
	}
	pw.Close()
}

// TestProblemOrder: the events a piece of input produced come out before
// the problem it caused, and a truncation is the last thing before EOF.
func TestProblemOrder(t *testing.T) {
	t.Parallel()
	in := `{"type":"tool_call","agent":"a","final":false,"delta":"{","id":"t1","name":"n"}
{"type":"tool_call","agent":"a","final":true,"delta":"{}","id":"t2","name":"n"}
{"type":"text","agent":"a","final":false,"delta":"cut"}
`
	dec := jsonenv.NewDecoder(strings.NewReader(in), &jsonenv.Config{Source: "in"})
	var got []string
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, "problem: "+err.Error())
			continue
		}
		got = append(got, fmt.Sprintf("%T", ev))
	}
	want := []string{
		"*event.ToolCall", // t1, cut short by t2
		"*event.ToolCall", // t2
		`problem: in:2:1: tool_call "t1" of agent "a" ended without a final envelope`,
		"*event.BlockStart",
		"*event.Delta",
		`problem: in:3:1: stream ended inside text block of agent "a"`,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("order (-want +got):\n%s", diff)
	}
}

// TestPayloadTooLarge: a chunked payload that outgrows the cap is skipped
// whole, with one problem; its later chunks make no event.
func TestPayloadTooLarge(t *testing.T) {
	t.Parallel()
	chunk := func(final bool, delta string) string {
		return fmt.Sprintf(`{"type":"tool_call","agent":"a","final":%v,"delta":%q,"id":"t1","name":"n"}`+"\n", final, delta)
	}
	in := chunk(false, `{"x": "`)
	for range 12 {
		in += chunk(false, strings.Repeat("x", 10))
	}
	in += chunk(true, `"}`) + `{"type":"tool_call","agent":"a","final":true,"delta":"{}","id":"t2","name":"n"}` + "\n"
	dec := jsonenv.NewDecoder(strings.NewReader(in), &jsonenv.Config{Source: "in", MaxEventBytes: 100})
	var got []string
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			got = append(got, err.Error())
			continue
		}
		got = append(got, fmt.Sprintf("%T %s", ev, ev.(*event.ToolCall).ID))
	}
	want := []string{
		"in:11:1: tool_call payload larger than 100 bytes, skipped (raise the cap, MaxEventBytes)",
		"*event.ToolCall t2",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestEventTooLarge(t *testing.T) {
	t.Parallel()
	big := `{"type":"text","agent":"a","final":false,"delta":"` + strings.Repeat("x", 200) + `"}`
	in := "data: " + big + "\n\ndata: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"ok\"}\n\ndata: [DONE]\n\n"
	dec := jsonenv.NewDecoder(strings.NewReader(in), &jsonenv.Config{Source: "in", MaxEventBytes: 100})
	var got []event.Event
	var problems []error
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			problems = append(problems, err)
			continue
		}
		got = append(got, ev)
	}
	if len(problems) != 1 || !errors.Is(problems[0], event.ErrTooLarge) {
		t.Fatalf("problems = %v, want one ErrTooLarge", problems)
	}
	if !strings.HasPrefix(problems[0].Error(), "in:1:1: SSE message larger than 100 bytes") {
		t.Errorf("message = %q", problems[0])
	}
	want := []event.Event{
		&event.BlockStart{Agent: "a", Kind: event.Text},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "ok"},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events after the large one (-want +got):\n%s", diff)
	}
}

func FuzzDecoder(f *testing.F) {
	eventtest.FuzzPieces(f, testdataFiles(f), "\n\n", 512)
	f.Fuzz(func(t *testing.T, data []byte) {
		// Valid UTF-8 whatever the input, and the same at any read size.
		fuzzcheck.Check(t, data, func(r io.Reader) event.Decoder {
			return jsonenv.NewDecoder(r, &jsonenv.Config{MaxEventBytes: 1 << 16})
		})
		dec := jsonenv.NewDecoder(strings.NewReader(string(data)), &jsonenv.Config{MaxEventBytes: 1 << 16})
		for i := 0; ; i++ {
			ev, err := dec.Next()
			if err == io.EOF {
				return
			}
			if err != nil {
				var perr *event.ParseError
				if !errors.As(err, &perr) {
					t.Fatalf("non-positioned error: %v", err)
				}
				continue
			}
			if ev == nil {
				t.Fatal("nil event")
			}
			if i > 10*len(data)+10 {
				t.Fatal("decoder does not terminate")
			}
		}
	})
}

func BenchmarkDecode(b *testing.B) {
	data, err := os.ReadFile("../../testdata/jsonenv/long-text.sse")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		dec := jsonenv.NewDecoder(strings.NewReader(string(data)), nil)
		for {
			if _, err := dec.Next(); err != nil {
				if err == io.EOF {
					break
				}
				b.Fatal(err)
			}
		}
	}
}

// TestDeltasIndependent: the Delta events of a long stream keep their own
// texts while the decoder reads on (its texts share slabs, its structs
// batches), short texts and long, escaped and not.
func TestDeltasIndependent(t *testing.T) {
	t.Parallel()
	var in strings.Builder
	want := []event.Event{&event.BlockStart{Agent: "a", Kind: event.Text}}
	for i := range 2000 {
		text := strings.Repeat(string(rune('a'+i%26)), i%300) + fmt.Sprintf("é\n%d\"", i)
		fmt.Fprintf(&in, "data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":%q}\n\n", text)
		want = append(want, &event.Delta{Agent: "a", Kind: event.Text, Text: text})
	}
	in.WriteString("data: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"\"}\n\ndata: [DONE]\n\n")
	want = append(want, &event.BlockEnd{Agent: "a", Kind: event.Text})
	got, problems := decodeAll(t, strings.NewReader(in.String()))
	if len(problems) > 0 {
		t.Errorf("problems: %q", problems)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("events (-want +got):\n%s", diff)
	}
}
