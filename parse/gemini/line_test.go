package gemini

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event/eventtest"
)

// lineCases are lines readLine reads or must leave to the two passes.
var lineCases = []string{
	`{"type":"init","timestamp":"t","session_id":"s","model":"m"}`,
	`{"type":"message","timestamp":"t","role":"user","content":"hi"}`,
	`{"type":"message","timestamp":"t","role":"assistant","content":"a","delta":true}`,
	`{"type":"message","timestamp":"t","role":"assistant","content":"b"}`,
	`{"type":"tool_use","timestamp":"t","tool_name":"read","tool_id":"x","parameters":{"p":1}}`,
	`{"type":"tool_result","timestamp":"t","tool_id":"x","status":"success","output":"o"}`,
	`{"type":"tool_result","timestamp":"t","tool_id":"x","status":"error","error":{"type":"e","message":"m"}}`,
	`{"type":"error","timestamp":"t","severity":"warning","message":"w"}`,
	`{"type":"result","timestamp":"t","status":"success","stats":{"total_tokens":3,"input_tokens":1,"output_tokens":2,"cached":0,"duration_ms":5,"models":{"m":{"input":1}}}}`,
	`{"type":"result","timestamp":"t","status":"error","error":{"type":"e","message":"m"}}`,
	`{"type":"message","timestamp":5,"role":"assistant","content":"a"}`,
	`{"type":"message","timestamp":null,"role":"assistant","content":"a"}`,
	`{"type":"message","role":"assistant","content":"a"}`,
	`{"type":"message","timestamp":"t","role":"assistant","content":"a","model":7}`,
	`{"type":"init","timestamp":"t","session_id":"s","model":"m","error":"no"}`,
	`{"type":"message","timestamp":"t","Role":"user","content":"a"}`,
	`{"type":7,"timestamp":"t"}`,
	`{"type":null,"timestamp":"t"}`,
	`{"type":"other","timestamp":"t","content":"x"}`,
	`{"type":"tool_use","timestamp":"t","tool_name":"read","tool_id":"x","parameters":null}`,
	`{"type":"tool_result","timestamp":"t","tool_id":"x","status":"success","output":null}`,
}

func events(data []byte, noLine bool) []eventtest.Item {
	d := NewDecoder(bytes.NewReader(data), &Config{Source: "in"})
	d.noLine = noLine
	return eventtest.Collect(d)
}

func sameInTwoPasses(t *testing.T, data []byte) {
	t.Helper()
	if diff := cmp.Diff(events(data, true), events(data, false)); diff != "" {
		t.Errorf("%q: the one-pass line reader gives other events than the two passes (-two +one):\n%s", data, diff)
	}
}

func lineRecordings(t testing.TB) [][]byte {
	var out [][]byte
	for _, dir := range []string{"../../testdata/gemini", "../../../shared/corpus/gemini"} {
		files, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		for _, f := range files {
			data, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, data)
		}
	}
	if len(out) == 0 {
		t.Fatal("no recordings")
	}
	return out
}

// TestLineInOnePass: what readLine reads, the decoder turns into the
// events the two passes give, and what it leaves gives the same too.
func TestLineInOnePass(t *testing.T) {
	t.Parallel()
	for _, c := range lineCases {
		sameInTwoPasses(t, []byte(c+"\n"))
		sameInTwoPasses(t, []byte(strings.Join([]string{lineCases[0], lineCases[1], c, lineCases[8]}, "\n")+"\n"))
	}
	for _, data := range lineRecordings(t) {
		sameInTwoPasses(t, data)
	}
}

func FuzzLineInOnePass(f *testing.F) {
	for _, c := range lineCases {
		f.Add([]byte(c + "\n"))
	}
	for _, data := range lineRecordings(f) {
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameInTwoPasses(t, data)
	})
}
