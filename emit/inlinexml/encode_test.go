package inlinexml

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/inlinexml"
	"github.com/agentstream/agentstream/toolset"
)

func encode(t *testing.T, evs []event.Event) (string, []string, error) {
	t.Helper()
	var b bytes.Buffer
	var warnings []string
	enc := NewEncoder(&b, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	err := enc.Close()
	return b.String(), warnings, err
}

func TestEncode(t *testing.T) {
	t.Parallel()
	one := 1
	tests := []struct {
		name     string
		in       []event.Event
		want     string
		warnings []string
	}{
		{
			name: "text thinking call result completion",
			in: []event.Event{
				&event.SessionStart{Model: "m"},
				&event.BlockStart{Kind: event.Thinking},
				&event.Delta{Kind: event.Thinking, Text: "plan a < b"},
				&event.BlockEnd{Kind: event.Thinking, Signature: "sig"},
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "Reading."},
				&event.BlockEnd{Kind: event.Text},
				&event.ToolCall{ID: "toolu_1", Name: "read_file", Input: json.RawMessage(`{"path":"a.go","start_line":10,"opts":{"x":[1]}}`)},
				&event.ToolResult{ID: "toolu_1", Content: []event.Part{{Type: "text", Text: "package a\n"}}},
				&event.ToolCall{ID: "toolu_2", Name: "write_to_file", Input: json.RawMessage(`{"path":"b.html","content":"<a>\n</content>\n</a>\n"}`)},
				&event.ToolResult{ID: "toolu_2", IsError: true, ExitCode: &one, Content: []event.Part{{Type: "text", Text: "denied"}, {Type: "image", Source: "data:"}}},
				&event.TurnEnd{StopReason: "end_turn"},
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "All done."},
				&event.BlockEnd{Kind: event.Text},
				&event.RunEnd{Result: "All done.", Turns: 2},
				&event.RunEnd{Result: "Really done."},
			},
			want: "<thinking>plan a < b</thinking>\nReading.\n" +
				"<read_file>\n<path>a.go</path>\n<start_line>10</start_line>\n<opts>{\"x\":[1]}</opts>\n</read_file>\n" +
				"<tool_result tool_name=\"read_file\">\npackage a\n\n</tool_result>\n" +
				"<write_to_file>\n<path>b.html</path>\n<content>\n<a>\n</content>\n</a>\n\n</content>\n</write_to_file>\n" +
				"<tool_result tool_name=\"write_to_file\">\nError: denied\n</tool_result>\nAll done.\n" +
				"<attempt_completion>\n<result>Really done.</result>\n</attempt_completion>\n",
			warnings: []string{
				"inlinexml cannot carry session metadata",
				"inlinexml cannot carry thinking signatures",
				"inlinexml cannot carry tool result images",
				"inlinexml cannot carry structured tool output and exit codes",
				"inlinexml cannot carry turn boundaries and usage",
			},
		},
		{
			name: "completion call is not repeated by the run end",
			in: []event.Event{
				&event.ToolCall{ID: "1", Name: "attempt_completion", Input: json.RawMessage(`{"result":"R\nS","command":"open x"}`)},
				&event.RunEnd{Result: "R\nS"},
			},
			want: "<attempt_completion>\n<result>\nR\nS\n</result>\n<command>open x</command>\n</attempt_completion>\n",
		},
		{
			name: "other agents are not written",
			in: []event.Event{
				&event.Delta{Kind: event.Text, Text: "main"},
				&event.BlockEnd{Kind: event.Text},
				&event.Delta{Agent: "sub", Kind: event.Text, Text: "sub"},
				&event.Notice{Kind: "x"},
			},
			want: "main",
			warnings: []string{
				"inlinexml cannot carry the events of other agents (only the first agent's are written)",
				"inlinexml cannot carry notices",
			},
		},
		{
			name: "values the protocol cannot hold",
			in: []event.Event{
				&event.ToolCall{ID: "1", Name: "my tool", Input: json.RawMessage(`{" a ":" v ","p":"x</p>"}`)},
				&event.ToolCall{ID: "2", Name: "t", Input: json.RawMessage(`"not an object"`)},
			},
			want: "<my tool>\n< a > v </ a >\n<p>x</p></p>\n</my tool>\n<t>\n<input>\"not an object\"</input>\n</t>\n",
			warnings: []string{
				"inlinexml cannot carry tool names that are not tag names",
				"inlinexml cannot carry parameter names that are not tag names",
				"inlinexml cannot carry white space around parameter values",
				"inlinexml cannot carry parameter values holding their own close tag",
				"inlinexml cannot carry tool input that is not a JSON object",
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, warnings, err := encode(t, tt.in)
			if err != nil {
				t.Errorf("Close: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func TestCloseOpenThinking(t *testing.T) {
	t.Parallel()
	got, _, err := encode(t, []event.Event{&event.Delta{Kind: event.Thinking, Text: "hm"}})
	if got != "<thinking>hm</thinking>\n" || err == nil || !strings.Contains(err.Error(), "stream truncated") {
		t.Errorf("got %q, %v; want the thinking closed and a truncation error", got, err)
	}
}

// samples are the decoder's samples that read back alike (cut off or
// invalid ones do not).
var samples = eventtest.TextProtocol{
	Dir: "../../testdata/inlinexml",
	Decoder: func(r io.Reader, source string, tools []toolset.Tool) event.Decoder {
		return inlinexml.NewDecoder(r, &inlinexml.Config{Source: source, Tools: tools})
	},
	Cut: func(name string) bool { return strings.Contains(name, "truncated") || strings.Contains(name, "probe") },
}

// TestRoundTrip decodes each sample, encodes the events and decodes the
// text again: the events must not change.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	samples.RoundTrip(t, samples.Cut, func(t *testing.T, evs []event.Event) (string, error) {
		text, _, err := encode(t, evs)
		return text, err
	})
}

// BenchmarkEncode encodes the samples' events, repeated to about 1 MB of
// text.
func BenchmarkEncode(b *testing.B) {
	samples.BenchEncode(b, func(w io.Writer) event.Encoder { return NewEncoder(w, nil) })
}

// TestMembers checks the one-pass reading of a tool input against
// eachMember and json.Unmarshal, which it stands in for: where it takes
// the input, it must give the same parameters.
func TestMembers(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{}`, ` { "a" : "x" } `, `{"a":"x","a":"y"}`, `{"path":"a\nb","n":12,"f":-1.5e3,"b":true,"z":null}`,
		`{"o":{"k":[1,"2",{"x":null}]},"arr":[]}`, `{"u":"\u00e9\ud83d\ude00\u0000","s":"\"<>&"}`,
		`{"Caps":"x"}`, `{"bad":"\xff"}`, `{"a":1} trailing`, `{"a":}`, `[1]`, `"s"`, ``, `{"é":1}`, `{"a\"b":1}`,
		"{\"bad\":\"a\xffb\"}",
	} {
		e := NewEncoder(io.Discard, nil)
		fast := e.members([]byte(in))
		got := slices.Clone(e.params)
		var want [][2]string
		err := eachMember([]byte(in), func(k string, v json.RawMessage) {
			var s string
			if json.Unmarshal(v, &s) != nil {
				s = string(v)
			}
			want = append(want, [2]string{k, s})
		})
		if !fast {
			continue
		}
		if err != nil {
			t.Errorf("%q: read in one pass, but eachMember fails: %v", in, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%q (-eachMember +members):\n%s", in, diff)
		}
	}
}
