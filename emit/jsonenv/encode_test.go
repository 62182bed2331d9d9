package jsonenv_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble/assembletest"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/emit/jsonenv"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
	parse "github.com/agentstream/agentstream/parse/jsonenv"
)

func ptr[T any](v T) *T { return &v }

func encode(t testing.TB, cfg *jsonenv.Config, evs ...event.Event) (string, []string) {
	t.Helper()
	var buf bytes.Buffer
	var warnings []string
	c := jsonenv.Config{}
	if cfg != nil {
		c = *cfg
	}
	c.Warn = func(err error) { warnings = append(warnings, err.Error()) }
	enc := jsonenv.NewEncoder(&buf, &c)
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		warnings = append(warnings, "close: "+err.Error())
	}
	return buf.String(), warnings
}

func TestEncode(t *testing.T) {
	t.Parallel()
	nd := &jsonenv.Config{NDJSON: true}
	tests := []struct {
		name     string
		cfg      *jsonenv.Config
		in       []event.Event
		want     string
		warnings []string
	}{
		{
			name: "streamed block: each delta at once, then an empty final marker; SSE framing and [DONE]",
			in: []event.Event{
				&event.BlockStart{Agent: "a", Kind: event.Text},
				&event.Delta{Agent: "a", Kind: event.Text, Text: "Hi <b>&</b> é"},
				&event.BlockEnd{Agent: "a", Kind: event.Text},
			},
			want: "data: {\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"Hi <b>&</b> é\"}\n\n" +
				"data: {\"type\":\"text\",\"agent\":\"a\",\"final\":true,\"delta\":\"\"}\n\n" +
				"data: [DONE]\n\n",
		},
		{
			name: "buffered tool call: extras after delta, final on the only chunk",
			cfg:  nd,
			in:   []event.Event{&event.ToolCall{Agent: "a", ID: "t1", Name: "grep", Input: []byte(`{"pattern": "TODO"}`)}},
			want: `{"type":"tool_call","agent":"a","final":true,"delta":"{\"pattern\": \"TODO\"}","id":"t1","name":"grep"}` + "\n",
		},
		{
			name: "multimodal tool result",
			cfg:  nd,
			in: []event.Event{&event.ToolResult{Agent: "a", ID: "t", Name: "shot", IsError: true, Content: []event.Part{
				{Type: "text", Text: "ok"}, {Type: "image", Source: "data:x", MediaType: "image/png"},
			}}},
			want: `{"type":"tool_result","agent":"a","final":false,"delta":"ok","id":"t","name":"shot"}` + "\n" +
				`{"type":"tool_result_image","agent":"a","final":false,"delta":"","id":"t","name":"shot","src":"data:x","media_type":"image/png"}` + "\n" +
				`{"type":"tool_result","agent":"a","final":true,"delta":"","id":"t","name":"shot"}` + "\n",
			warnings: []string{"jsonenv cannot carry tool result is_error"},
		},
		{
			name: "citations: last one final, absent fields omitted",
			cfg:  nd,
			in: []event.Event{&event.Citations{Agent: "a", Items: []event.Citation{
				{Type: "char_location", CitedText: "x", DocumentIndex: ptr[int64](0), DocumentTitle: ptr("T")},
				{Type: "web_search_result_location", CitedText: "y", URL: ptr("u")},
			}}},
			want: `{"type":"citation","agent":"a","final":false,"delta":"x","citation_type":"char_location","document_index":0,"document_title":"T"}` + "\n" +
				`{"type":"citation","agent":"a","final":true,"delta":"y","citation_type":"web_search_result_location","url":"u"}` + "\n",
		},
		{
			name:     "escaping as Python json.dumps(ensure_ascii=False)",
			cfg:      nd,
			in:       []event.Event{&event.Delta{Agent: "a", Kind: event.Text, Text: "q\"b\\n\n\t\x01\u2028/<>&🦊\xff"}},
			want:     `{"type":"text","agent":"a","final":false,"delta":"q\"b\\n\n\t\u0001` + "\u2028" + `/<>&🦊\ufffd"}` + "\n",
			warnings: []string{"close: jsonenv: stream truncated: 1 block(s) left open, no [DONE] written"},
		},
		{
			name: "agent filled in from the config",
			cfg:  &jsonenv.Config{NDJSON: true, Agent: "dflt"},
			in:   []event.Event{&event.Error{Message: "m", Type: "api_error"}},
			want: `{"type":"error","agent":"dflt","final":true,"delta":"{\"type\":\"api_error\",\"message\":\"m\"}"}` + "\n",
		},
		{
			name: "an error's own payload is kept; another format's raw line is not a payload",
			cfg:  nd,
			in: []event.Event{
				&event.Error{Agent: "a", Type: "api_error", Message: "m", Raw: []byte(`{"type": "api_error", "message": "m"}`)},
				&event.Error{Agent: "a", Message: "reconnecting", Raw: []byte(`{"type":"error","message":"reconnecting"}`)},
			},
			want: `{"type":"error","agent":"a","final":true,"delta":"{\"type\": \"api_error\", \"message\": \"m\"}"}` + "\n" +
				`{"type":"error","agent":"a","final":true,"delta":"{\"type\":\"\",\"message\":\"reconnecting\"}"}` + "\n",
		},
		{
			name: "an unknown envelope is written back on one line",
			cfg:  nd,
			in:   []event.Event{&event.Unknown{Agent: "a", Format: "jsonenv", Type: "checkpoint", Raw: []byte("{\"type\":\"checkpoint\",\n\"agent\":\"a\", \"final\":true,\"delta\":\"x\"}")}},
			want: `{"type":"checkpoint","agent":"a","final":true,"delta":"x"}` + "\n",
		},
		{
			name:     "what the envelope cannot carry is warned about",
			cfg:      nd,
			in:       []event.Event{&event.Notice{Kind: "api_retry"}, &event.TodoList{}, &event.BlockEnd{Kind: event.Thinking, Signature: "sig"}},
			want:     `{"type":"thinking","agent":"agentstream","final":true,"delta":""}` + "\n",
			warnings: []string{"jsonenv cannot carry notices (api_retry)", "jsonenv cannot carry todo lists", "jsonenv cannot carry thinking signatures"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, warnings := encode(t, tt.cfg, tt.in...)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("output (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// testdataFiles returns the recordings of testdata/jsonenv.
func testdataFiles(t testing.TB) []string {
	t.Helper()
	return append(eventtest.Corpus(t, "../../testdata/jsonenv", "*.sse"), eventtest.Corpus(t, "../../testdata/jsonenv", "*.jsonl")...)
}

// reencode converts a stream to the envelope again.
func reencode(t testing.TB, in []byte, cfg *jsonenv.Config) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	enc := jsonenv.NewEncoder(w, cfg)
	err := convert.Pipe(parse.NewDecoder(bytes.NewReader(in), nil), enc, &convert.PipeOptions{Flush: w.Flush, Problem: func(error) bool { return true }})
	if err != nil {
		t.Fatal(err)
	}
	if err := enc.Close(); err != nil && !errors.Is(err, event.ErrTruncated) {
		t.Fatal(err)
	}
	w.Flush()
	return buf.Bytes()
}

// TestRoundTrip: every envelope stream converted to the envelope again,
// at several caps and in both framings, assembles to the same blocks, and
// every envelope written is valid UTF-8 JSON of at most the cap (the
// exceptions: an envelope whose fixed fields leave no room for one
// character, in practice an image, and a citation, never split;
// TestCitationCap checks citations at the default cap).
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	for _, path := range testdataFiles(t) {
		for _, cap := range []int{2048, 512, 200, 128} {
			for _, ndjson := range []bool{false, true} {
				t.Run(filepath.Base(path)+"/"+itoa(cap)+map[bool]string{false: "/sse", true: "/ndjson"}[ndjson], func(t *testing.T) {
					t.Parallel()
					in, err := os.ReadFile(path)
					if err != nil {
						t.Fatal(err)
					}
					out := reencode(t, in, &jsonenv.Config{MaxChunkBytes: cap, NDJSON: ndjson})
					checkEnvelopes(t, out, cap, ndjson)
					if diff := cmp.Diff(assembletest.Blocks(t, parse.NewDecoder(bytes.NewReader(in), nil)), assembletest.Blocks(t, parse.NewDecoder(bytes.NewReader(out), nil))); diff != "" {
						t.Errorf("blocks differ after the round trip (-original +converted):\n%s", diff)
					}
				})
			}
		}
	}
}

func checkEnvelopes(t *testing.T, out []byte, cap int, ndjson bool) {
	t.Helper()
	for i, line := range strings.Split(string(out), "\n") {
		if !ndjson {
			if line == "" || line == "data: [DONE]" {
				continue
			}
			var ok bool
			line, ok = strings.CutPrefix(line, "data: ")
			if !ok {
				t.Fatalf("line %d: not an SSE data line: %q", i+1, line)
			}
		} else if line == "" {
			continue
		}
		if !utf8.ValidString(line) {
			t.Errorf("line %d: invalid UTF-8", i+1)
		}
		var env wire.Envelope
		if err := json.Unmarshal([]byte(line), &env); err != nil {
			t.Fatalf("line %d: invalid JSON: %v", i+1, err)
		}
		var fields map[string]json.RawMessage
		json.Unmarshal([]byte(line), &fields)
		fixed := len(line) - (len(fields["delta"]) - 2) // the envelope without its delta's text
		if env.Final {
			fixed++ // as the encoder measures it, with "final":false
		}
		known := env.Type != "checkpoint" // an unknown type is written back as it came
		if len(line) > cap && fixed+6 <= cap && env.Type != wire.TypeCitation && known {
			t.Errorf("line %d: %s envelope is %d bytes, cap %d", i+1, env.Type, len(line), cap)
		}
	}
}

func itoa(n int) string { return jsonNumber(n) }

func jsonNumber(n int) string { b, _ := json.Marshal(n); return string(b) }

// TestByteIdentical: streams whose envelopes the producer kept under 2048
// bytes come out byte for byte as they went in.
func TestByteIdentical(t *testing.T) {
	t.Parallel()
	for _, name := range []string{
		"tooluse.sse", "plain-text.sse", "thinking.sse", "subagent.sse",
		"tool-error.sse", "unicode.sse", "edge-citations.sse", "edge-multimodal.sse", "edge-text-escapes.sse",
		"hand-interleaved.sse",
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile("../../testdata/jsonenv/" + name)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(string(in), string(reencode(t, in, nil))); diff != "" {
				t.Errorf("output differs from input (-in +out):\n%s", diff)
			}
		})
	}
}

func BenchmarkEncode(b *testing.B) {
	in, err := os.ReadFile("../../testdata/jsonenv/long-text.sse")
	if err != nil {
		b.Fatal(err)
	}
	var evs []event.Event
	dec := parse.NewDecoder(bytes.NewReader(in), nil)
	for {
		ev, err := dec.Next()
		if err != nil {
			break
		}
		evs = append(evs, ev)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		enc := jsonenv.NewEncoder(io.Discard, nil)
		for _, ev := range evs {
			enc.Encode(ev)
		}
		enc.Close()
	}
}

// BenchmarkPipe measures decode + encode + a flush per event, as convert does.
func BenchmarkPipe(b *testing.B) {
	in, err := os.ReadFile("../../testdata/jsonenv/long-text.sse")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		w := bufio.NewWriter(io.Discard)
		enc := jsonenv.NewEncoder(w, nil)
		if err := convert.Pipe(parse.NewDecoder(bytes.NewReader(in), nil), enc, &convert.PipeOptions{Flush: w.Flush, Problem: func(error) bool { return true }}); err != nil {
			b.Fatal(err)
		}
		enc.Close()
	}
}

// TestCitationCap: at the default cap, citations are within it too.
func TestCitationCap(t *testing.T) {
	t.Parallel()
	in, err := os.ReadFile("../../testdata/jsonenv/edge-citations.sse")
	if err != nil {
		t.Fatal(err)
	}
	for _, line := range strings.Split(string(reencode(t, in, &jsonenv.Config{NDJSON: true})), "\n") {
		if len(line) > format.DefaultMaxChunkBytes {
			t.Errorf("envelope of %d bytes: %.80s", len(line), line)
		}
	}
}

// TestNoEmptyAgent: no envelope has "agent":"" (validate ENV009): an
// event with no agent gets Config.Agent, else the stream's first agent
// (the producer's error line read back belongs to the run), else
// DefaultAgent.
func TestNoEmptyAgent(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		cfg  jsonenv.Config
		in   []event.Event
		want []string
	}{
		{"configured agent", jsonenv.Config{Agent: "cfg"}, []event.Event{&event.Error{Message: "x", Fatal: true}}, []string{"cfg"}},
		{"the run's agent", jsonenv.Config{}, []event.Event{
			&event.BlockStart{Agent: "A", Kind: event.Text},
			&event.Delta{Agent: "A", Kind: event.Text, Text: "hi"},
			&event.BlockEnd{Agent: "A", Kind: event.Text},
			&event.Error{Message: "boom", Type: "RuntimeError", Fatal: true},
		}, []string{"A", "A", "A"}},
		{"nobody's", jsonenv.Config{}, []event.Event{&event.Error{Message: "x", Fatal: true}}, []string{jsonenv.DefaultAgent}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			var out strings.Builder
			e := jsonenv.NewEncoder(&out, &tc.cfg)
			for _, ev := range tc.in {
				if err := e.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			e.Close()
			var got []string
			for _, l := range strings.Split(out.String(), "\n") {
				_, after, ok := strings.Cut(l, `"agent":"`)
				if !ok {
					continue
				}
				a, _, _ := strings.Cut(after, `"`)
				got = append(got, a)
			}
			if diff := cmp.Diff(tc.want, got); diff != "" {
				t.Errorf("agents (-want +got):\n%s\n%s", diff, out.String())
			}
		})
	}
}

// TestServerErrorKept: the producer's server error line after partial text
// goes through jsonenv -> jsonenv as the error envelope's payload,
// verbatim: its traceback stays and it reads back as the fatal error.
func TestServerErrorKept(t *testing.T) {
	t.Parallel()
	const line = `{"error": "APIStatusError", "message": "overloaded", "traceback": "Traceback (most recent call last):\n  boom"}`
	in := "data: {\"type\":\"text\",\"agent\":\"main\",\"final\":false,\"delta\":\"Hel\"}\n\ndata: " + line + "\n\n"
	out := reencode(t, []byte(in), nil)
	var errs []*event.Error
	d := parse.NewDecoder(bytes.NewReader(out), nil)
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if e, ok := ev.(*event.Error); ok && err == nil {
			errs = append(errs, e)
		}
	}
	want := []*event.Error{{Agent: "main", Message: "overloaded", Type: "APIStatusError", Fatal: true, Raw: json.RawMessage(line)}}
	if diff := cmp.Diff(want, errs); diff != "" {
		t.Errorf("errors read back (-want +got):\n%s\noutput:\n%s", diff, out)
	}
}

// TestUnknownStopReason: a run end that names no stop reason writes
// meta_final's stop_reason as null (the producer's None), never "", and
// the run's service tier goes with its cumulative usage.
func TestUnknownStopReason(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	e := jsonenv.NewEncoder(&out, &jsonenv.Config{Agent: "a"})
	for _, ev := range []event.Event{
		&event.RunEnd{Agent: "a", Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, ServiceTier: "standard", Has: event.HasInput | event.HasOutput}},
	} {
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.Close(); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`\"stop_reason\":null`, `\"service_tier\":\"standard\"`} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("no %s in:\n%s", want, out.String())
		}
	}
}

// TestAbandoned: a message its source gave up and began again (a Claude
// retry) is taken back with a rollback envelope, never ended with a final
// one: read back, its text is no block of the answer (assemble drops it
// with the notice), the retry's text a block of its own, and no error is
// made up.
func TestAbandoned(t *testing.T) {
	t.Parallel()
	var out bytes.Buffer
	var warned []string
	enc := jsonenv.NewEncoder(&out, &jsonenv.Config{NDJSON: true, Warn: func(err error) { warned = append(warned, err.Error()) }})
	for _, ev := range []event.Event{
		&event.TurnStart{Agent: "a", MessageID: "m1"},
		&event.BlockStart{Agent: "a", Kind: event.Text},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "Half an ans"},
		&event.Notice{Agent: "a", Kind: event.NoticeAbandoned, Message: "message m1 was abandoned before its end and begun again"},
		&event.TurnEnd{Agent: "a", MessageID: "m1"},
		&event.TurnStart{Agent: "a", MessageID: "m2"},
		&event.BlockStart{Agent: "a", Kind: event.Text},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "The answer"},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
		&event.TurnEnd{Agent: "a", MessageID: "m2"},
	} {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	want := `{"type":"text","agent":"a","final":false,"delta":"Half an ans"}
{"type":"rollback","agent":"a","final":true,"delta":"{\"message\":\"message m1 was abandoned before its end and begun again\"}"}
{"type":"text","agent":"a","final":false,"delta":"The answer"}
{"type":"text","agent":"a","final":true,"delta":""}
`
	if diff := cmp.Diff(want, out.String()); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	for _, w := range warned {
		if strings.Contains(w, "abandoned") {
			t.Errorf("warned %q: the abandon is carried", w)
		}
	}
	var texts []string
	var ended []string
	dec := parse.NewDecoder(&out, nil)
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatalf("read back: %v", err)
		}
		switch ev := ev.(type) {
		case *event.Delta:
			texts = append(texts, ev.Text)
		case *event.BlockEnd:
			ended = append(ended, strings.Join(texts, ""))
			texts = nil
		case *event.Notice:
			texts = nil // the abandoned text: no block
		case *event.Error:
			t.Errorf("read back an error %q", ev.Message)
		}
	}
	if diff := cmp.Diff([]string{"The answer"}, ended); diff != "" {
		t.Errorf("blocks read back (-want +got):\n%s", diff)
	}
}
