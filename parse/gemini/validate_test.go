package gemini_test

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/gemini"
)

func check(in string) []string {
	var r eventtest.Reports
	gemini.Format().Check(strings.NewReader(in), &format.CheckConfig{Source: "in"}, &r)
	return r
}

// TestCheckRecordings: every recording keeps every rule.
func TestCheckRecordings(t *testing.T) {
	t.Parallel()
	for _, path := range recordings(t) {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		var r eventtest.Reports
		gemini.Format().Check(bytes.NewReader(data), &format.CheckConfig{Source: path}, &r)
		if len(r) > 0 {
			t.Errorf("%s: %q", path, r)
		}
	}
}

// TestCheck: each rule, broken.
func TestCheck(t *testing.T) {
	t.Parallel()
	const init = `{"type":"init","timestamp":"t","session_id":"s","model":"m"}` + "\n"
	tests := []struct {
		name, in string
		want     []string
	}{
		{"fields", init + `{"type":"message","role":"bot","content":1,"delta":"yes"}` + "\n" +
			`{"type":"tool_use","timestamp":"t","tool_name":"x","tool_id":"a","parameters":[1]}` + "\n", []string{
			"GEM001 2 message line without a timestamp",
			`GEM001 2 message line whose role is "bot", not one of ["user" "assistant"]`,
			"GEM001 2 message line whose content is not a string",
			"GEM001 2 message line whose delta is not a boolean",
			"GEM001 3 tool_use line whose parameters are not a JSON object",
		}},
		{"init first", `{"type":"message","timestamp":"t","role":"user","content":"x"}` + "\n" + init + init, []string{
			"GEM002 1 the first line is message, not init",
			"GEM002 3 a second init line (the first at line 2)",
		}},
		{"tool pairs", init + `{"type":"tool_result","timestamp":"t","tool_id":"a","status":"success"}` + "\n" +
			`{"type":"tool_use","timestamp":"t","tool_name":"x","tool_id":"b","parameters":{}}` + "\n" +
			`{"type":"tool_result","timestamp":"t","tool_id":"b","status":"success"}` + "\n" +
			`{"type":"tool_result","timestamp":"t","tool_id":"b","status":"success"}` + "\n", []string{
			`GEM003 2 tool_result of tool_id "a", which no earlier tool_use has`,
			`GEM003 5 a second tool_result of tool_id "b" (the first at line 4)`,
		}},
		{"result last, error status", init + `{"type":"result","timestamp":"t","status":"error"}` + "\n" +
			`{"type":"result","timestamp":"t","status":"success","error":{"type":"x","message":"y"}}` + "\n", []string{
			"GEM005 2 result with status error and no error",
			"GEM004 3 result line after the result line (line 2)",
			"GEM005 3 result with status success and an error",
		}},
		{"stats", init + `{"type":"result","timestamp":"t","status":"success","stats":{"total_tokens":3,"input_tokens":2,"output_tokens":1,"cached":0,"input":2,"duration_ms":1,"tool_calls":0,"models":{"a":{"total_tokens":1,"input_tokens":1,"output_tokens":0,"cached":0,"input":1}}}}` + "\n", []string{
			"GEM006 2 stats total_tokens 3 is not the sum of its models' (1)",
			"GEM006 2 stats input_tokens 2 is not the sum of its models' (1)",
			"GEM006 2 stats output_tokens 1 is not the sum of its models' (0)",
			"GEM006 2 stats input 2 is not the sum of its models' (1)",
		}},
		{"stats, null counts compared only where known", init + `{"type":"result","timestamp":"t","status":"success","stats":{"total_tokens":null,"input_tokens":null,"output_tokens":1,"cached":null,"input":null,"tool_calls":0,"models":{"a":{"total_tokens":null,"input_tokens":null,"output_tokens":0,"cached":null,"input":null}}}}` + "\n", []string{
			"GEM006 2 stats output_tokens 1 is not the sum of its models' (0)",
		}},
		{"json output", "{\n  \"session_id\": \"s\",\n  \"answer\": 1\n}\n", []string{
			`GEM007 1 json output with a member "answer" the format does not have`,
		}},
		// In input order, each name once, on every run (a map's order
		// would differ from run to run).
		{"json output, members in order", `{"z":1,"session_id":"s","b":2,"y":3,"a":4,"x":5,"b":6,"c":7,"w":8}` + "\n", []string{
			`GEM007 1 json output with a member "z" the format does not have`,
			`GEM007 1 json output with a member "b" the format does not have`,
			`GEM007 1 json output with a member "y" the format does not have`,
			`GEM007 1 json output with a member "a" the format does not have`,
			`GEM007 1 json output with a member "x" the format does not have`,
			`GEM007 1 json output with a member "c" the format does not have`,
			`GEM007 1 json output with a member "w" the format does not have`,
		}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, check(tt.in)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
