package openaichat

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/openset"
)

type reports []string

func (r *reports) Report(rule string, line, col int, msg string) {
	*r = append(*r, fmt.Sprintf("%s %d:%d %s", rule, line, col, msg))
}

// TestCheckBoundedOneChunk: one chunk of 200,000 choices (docs/limits.md's
// choices200k, a chunk over wire.LazyBytes, its choices read one at a
// time): the rules keep at most openset.DefaultMax of them, and say so
// once.
func TestCheckBoundedOneChunk(t *testing.T) {
	t.Parallel()
	const n = 200_000
	data := []byte(`{"id":"c","object":"chat.completion.chunk","created":1,"model":"m","choices":[`)
	for i := range n {
		if i > 0 {
			data = append(data, ',')
		}
		data = fmt.Appendf(data, `{"index":%d,"delta":{"content":"x"}}`, i)
	}
	data = append(data, "]}"...)
	var k checkState
	var rep reports
	k.message(frame.RawMessage{Data: data, Line: 1}, &rep)
	if got := k.choices.Len(); got > openset.DefaultMax {
		t.Errorf("the rules hold %d choices after the chunk, want at most %d", got, openset.DefaultMax)
	}
	if len(rep) != 1 || !strings.Contains(rep[0], "more than 1024 choices") {
		t.Errorf("reports %d, want the cap once:\n%s", len(rep), strings.Join(rep[:min(len(rep), 5)], "\n"))
	}
}

// TestCheckBoundedChoices: the rules keep at most openset.DefaultMax
// choices of a completion, however many it has (200,000 here, one chunk
// each, generated one at a time), and say once that they let go of some.
func TestCheckBoundedChoices(t *testing.T) {
	t.Parallel()
	const n = 200_000
	var k checkState
	var rep reports
	peak := 0
	for i := range n {
		data := fmt.Sprintf(`{"id":"c","object":"chat.completion.chunk","choices":[{"index":%d,"delta":{"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"f","arguments":"{}"}}]},"finish_reason":"tool_calls"}]}`, i)
		k.message(frame.RawMessage{Data: []byte(data), Line: i + 1}, &rep)
		peak = max(peak, k.choices.Len())
	}
	if peak > openset.DefaultMax {
		t.Errorf("the rules held %d choices at once, want at most %d", peak, openset.DefaultMax)
	}
	if len(rep) != 1 || !strings.Contains(rep[0], "more than 1024 choices") {
		t.Errorf("reports %d, want the cap once:\n%s", len(rep), strings.Join(rep[:min(len(rep), 5)], "\n"))
	}
	// A choice let go of that comes again with its next tool call is not
	// reported as skipping an index.
	rep = nil
	k.message(frame.RawMessage{Data: []byte(`{"id":"c","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"tool_calls":[{"index":1,"function":{"arguments":"{}"}}]}}]}`), Line: n + 1}, &rep)
	if len(rep) != 0 {
		t.Errorf("a choice let go of, again: %q", rep)
	}
}
