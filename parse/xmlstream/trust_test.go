package xmlstream

import (
	"encoding/json"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestTrust covers what issue 12 found misread: an error element inside an
// open text block, input cut inside its last SSE message, [DONE].
func TestTrust(t *testing.T) {
	t.Parallel()
	apiErr := `{"type": "overloaded_error", "message": "Overloaded"}`
	open := func(kind event.BlockKind, s string) []event.Event {
		return []event.Event{&event.BlockStart{Kind: kind}, &event.Delta{Kind: kind, Text: s}}
	}
	tests := []struct {
		name     string
		in       string
		cfg      Config
		want     []event.Event
		problems []string
	}{
		{
			name: "an error element inside an open text block is the error, and the retry a new block",
			in: sse("<content-block-text>", "Hello wor", "<content-block-error><![CDATA["+apiErr+"]]></content-block-error>",
				"<content-block-text>", "Hello world", "</content-block-text>", "[DONE]"),
			want: cat(open(event.Text, "Hello wor"),
				[]event.Event{&event.Error{Type: "overloaded_error", Message: "Overloaded", Raw: json.RawMessage(apiErr)}},
				text("Hello world")),
		},
		{
			name: "an error element inside thinking, and nothing after it: the block is reported cut",
			in:   sse("<content-block-thinking>", "hmm", "<content-block-error><![CDATA["+apiErr+"]]></content-block-error>"),
			want: cat(open(event.Thinking, "hmm"),
				[]event.Event{&event.Error{Type: "overloaded_error", Message: "Overloaded", Raw: json.RawMessage(apiErr)}}),
			problems: []string{"in:5:1: stream ended inside a thinking block an error interrupted"},
		},
		{
			name: "the error element's start split across messages",
			in:   sse("<content-block-text>", "ab<content-block-er", "ror><![CDATA["+apiErr+"]]></content-block-error>"),
			want: cat(open(event.Text, "ab"),
				[]event.Event{&event.Error{Type: "overloaded_error", Message: "Overloaded", Raw: json.RawMessage(apiErr)}}),
			problems: []string{"in:5:1: stream ended inside a text block an error interrupted"},
		},
		{
			name: "an error tag without CDATA stays text",
			in:   sse("<content-block-text>", "see <content-block-error> here", "</content-block-text>"),
			want: text("see <content-block-error> here"),
		},
		{
			name:     "cut inside [DONE]: a truncation, no text block",
			in:       sse("<content-block-text>Hello</content-block-text>") + "data: [DO",
			want:     text("Hello"),
			problems: []string{"in:3:1: stream ended inside an SSE message"},
		},
		{
			name:     "cut inside the end tag: no end tag text",
			in:       sse("<content-block-text>", "Hello") + "data: </content-block",
			want:     open(event.Text, "Hello"),
			problems: []string{"in:3:1: stream ended inside content-block-text"},
		},
		{
			name:     "cut inside a delta: what the cut message held is dropped",
			in:       sse("<content-block-text>", "Hello") + "data: Hello</content-block-text>[DO",
			want:     open(event.Text, "Hello"),
			problems: []string{"in:3:1: stream ended inside content-block-text"},
		},
		{
			name: "[DONE] ends a live stream",
			in:   sse("<content-block-text>a</content-block-text>", "[DONE]", "<content-block-text>b</content-block-text>"),
			cfg:  Config{StopAtDone: true},
			want: text("a"),
		},
		{
			name: "a pending end tag before [DONE] ends its block",
			in:   sse("<content-block-text>", "a", "</content-block-text>", "[DONE]", "<content-block-text>", "b", "</content-block-text>"),
			want: cat(text("a"), text("b")),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cfg := tt.cfg
			tt.in = withDone(tt.in, tt.problems)
			got, problems := decodeAll(t, strings.NewReader(tt.in), &cfg)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.problems, problems); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			cfg = tt.cfg
			got2, problems2 := decodeAll(t, iotest.OneByteReader(strings.NewReader(tt.in)), &cfg)
			if diff := cmp.Diff(got, got2); diff != "" {
				t.Errorf("one byte reads: events differ:\n%s", diff)
			}
			if diff := cmp.Diff(problems, problems2); diff != "" {
				t.Errorf("one byte reads: problems differ:\n%s", diff)
			}
		})
	}
}

// TestServerErrorAgent: the server's error line names no agent; it belongs
// to the agent whose block it interrupted, else to the main agent, as in
// the envelope twin of the same run.
func TestServerErrorAgent(t *testing.T) {
	t.Parallel()
	const line = `{"error": "RuntimeError", "message": "boom", "traceback": "Traceback"}`
	meta := func(id, parent string) string {
		p := "null"
		if parent != "" {
			p = "&quot;" + parent + "&quot;"
		}
		return `<meta_init data="{&quot;agent_uuid&quot;: &quot;` + id + `&quot;, &quot;parent_agent_uuid&quot;: ` + p + `}"></meta_init>`
	}
	call := `<content-block-tool_call id="t1" name="Agent" arguments="{}"></content-block-tool_call>`
	tests := []struct {
		name, in, want string
	}{
		{"between the subagent's blocks: the main agent", sse(meta("main", ""), call, meta("sub", "main"),
			"<content-block-text>", "hi", "</content-block-text>", line), "main"},
		{"inside the subagent's block: the subagent", sse(meta("main", ""), call, meta("sub", "main"),
			"<content-block-text>", "hi", line), "sub"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			evs, _ := decodeAll(t, strings.NewReader(tt.in), nil)
			var got []string
			for _, ev := range evs {
				if e, ok := ev.(*event.Error); ok {
					got = append(got, e.Agent)
				}
			}
			if diff := cmp.Diff([]string{tt.want}, got); diff != "" {
				t.Errorf("error agents (-want +got):\n%s", diff)
			}
		})
	}
}
