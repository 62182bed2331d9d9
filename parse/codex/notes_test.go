package codex

import (
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

// TestPayloadNotes: the JSON an event carries (a call's input, a
// result's structured content, the raw line or item) is noted valid JSON
// (event.Checked), and compact too when its line was read whole by the
// one-pass reader without white space outside its strings: the line of
// the item's last state, for an item let go at its turn's end.
func TestPayloadNotes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		in   []string
		want []string // the events with a payload: type and note
	}{
		{
			name: "command",
			in: []string{
				`{"type":"item.started","item":{"id":"c","type":"command_execution","command":"ls","status":"in_progress"}}`,
				`{"type":"item.started", "item":{"id":"d","type":"command_execution","command":"ls","status":"in_progress"}}`,
			},
			want: []string{"ToolCall compact", "ToolCall valid"},
		},
		{
			name: "error line",
			in: []string{
				`{"type":"error","message":"a \"b\" c"}`,
				`{"type":"error","message":"busy" }`,
				`{"type":"error","message": "busy"}`,
				`{"type":"error","message":"busy","code":1}`,
			},
			want: []string{"Error compact", "Error valid", "Error valid", "Error compact"},
		},
		{
			name: "mcp",
			in: []string{
				`{"type":"item.completed","item":{"id":"m","type":"mcp_tool_call","server":"s","tool":"t","arguments":{"q":"a b"},"result":{"content":[],"structured_content":{"n":1}},"status":"completed"}}`,
				`{"type":"item.completed","item":{"id":"n","type":"mcp_tool_call","server":"s","tool":"t","result":{"content":[],"structured_content":{"n": 1}},"status":"completed"}}`,
			},
			want: []string{"ToolCall compact", "ToolResult compact", "ToolCall valid", "ToolResult valid"},
		},
		{
			name: "plan and error items",
			in: []string{
				`{"type":"item.completed","item":{"id":"p","type":"plan","text":"x"}}`,
				`{"type":"item.completed","item":{"id":"e","type":"error","message":"x"}}`,
				`{"type":"item.completed","item":{"id":"e","type":"error","message":"x"}}` + " ",
			},
			want: []string{"Notice compact", "Error compact", "Error valid"},
		},
		{
			name: "web search let go at its turn's end",
			in: []string{
				`{"type":"turn.started"}`,
				`{"type":"item.started","item":{"id":"w","type":"web_search","query":"", "action":{"type":"other"}}}`,
				`{"type":"turn.completed","usage":{"input_tokens":1}}`,
				`{"type":"item.started","item":{"id":"v","type":"web_search","query":"","action":{"type":"other"}}}`,
				`{"type":"turn.completed","usage": {"input_tokens":2}}`,
			},
			want: []string{"ToolCall valid", "ToolCall compact"},
		},
		{
			name: "collab call",
			in: []string{
				`{"type":"item.completed","item":{"id":"k","type":"collab_tool_call","tool":"wait","sender_thread_id":"a","receiver_thread_ids":["b"],"agents_states":{"b":{"status":"completed","message":"done"}},"status":"completed"}}`,
			},
			want: []string{"ToolCall compact", "ToolResult compact"},
		},
		{
			name: "unknown",
			in: []string{
				`{"type":"thread.archived","thread_id":"a"}`,
				`{"type":"item.completed","item":{"id":"x","type":"command_execution","exit_code":"0"}}`,
				`{"type":1}`, // read by encoding/json
			},
			want: []string{"Unknown compact", "Unknown compact", "Unknown valid"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs, _ := decodeAll(strings.NewReader(strings.Join(tt.in, "\n")+"\n"), nil)
			var got []string
			for _, ev := range evs {
				p, note, ok := payload(ev)
				if !ok {
					continue
				}
				what := "none"
				switch {
				case note.Compact(p):
					what = "compact"
				case note.Valid(p):
					what = "valid"
				}
				got = append(got, strings.TrimPrefix(fmt.Sprintf("%T", ev), "*event.")+" "+what)
				if _, err := fuzzcheck.Notes(ev); err != nil {
					t.Error(err)
				}
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("notes differ (-want +got):\n%s", diff)
			}
		})
	}
}

// payload returns the JSON payload an event of the decoder carries, and
// its note.
func payload(ev event.Event) ([]byte, event.Checked, bool) {
	switch ev := ev.(type) {
	case *event.ToolCall:
		return ev.Input, ev.Checked, true
	case *event.ToolResult:
		return ev.Structured, ev.Checked, ev.Structured != nil
	case *event.Error:
		return ev.Raw, ev.Checked, true
	case *event.Notice:
		return ev.Raw, ev.Checked, true
	case *event.Unknown:
		return ev.Raw, ev.Checked, true
	}
	return nil, event.Checked{}, false
}
