package agentmeta

import (
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
)

var finalSeeds = []string{
	`{"conversation_history": [{"role": "user", "content": [{"type": "text", "text": "hi \u00e9\n"}]}], "stop_reason": "end_turn", "total_steps": 3, "generated_files": [], "cost": {"total_cost": 0.25, "currency": "USD"}, "cumulative_usage": {"input_tokens": 10, "output_tokens": 20, "cache_read_input_tokens": 1, "cache_creation_input_tokens": 2, "reasoning_output_tokens": 3, "other": 4}}`,
	`{"stop_reason": null, "total_steps": null, "cost": null, "cumulative_usage": null, "total_cost_usd": 1.5, "duration_ms": 42, "is_error": true, "errors": ["a", "b"], "result": "done"}`,
	`{"errors": []}`, `{"errors": [null]}`, `{"errors": [1]}`, `{"total_steps": 1.5}`, `{"total_steps": 1e2}`,
	`{"cost": {"total_cost": 1e999}}`, `{"cost": {"total_cost": "1", "currency": "EUR"}}`, `{"generated_files": [1e999]}`,
	`{"stop_reason": "a", "stop_reason": "b"}`, `{"Stop_Reason": "x"}`, `{"cumulative_usage": {"input_tokens": 1, "input_tokens": 2}}`,
	`{"cumulative_usage": []}`, `{"is_error": "yes"}`, `[]`, `"text"`, `{`, `{"a":1} x`, `{"result": "\ud800"}`, "{\"result\": \"a\\u00e9\\n\\ud83e\\udd8a Ünïcödé\"}",
	`{"total_cost_usd": null}`, `{"duration_ms": -0}`, `{"total_steps": 9223372036854775808}`,
}

// checkRunEndFrom: the one pass gives the event RunEnd gives.
func checkRunEndFrom(t *testing.T, data []byte) {
	if !utf8.Valid(data) {
		return // RunEndFrom's input is valid UTF-8
	}
	var r jsontext.Reader
	want := RunEnd("a", string(data))
	got := RunEndFrom(&r, "a", data)
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("%q: RunEndFrom differs from RunEnd (-want +got):\n%s", data, diff)
	}
}

var initSeeds = []string{
	`{"format": "json", "user_query": "Write \u00e9\n", "agent_uuid": "a", "parent_agent_uuid": null, "model": "m", "message_history": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]}`,
	`{"format":"json","user_query":"","agent_uuid":"a","parent_agent_uuid":"p","model":"m","session_id":"s","tools":["Bash","Read"],"cwd":"/w","parent_tool_use_id":"t","name":"n","description":"d"}`,
	`{"user_query": {"a": [1, 2]}}`, `{"user_query": null}`, `{"user_query": 1e999}`, `{"tools": []}`, `{"tools": null}`, `{"tools": [null]}`,
	`{"tools": [1]}`, `{"model": 5}`, `{"model": "a", "model": "b"}`, `{"Model": "x"}`, `{"parent_agent_uuid": 1}`, `[]`, `{`, "{\"name\": \"\\ud800x\"}",
}

// checkSessionStartFrom: the one pass gives what SessionStart gives.
func checkSessionStartFrom(t *testing.T, data []byte) {
	if !utf8.Valid(data) {
		return // SessionStartFrom's input is valid UTF-8
	}
	var r jsontext.Reader
	wantEv, wantM, wantOK := SessionStart("a", string(data))
	gotEv, gotM, gotOK := SessionStartFrom(&r, "a", data)
	if diff := cmp.Diff(wantEv, gotEv); diff != "" {
		t.Fatalf("%q: SessionStartFrom's event differs (-want +got):\n%s", data, diff)
	}
	if wantOK != gotOK {
		t.Fatalf("%q: ok %v, SessionStart %v", data, gotOK, wantOK)
	}
	if diff := cmp.Diff(wantM, gotM); wantOK && diff != "" {
		t.Fatalf("%q: SessionStartFrom's payload differs (-want +got):\n%s", data, diff)
	}
}

func TestSessionStartFrom(t *testing.T) {
	t.Parallel()
	for _, s := range initSeeds {
		checkSessionStartFrom(t, []byte(s))
	}
}

func FuzzSessionStartFrom(f *testing.F) {
	for _, s := range initSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkSessionStartFrom)
}

func TestRunEndFrom(t *testing.T) {
	t.Parallel()
	for _, s := range finalSeeds {
		checkRunEndFrom(t, []byte(s))
	}
}

func FuzzRunEndFrom(f *testing.F) {
	for _, s := range finalSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkRunEndFrom)
}
