package validate

import (
	"io"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
)

func codexStream(lines ...string) string { return strings.Join(lines, "\n") + "\n" }

const (
	cdxThread  = `{"type":"thread.started","thread_id":"th"}`
	cdxTurn    = `{"type":"turn.started"}`
	cdxDone    = `{"type":"turn.completed","usage":{"input_tokens":1,"cached_input_tokens":0,"output_tokens":1}}`
	cdxFailed  = `{"type":"turn.failed","error":{"message":"boom"}}`
	cdxCmdOn   = `{"type":"item.started","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}`
	cdxCmdOff  = `{"type":"item.completed","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"a","exit_code":0,"status":"completed"}}`
	cdxCmdUpd  = `{"type":"item.updated","item":{"id":"item_1","type":"command_execution","command":"ls","aggregated_output":"","exit_code":null,"status":"in_progress"}}`
	cdxMessage = `{"type":"item.completed","item":{"id":"item_0","type":"agent_message","text":"Hi"}}`
)

// TestFormatRules: per wire rule of the formats besides the envelope, a
// stream that breaks it (at the right line) and one that does not.
func TestFormatRules(t *testing.T) {
	t.Parallel()
	tests := []struct {
		format    string
		rule      string
		bad, pass string
		line      int
	}{
		{"codex", CodexItem, codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxCmdOff, cdxCmdOff, cdxDone), codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxCmdUpd, cdxCmdOff, cdxDone), 5},
		{"codex", CodexItem, codexStream(cdxThread, cdxTurn, cdxCmdUpd, cdxCmdOff, cdxDone), codexStream(cdxThread, cdxTurn, cdxMessage, cdxDone), 3},
		{"codex", CodexItem, codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxDone), codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxFailed), 3},
		{"codex", CodexItem, codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxCmdOn, cdxCmdOff, cdxDone), codexStream(cdxThread, cdxTurn, cdxCmdOn, cdxCmdOff, cdxDone), 4},
		{"codex", CodexTurn, codexStream(cdxThread, cdxTurn, cdxDone, cdxDone), codexStream(cdxThread, cdxTurn, cdxDone, cdxTurn, cdxFailed), 4},
		{"codex", CodexTurn, codexStream(cdxThread, cdxMessage, cdxTurn, cdxDone), codexStream(cdxThread, cdxTurn, cdxMessage, cdxDone), 2},
	}
	for _, tt := range tests {
		t.Run(tt.format+"/"+tt.rule, func(t *testing.T) {
			t.Parallel()
			f, ok := convert.Lookup(tt.format)
			if !ok {
				t.Fatalf("no format %s", tt.format)
			}
			check := func(in string) []Violation {
				got, err := Check(strings.NewReader(in), &Config{
					Source: "in", Format: tt.format,
					NewDecoder: func(r io.Reader) event.Decoder { return f.NewDecoder(r, &convert.Options{Source: "in"}) },
				})
				if err != nil {
					t.Fatal(err)
				}
				return got
			}
			got := check(tt.bad)
			var lines []int
			for _, v := range got {
				if v.Rule == tt.rule {
					lines = append(lines, v.Line)
				}
			}
			if len(lines) == 0 || (tt.line != 0 && lines[0] != tt.line) {
				t.Errorf("breaking stream: %s at lines %v, want line %d; all violations:\n%s", tt.rule, lines, tt.line, dump(got))
			}
			for _, v := range check(tt.pass) {
				if v.Rule == tt.rule || !strings.HasPrefix(v.Rule, "GEN") {
					t.Errorf("passing stream: %s", dump([]Violation{v}))
				}
			}
		})
	}
}
