package claude

import (
	"bytes"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
)

// oddStrings are strings whose escaping Marshal and the appenders must
// agree on.
var oddStrings = []string{"", "plain", "q\"b\\<&>\u2028\u2029\x01\b\fé", "bad \xff", "日本 🎌\n\t"}

func TestAppendInitAsMarshal(t *testing.T) {
	t.Parallel()
	e := NewEncoder(nil, nil) // what it keeps of each line made is checked on the next
	for i := range 2 * len(oddStrings) {
		s := oddStrings[i/2]
		for _, tools := range [][]string{nil, {}, {"Bash", s}, {}} {
			e.n = 0
			e.setSession(s)
			want, err := messages.Marshal(wire.Init{
				Type: wire.TypeSystem, Subtype: wire.SubtypeInit, Cwd: s, SessionID: s, Tools: tools,
				MCPServers: []any{}, Model: s + "m", PermissionMode: "default", SlashCommands: []string{},
				APIKeySource: "none", ClaudeCodeVersion: "agentstream", OutputStyle: "default", Agents: []string{},
				Skills: []string{}, Plugins: []any{}, UUID: e.uuid(),
			})
			if err != nil {
				t.Fatal(err)
			}
			e.n = 0
			if diff := cmp.Diff(string(want), string(e.appendInit(nil, s, s+"m", tools))); diff != "" {
				t.Errorf("%q %#v (-Marshal +appendInit):\n%s", s, tools, diff)
			}
		}
	}
}

// TestAppendInitTools: the init lines of one encoder, whose tools' JSON
// is kept from one to the next, list each its own tools.
func TestAppendInitTools(t *testing.T) {
	t.Parallel()
	e := NewEncoder(nil, nil)
	for _, tools := range [][]string{{"Bash", "Read"}, {"Bash", "Read"}, {"Bash"}, {}, nil, {"é\u2028", "x"}, {"é\u2028", "x"}, {"Bash"}} {
		want := appendStrings(nil, tools)
		if tools == nil {
			want = []byte("null")
		}
		if got := e.appendInit(nil, "", "", tools); !bytes.Contains(got, append(append([]byte(`"tools":`), want...), ',')) {
			t.Errorf("tools %#v: init %s", tools, got)
		}
	}
}

func TestAppendResultAsMarshal(t *testing.T) {
	t.Parallel()
	floats := []float64{0, 1, -1, 0.1234, 1e-7, -1e-7, 1e-6, 1e20, 1e21, 123456789.125, 5e-324, math.MaxFloat64}
	for i, s := range oddStrings {
		for j, f := range floats {
			r := wire.Result{
				Type: wire.TypeResult, Subtype: s, IsError: j%2 == 0, DurationMS: int64(j) * 1000, DurationAPIMS: -3,
				NumTurns: i, SessionID: s, TotalCostUSD: &f, ModelUsage: map[string]wire.ModelUsage{},
				PermissionDenials: []any{}, UUID: s + "u",
			}
			u := &event.Usage{InputTokens: int64(j), OutputTokens: 7, Has: event.HasTokens}
			switch j % 4 {
			case 0:
				r.Result, r.StopReason, r.Errors = &s, &s, []string{s, "x"}
				u.CacheWriteTokens, u.ServiceTier, u.Has = 3, s, u.Has|event.HasCacheWrite
			case 1:
				r.Errors = []string{}
				u.CacheReadTokens, u.Has = 0, u.Has|event.HasCacheRead // a 0 said
			case 2:
				empty := ""
				r.Result = &empty
				u = nil
			}
			// The usage as AppendUsage writes a message's (checked
			// against Marshal in internal/messages) in Marshal's null.
			marshal := func(r wire.Result) ([]byte, error) {
				b, err := messages.Marshal(r)
				return bytes.Replace(b, []byte(`"usage":null`), append([]byte(`"usage":`), messages.AppendUsage(nil, u)...), 1), err
			}
			want, err := marshal(r)
			if err != nil {
				t.Fatal(err)
			}
			got, ok := appendResult(nil, &r, u, nil, nil, nil, nil)
			if diff := cmp.Diff(string(want), string(got)); !ok || diff != "" {
				t.Errorf("%q %v (-Marshal +appendResult):\n%s", s, f, diff)
			}
			// The uuid given apart, as the encoder gives its own.
			uuid := r.UUID
			r.UUID = "0b1a3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d"
			want2, _ := marshal(r)
			r2 := r
			r2.UUID = "not this one"
			if got, _ := appendResult(nil, &r2, u, nil, []byte(r.UUID), nil, nil); string(got) != string(want2) {
				t.Errorf("%q %v: with the uuid given: %s, want %s", s, f, got, want2)
			}
			r.UUID = uuid
			// The session id given apart as JSON, as the encoder keeps it.
			session, _ := messages.Marshal(r.SessionID)
			if got, _ := appendResult(nil, &r, u, nil, nil, session, nil); string(got) != string(want) {
				t.Errorf("%q %v: with the session given: %s, want %s", s, f, got, want)
			}
			// The errors given apart as JSON, as the encoder keeps them.
			var texts escapedTexts
			if got, _ := appendResult(nil, &r, u, nil, nil, nil, texts.appendStrings(nil, r.Errors)); len(r.Errors) > 0 && string(got) != string(want) {
				t.Errorf("%q %v: with the errors given: %s, want %s", s, f, got, want)
			}
			if r.Result != nil {
				text, _ := messages.Marshal(*r.Result)
				if got, _ := appendResult(nil, &r, u, text, nil, nil, nil); string(got) != string(want) {
					t.Errorf("%q %v: with the result text given: %s, want %s", s, f, got, want)
				}
			}
		}
	}
	// A count the source did not give: null, its unknown form, never 0;
	// a cache count it gave, 0 among them, written.
	for _, tt := range []struct {
		u    *event.Usage
		want string
	}{
		{&event.Usage{OutputTokens: 5, Has: event.HasOutput}, `"usage":{"input_tokens":null,"output_tokens":5}`},
		{&event.Usage{InputTokens: 5, Has: event.HasInput}, `"usage":{"input_tokens":5,"output_tokens":null}`},
		{&event.Usage{InputTokens: 5, OutputTokens: 1, Has: event.HasTokens | event.HasCacheRead}, `"usage":{"input_tokens":5,"cache_read_input_tokens":0,"output_tokens":1}`},
		{&event.Usage{}, `"usage":{"input_tokens":null,"output_tokens":null}`},
		{nil, `"usage":{"input_tokens":null,"output_tokens":null}`},
	} {
		if got, _ := appendResult(nil, &wire.Result{}, tt.u, nil, nil, nil, nil); !strings.Contains(string(got), tt.want) {
			t.Errorf("usage %+v: %s, want it to hold %s", tt.u, got, tt.want)
		}
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		r := wire.Result{TotalCostUSD: &f}
		if _, ok := appendResult(nil, &r, &event.Usage{}, nil, nil, nil, nil); ok {
			t.Errorf("appendResult with cost %v: ok", f)
		}
	}
}

// oldToolResult is the tool result line as encoding/json wrote it before
// toolResult appended it.
func oldToolResult(e *Encoder, a *agent, ev *event.ToolResult) []byte {
	type resultContent struct {
		Type   string `json:"type"`
		Text   string `json:"text,omitempty"`
		Source *struct {
			Type      string `json:"type"`
			MediaType string `json:"media_type,omitempty"`
			Data      string `json:"data,omitempty"`
			URL       string `json:"url,omitempty"`
		} `json:"source,omitempty"`
	}
	marshal := func(v any) json.RawMessage { b, _ := messages.Marshal(v); return b }
	var content json.RawMessage
	if len(ev.Content) == 1 && ev.Content[0].Type == "text" {
		content = marshal(ev.Content[0].Text)
	} else {
		parts := make([]json.RawMessage, 0, len(ev.Content))
		for _, p := range ev.Content {
			switch {
			case p.Type == "text":
				parts = append(parts, marshal(resultContent{Type: "text", Text: p.Text}))
			case p.Type == "image":
				c := resultContent{Type: "image"}
				c.Source = &struct {
					Type      string `json:"type"`
					MediaType string `json:"media_type,omitempty"`
					Data      string `json:"data,omitempty"`
					URL       string `json:"url,omitempty"`
				}{Type: "url", MediaType: p.MediaType, URL: p.Source}
				if rest, ok := strings.CutPrefix(p.Source, "data:"); ok {
					if mt, data, ok := strings.Cut(rest, ";base64,"); ok {
						if mt == "" {
							mt = p.MediaType
						}
						c.Source.Type, c.Source.MediaType, c.Source.Data, c.Source.URL = "base64", mt, data, ""
					}
				}
				parts = append(parts, marshal(c))
			case json.Valid([]byte(p.Text)) && strings.HasPrefix(strings.TrimSpace(p.Text), "{"):
				parts = append(parts, jsontext.Compact([]byte(p.Text)))
			default:
				parts = append(parts, marshal(resultContent{Type: "text", Text: p.Text}))
			}
		}
		content = marshal(parts)
	}
	type block struct {
		ToolUseID string          `json:"tool_use_id"`
		Type      string          `json:"type"`
		Content   json.RawMessage `json:"content"`
		IsError   *bool           `json:"is_error,omitempty"`
	}
	line := struct {
		Type    string `json:"type"`
		Message struct {
			Role    string  `json:"role"`
			Content []block `json:"content"`
		} `json:"message"`
		header
		ToolUseResult json.RawMessage `json:"tool_use_result,omitempty"`
	}{Type: wire.TypeUser, header: e.header(a)}
	line.Message.Role = "user"
	line.Message.Content = []block{{ToolUseID: ev.ID, Type: anthropic.BlockToolResult, Content: content, IsError: isError(a, ev)}}
	if len(ev.Structured) > 0 && json.Valid(ev.Structured) {
		line.ToolUseResult = jsontext.Compact(ev.Structured)
	}
	return append(marshal(line), '\n')
}

func TestToolResultAsMarshal(t *testing.T) {
	t.Parallel()
	var results []*event.ToolResult
	for _, s := range oddStrings {
		results = append(results,
			&event.ToolResult{ID: s, Name: "Bash", Content: []event.Part{{Type: "text", Text: s}}},
			&event.ToolResult{ID: s, Name: "Read", IsError: true, Content: []event.Part{{Type: "text", Text: s}, {Type: "text"}}},
			&event.ToolResult{ID: s, Name: "Read", Structured: []byte(" {\"a\": [1, \"" + s + " x\"]}\n")},
			&event.ToolResult{ID: s, Structured: []byte(`{"a":`)},
			&event.ToolResult{ID: s, Content: []event.Part{
				{Type: "image", Source: "data:image/png;base64,AAA" + s, MediaType: "image/gif"},
				{Type: "image", Source: "data:;base64,AAA", MediaType: s},
				{Type: "image", Source: "https://x/" + s, MediaType: s},
				{Type: "image", Source: "data:x" + s},
				{Type: "document", Text: " {\"type\": \"document\", \"t\": \"" + s + "\"} "},
				{Type: "document", Text: `{"type": "document"`},
				{Type: "document", Text: `[1]`},
				{Type: "document", Text: s},
				{Type: "text", Text: s},
			}},
		)
	}
	for _, ev := range results {
		var out bytes.Buffer
		e := NewEncoder(&out, nil)
		e.setSession(ev.ID)
		a := &agent{id: "main", names: map[string]string{}}
		e.n = 0
		want := oldToolResult(e, a, ev)
		e.n = 0
		e.toolResult(a, ev)
		if diff := cmp.Diff(string(want), out.String()); diff != "" {
			t.Errorf("%+v (-Marshal +toolResult):\n%s", ev, diff)
		}
	}
}

func TestAppendFloatAsMarshal(t *testing.T) {
	t.Parallel()
	for _, f := range []float64{0, math.Copysign(0, -1), 1, 1.5, 1e-6, 9.99e-7, 1e-7, 1.234e-10, 1e20, 1e21, 1.5e300, -2e-300, 0.000001} {
		want, _ := json.Marshal(f)
		if got, ok := appendFloat(nil, f); !ok || string(got) != string(want) {
			t.Errorf("appendFloat(%v) = %s, want %s", f, got, want)
		}
	}
}

var compactSeeds = []string{
	`{}`, ` { "a" : [ 1 , 2 ] } `, "{\"a\\\"\": \"b \\\\\", \"c\":\t\n\r\"\\\\\\\" x\"}", `"  "`, `[ ]`,
	`{"a":"\u0020 "}`, "{\"a\":1}\n", `{"a":`, `{"a" "b"}`, `nul`, ``, ` `,
}

// checkCompact checks compactJSON against json.Valid and json.Compact.
func checkCompact(t *testing.T, e *Encoder, raw []byte) {
	t.Helper()
	var want bytes.Buffer
	wantOK := json.Valid(raw) && json.Compact(&want, raw) == nil
	got, ok := e.compactJSON(slices.Clone(raw), event.Checked{})
	if ok != wantOK || ok && !bytes.Equal(got, want.Bytes()) {
		t.Errorf("compactJSON(%q) = %q, %v; json.Compact: %q, %v", raw, got, ok, want.Bytes(), wantOK)
	}
}

func TestCompactJSON(t *testing.T) {
	t.Parallel()
	e := NewEncoder(nil, nil)
	for _, s := range compactSeeds {
		checkCompact(t, e, []byte(s))
	}
}

func FuzzCompactJSON(f *testing.F) {
	for _, s := range compactSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, raw []byte) {
		checkCompact(t, NewEncoder(nil, nil), raw)
	})
}

// oldNoteText is what noteText kept before it passed over blocks of
// other types: the text, as JSON, of a text block, else prev.
func oldNoteText(block, prev []byte) []byte {
	var b anthropic.Block
	if anthropic.UnmarshalBlock(block, &b) == nil && b.Type == anthropic.BlockText && b.Text != nil {
		return jsontext.AppendMarshalString(nil, *b.Text)
	}
	return prev
}

var noteTextSeeds = []string{
	`{"type":"text","text":"a \u00e9"}`, `{"type":"text","text":"x","citations":[{"a":1}]}`,
	`{"type":"thinking","thinking":"t","signature":"s"}`, `{"type":"tool_use","id":"i","name":"n","input":{"type":"text"}}`,
	`{"type":"thinking","type":"text","text":"dup"}`, `{"type":"thinking","Type":"text","text":"fold"}`,
	`{"type":"thinking","text":"x"}`, `{"type":"thinking","thinking":5}`, `{"type":"tool_use","input":`,
	`{"type":null,"text":"x"}`, `{"text":"x","type":"text"}`, `{"type":"text"}`, `[]`, ``,
}

// checkNoteText checks noteText against oldNoteText: the result text it
// keeps is the same JSON text or one that decodes to the same string.
func checkNoteText(t *testing.T, block []byte) {
	t.Helper()
	e := NewEncoder(nil, nil)
	prev := []byte(`"before"`)
	e.lastText = slices.Clone(prev)
	e.noteText(block)
	want := oldNoteText(block, prev)
	if string(want) != string(e.lastText) && jsonString(want) != jsonString(e.lastText) {
		t.Errorf("noteText(%q) kept %q, want %q", block, e.lastText, want)
	}
}

func TestNoteText(t *testing.T) {
	t.Parallel()
	for _, s := range noteTextSeeds {
		checkNoteText(t, []byte(s))
	}
}

func FuzzNoteText(f *testing.F) {
	for _, s := range noteTextSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, block []byte) {
		checkNoteText(t, block)
	})
}

// TestResultOfRawBlock: the result text taken from a block written as
// its Unknown event came (not escaped as Marshal escapes) is escaped as
// Marshal does; one of the Streamer's is spliced as it is.
func TestResultOfRawBlock(t *testing.T) {
	t.Parallel()
	end := &event.BlockEnd{Agent: "a", Kind: event.Text}
	for _, tc := range []struct {
		evs  []event.Event
		want string
	}{
		{[]event.Event{&event.Unknown{Agent: "a", Format: anthropic.Format, Raw: []byte("{\"type\":\"text\",\"text\":\"x\u2028y\\u00e9\"}")}}, `"result":"x\u2028yé"`},
		{[]event.Event{&event.Unknown{Agent: "a", Format: anthropic.Format, Raw: []byte("{\"type\":\"text\",\"text\":\"x\u2028y\"}")}}, `"result":"x\u2028y"`},
		{[]event.Event{&event.Delta{Agent: "a", Kind: event.Text, Text: "x\u2028y\xff"}, end}, `"result":"x\u2028y` + "\ufffd" + `"`},
		{[]event.Event{&event.Delta{Agent: "a", Kind: event.Text, Text: "x\u2028yé"}, end}, `"result":"x\u2028yé"`},
	} {
		var out bytes.Buffer
		e := NewEncoder(&out, nil)
		evs := append(append([]event.Event{&event.SessionStart{Agent: "a"}}, tc.evs...), &event.RunEnd{Agent: "a"})
		for _, ev := range evs {
			if err := e.Encode(ev); err != nil {
				t.Fatal(err)
			}
		}
		if !strings.Contains(out.String(), tc.want) {
			t.Errorf("%#v: no %s in\n%s", tc.evs[0], tc.want, out.String())
		}
	}
}

// TestEscapedTexts: escapedTexts writes every text as
// jsontext.AppendMarshalString does, kept or not, however the texts
// repeat and whatever their lengths.
func TestEscapedTexts(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("\"é<", maxEscapedText)
	texts := []string{"", "a", "a\"b", "\u2028\x00\xff", long, "a", "b", "c", "d", "e", "a", long, "", "d", "c", long[1:], "e"}
	var c escapedTexts
	for round := range 3 {
		for i, s := range texts {
			if got, want := string(c.append([]byte("x"), s)), "x"+string(jsontext.AppendMarshalString(nil, s)); got != want {
				t.Fatalf("round %d, text %d: %q, want %q", round, i, got, want)
			}
		}
		if got, want := string(c.appendStrings(nil, texts)), string(appendStrings(nil, texts)); got != want {
			t.Fatalf("round %d: array %q, want %q", round, got, want)
		}
	}
}

// TestCompactJSONNoted: a payload its decoder noted compact is written
// as it is, not read again (the decoder vouches for it); a note of other
// bytes is no note.
func TestCompactJSONNoted(t *testing.T) {
	t.Parallel()
	e := NewEncoder(nil, nil)
	raw := []byte(`{"a": 1}`) // spaced: only a note makes it go as it is
	if got, ok := e.compactJSON(raw, event.CompactJSON(raw)); !ok || &got[0] != &raw[0] || len(got) != len(raw) {
		t.Errorf("noted compact: %q, %v; want the payload itself", got, ok)
	}
	if got, ok := e.compactJSON(raw, event.CompactJSON(slices.Clone(raw))); !ok || string(got) != `{"a":1}` {
		t.Errorf("noted a copy: %q, %v; want it compacted", got, ok)
	}
}

// TestAppendName: the names appendName writes as they are are written as
// jsontext.AppendMarshalString writes them.
func TestAppendName(t *testing.T) {
	t.Parallel()
	for _, s := range []string{wire.TypeResult, wire.SubtypeSuccess, wire.SubtypeErrorDuring, unknownErrorType, TurnFailedErrorType, "q\"\n"} {
		if got, want := appendName(nil, s), jsontext.AppendMarshalString(nil, s); string(got) != string(want) {
			t.Errorf("appendName(%q) = %s, want %s", s, got, want)
		}
	}
}
