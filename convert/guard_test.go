package convert_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// TestGuard: Guard reports, once each, the rules of the target's that the
// output breaks because of what the input holds, and nothing for a run
// the target writes valid.
func TestGuard(t *testing.T) {
	t.Parallel()
	call := func(id, input string) *event.ToolCall {
		return &event.ToolCall{Agent: "a", ID: id, Name: "ls", Input: json.RawMessage(input)}
	}
	result := &event.ToolResult{Agent: "a", ID: "t1", Name: "ls"}
	pending := &event.AwaitingTools{Agent: "a", Tools: []event.PendingTool{{ID: "t1", Name: "ls"}}}
	// More calls open at once than the guard looks for one by one: ten
	// calls (one repeated), answered but for t3, newest first; then all
	// answered and one more made, which is unanswered.
	var many, again []event.Event
	for i := range 10 {
		many = append(many, call(fmt.Sprint("t", i), `{}`))
	}
	many = append(many, call("t5", `{}`))
	for i := 9; i >= 0; i-- {
		again = append(again, &event.ToolResult{Agent: "a", ID: fmt.Sprint("t", i)})
		if i != 3 {
			many = append(many, &event.ToolResult{Agent: "a", ID: fmt.Sprint("t", i)})
		}
	}
	run := format.Format{Name: "run"}
	response := format.Format{Name: "response", Skips: []string{"GEN007", "GEN008"}}
	items := format.Format{Name: "items", Lacks: []format.Content{format.AwaitingTools}, Unanswered: []string{"ITM001"}}
	tests := []struct {
		name string
		to   format.Format
		evs  []event.Event
		want []string
	}{
		{"answered", run, []event.Event{call("t1", `{}`), result}, nil},
		{"unanswered", run, []event.Event{call("t1", `{}`)}, []string{"run output breaks validate GEN007: tool call t1 (ls) has no result in the input: the output leaves it unanswered"}},
		{"two unanswered", run, []event.Event{call("t1", `{}`), call("t2", `{}`)}, []string{"run output breaks validate GEN007: 2 tool calls have no result in the input (the first: t1, ls): the output leaves them unanswered"}},
		{"one response", response, []event.Event{call("t1", `"free text"`)}, nil},
		{"pending", run, []event.Event{call("t1", `{}`), pending}, nil},
		{"pending, lacked", items, []event.Event{call("t1", `{}`), pending}, []string{"items output breaks validate GEN007, ITM001: tool call t1 (ls) has no result in the input: the output leaves it unanswered"}},
		{"free text", run, []event.Event{call("t1", `"*** Begin Patch"`), call("t2", `"more"`), result, &event.ToolResult{Agent: "a", ID: "t2"}}, []string{"run output breaks validate GEN008: the input of tool call t1 (ls) is not a JSON object (a custom tool's free text): written as it is"}},
		{"many, one unanswered", run, many, []string{"run output breaks validate GEN007: tool call t3 (ls) has no result in the input: the output leaves it unanswered"}},
		{"many, then one", run, append(append(append([]event.Event{}, many[:11]...), again...), call("t10", `{}`)), []string{"run output breaks validate GEN007: tool call t10 (ls) has no result in the input: the output leaves it unanswered"}},
		{"server call", run, []event.Event{&event.ToolCall{Agent: "a", ID: "s1", Name: "web_search", Input: json.RawMessage(`{}`), Server: true}}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			enc := convert.Guard(nopEncoder{}, convert.Format{Format: tt.to}, func(err error) {
				if _, ok := err.(*convert.RuleError); !ok {
					t.Errorf("%T reported, want *convert.RuleError", err)
				}
				got = append(got, err.Error())
			})
			for _, ev := range tt.evs {
				if err := enc.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("reports (-want +got):\n%s", diff)
			}
		})
	}
}

type nopEncoder struct{}

func (nopEncoder) Encode(event.Event) error { return nil }
func (nopEncoder) Close() error             { return nil }

// TestGuardManyCalls: more calls than the guard keeps ids for, the kept
// ones answered: Close reports the rest by count and never panics.
func TestGuardManyCalls(t *testing.T) {
	t.Parallel()
	to, _ := convert.Lookup("claude")
	var reports []string
	var out bytes.Buffer
	enc := convert.Guard(to.NewEncoder(&out, &format.Options{}), to, func(err error) { reports = append(reports, err.Error()) })
	const n = 1030
	for i := range n {
		enc.Encode(&event.ToolCall{ID: fmt.Sprint("t", i), Name: "Bash", Input: json.RawMessage("{}")})
	}
	for i := range 1024 {
		enc.Encode(&event.ToolResult{ID: fmt.Sprint("t", i), Content: []event.Part{{Type: "text", Text: "ok"}}})
	}
	enc.Close()
	if len(reports) != 1 || !strings.Contains(reports[0], "6 tool calls have no result") {
		t.Errorf("reports %q, want one of 6 unanswered calls", reports)
	}
}
