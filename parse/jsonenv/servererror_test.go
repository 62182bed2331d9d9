package jsonenv_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestServerErrorAgent checks that the producer's fatal error line, which
// names no agent, belongs to the agent whose block it interrupted, or to
// the main agent: never to a phantom agent "".
func TestServerErrorAgent(t *testing.T) {
	t.Parallel()
	const line = `{"error": "RuntimeError", "message": "boom", "traceback": "Traceback\nRuntimeError: boom"}`
	env := func(typ, agent string, final bool, delta string) string {
		b, _ := json.Marshal(map[string]any{"type": typ, "agent": agent, "final": final, "delta": delta})
		return "data: " + string(b) + "\n\n"
	}
	fatal := func(agent string) *event.Error {
		return &event.Error{Agent: agent, Type: "RuntimeError", Message: "boom", Fatal: true, Raw: json.RawMessage(line)}
	}
	tests := []struct {
		name string
		in   string
		want []event.Event
	}{
		{
			name: "inside the subagent's open block",
			in: env("text", "main", true, "a") + env("text", "main", false, "M") + env("thinking", "sub", false, "S") +
				"data: " + line + "\n\n",
			want: []event.Event{
				&event.BlockStart{Agent: "main", Kind: event.Text},
				&event.Delta{Agent: "main", Kind: event.Text, Text: "a"},
				&event.BlockEnd{Agent: "main", Kind: event.Text},
				&event.BlockStart{Agent: "main", Kind: event.Text},
				&event.Delta{Agent: "main", Kind: event.Text, Text: "M"},
				&event.BlockStart{Agent: "sub", Kind: event.Thinking},
				&event.Delta{Agent: "sub", Kind: event.Thinking, Text: "S"},
				fatal("sub"),
			},
		},
		{
			name: "between blocks: the main agent",
			in:   env("text", "main", true, "a") + env("text", "sub", true, "b") + "data: " + line + "\n\n",
			want: []event.Event{
				&event.BlockStart{Agent: "main", Kind: event.Text},
				&event.Delta{Agent: "main", Kind: event.Text, Text: "a"},
				&event.BlockEnd{Agent: "main", Kind: event.Text},
				&event.BlockStart{Agent: "sub", Kind: event.Text},
				&event.Delta{Agent: "sub", Kind: event.Text, Text: "b"},
				&event.BlockEnd{Agent: "sub", Kind: event.Text},
				fatal("main"),
			},
		},
		{
			name: "an error envelope carrying the server error line keeps it fatal",
			in:   env("error", "main", true, line),
			want: []event.Event{fatal("main")},
		},
		{
			name: "an Anthropic error object is not fatal",
			in:   env("error", "main", true, `{"type": "overloaded_error", "message": "Overloaded"}`),
			want: []event.Event{&event.Error{
				Agent: "main", Type: "overloaded_error", Message: "Overloaded",
				Raw: json.RawMessage(`{"type": "overloaded_error", "message": "Overloaded"}`),
			}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, _ := decodeAll(t, strings.NewReader(tt.in))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}
