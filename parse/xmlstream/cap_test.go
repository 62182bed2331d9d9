package xmlstream

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// capInput builds a stream of n elements made by elem(i).
func capInput(n int, elem func(i int) string) string {
	var sb strings.Builder
	sb.WriteString(sse(`<meta_init data="{&quot;agent_uuid&quot;: &quot;a0&quot;, &quot;parent_agent_uuid&quot;: null}"></meta_init>`))
	for i := 1; i <= n; i++ {
		sb.WriteString(sse(elem(i)))
	}
	sb.WriteString(sse("[DONE]"))
	return sb.String()
}

// nested starts agent ai as a subagent of a(i-1).
func nested(i int) string {
	return fmt.Sprintf(`<meta_init data="{&quot;agent_uuid&quot;: &quot;a%d&quot;, &quot;parent_agent_uuid&quot;: &quot;a%d&quot;}"></meta_init>`, i, i-1)
}

func call(i int) string {
	return fmt.Sprintf(`<content-block-tool_call id="t%d" name="n" arguments="{}"></content-block-tool_call>`, i)
}

func callAndResult(i int) string {
	return call(i) + fmt.Sprintf(`<content-block-tool_result id="t%d" name="n"><![CDATA[ok]]></content-block-tool_result>`, i)
}

// TestCapOpen checks that the agent scope stack and the tool calls waiting
// for a result stay within maxOpen entries whatever the input, that going
// beyond is reported once, with its position, and that a stream whose
// calls get their results is never reported.
func TestCapOpen(t *testing.T) {
	t.Parallel()
	const n = 3 * maxOpen
	tests := []struct {
		name   string
		in     string
		agents int // scopes on the stack at the end
		calls  int // calls kept at the end
		report string
		last   string // the agent of the last event
	}{
		{
			// a0 and a1 to a1023 fill the stack; a1024, in line 2049, is one more.
			name: "nested agents", in: capInput(n, nested), agents: maxOpen,
			report: "in:2049:1: more than 1024 agent scopes open at once; let go of the oldest subagent's, a1 (its tool results will not end the scopes above it); later ones are not reported",
			last:   fmt.Sprintf("a%d", n),
		},
		{
			name: "calls without results", in: capInput(n, call), agents: 1, calls: maxOpen,
			// t1024, in line 2049, is the last that fits.
			report: "in:2051:1: more than 1024 tool calls waiting for their result; let go of the oldest, t1 (its result will not end the scopes started after it); later ones are not reported",
			last:   "a0",
		},
		{name: "calls with results", in: capInput(n, callAndResult), agents: 1, last: "a0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := NewDecoder(strings.NewReader(tt.in), &Config{Source: "in"})
			var reports []string
			var last event.Event
			for {
				ev, err := d.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					if !errors.Is(err, event.ErrTooManyOpen) {
						t.Fatalf("unexpected error: %v", err)
					}
					reports = append(reports, err.Error())
					continue
				}
				last = ev
				if len(d.agents) > maxOpen || d.calls.Len() > maxOpen {
					t.Fatalf("%d scopes and %d calls held, more than %d", len(d.agents), d.calls.Len(), maxOpen)
				}
			}
			if len(d.agents) != tt.agents || d.calls.Len() != tt.calls {
				t.Errorf("at the end %d scopes and %d calls, want %d and %d", len(d.agents), d.calls.Len(), tt.agents, tt.calls)
			}
			var want []string
			if tt.report != "" {
				want = []string{tt.report}
			}
			if fmt.Sprint(reports) != fmt.Sprint(want) {
				t.Errorf("reports %q, want %q", reports, want)
			}
			if got := last.AgentID(); got != tt.last {
				t.Errorf("last event's agent %q, want %q", got, tt.last)
			}
		})
	}
}
