package corpustest

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/assemble/assembletest"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/format"
)

// scenario is what two recordings of one scenario must share: the text of
// the answer and the tool calls (by the tool a call's id names, and the
// file it reads).
type scenario struct {
	Text  string
	Tools []string
}

// fromBlocks is the scenario of a run as agentstream reads it.
// ACP names no tool: Gemini's tool call ids begin with the tool's name
// ("read_file__read_file_<time>_<n>"), and its tool_call carries the file
// in locations, which the decoder does not keep, so the call is named by
// its id here.
func fromBlocks(bs []*assemble.Block) scenario {
	var s scenario
	for _, b := range bs {
		switch b.Type {
		case assemble.TypeText:
			s.Text += b.Text
		case assemble.TypeToolCall:
			name, _, _ := strings.Cut(b.ID, "__")
			s.Tools = append(s.Tools, name)
		}
	}
	return s
}

// geminiScenario reads Gemini CLI's stream-json lines with encoding/json:
// assistant message content, tool_use tool names.
func geminiScenario(t *testing.T, data []byte) scenario {
	t.Helper()
	var s scenario
	for line := range bytes.Lines(data) {
		var m map[string]any
		if err := json.Unmarshal(line, &m); err != nil {
			t.Fatal(err)
		}
		switch m["type"] {
		case "message":
			if m["role"] == "assistant" {
				s.Text += m["content"].(string)
			}
		case "tool_use":
			s.Tools = append(s.Tools, m["tool_name"].(string))
		}
	}
	return s
}

// TestSameScenario: an ACP session and the stream-json run of the same
// scenario carry the same text and tool calls. OpenCode's reasoning run
// thinks in ACP (agent_thought_chunk) but 1.18.33 writes no reasoning
// line in --format json: thinking is not compared.
func TestSameScenario(t *testing.T) {
	t.Parallel()
	acp, ok := convert.Lookup("acp")
	if !ok {
		t.Fatal("no acp format")
	}
	opencode, _ := convert.Lookup("opencode")
	gemini, _ := convert.Lookup("gemini")
	read := func(f convert.Format, path string) []*assemble.Block {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		return assembletest.Blocks(t, f.NewDecoder(bytes.NewReader(data), &format.Options{Source: path}))
	}
	for _, side := range []string{"agent", "transcript"} {
		t.Run("gemini-read-file."+side, func(t *testing.T) {
			t.Parallel()
			const stream = "../../testdata/gemini/read-file.jsonl"
			data, err := os.ReadFile(stream)
			if err != nil {
				t.Fatal(err)
			}
			want := geminiScenario(t, data)
			got := fromBlocks(read(acp, filepath.Join("../../testdata/acp", "gemini-read-file."+side+".jsonl")))
			if len(want.Tools) == 0 || want.Text == "" {
				t.Fatalf("nothing to compare: %+v", want)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-stream-json lines +acp):\n%s", diff)
			}
			// The same through agentstream's own gemini decoder.
			if diff := cmp.Diff(fromBlocks(read(gemini, stream)), got); diff != "" {
				t.Errorf("(-gemini decoder +acp):\n%s", diff)
			}
		})
		t.Run("opencode-reasoning."+side, func(t *testing.T) {
			t.Parallel()
			want := fromBlocks(read(opencode, "../../testdata/opencode/reasoning.jsonl"))
			got := fromBlocks(read(acp, filepath.Join("../../testdata/acp", "opencode-reasoning."+side+".jsonl")))
			if want.Text == "" {
				t.Fatal("no text")
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("(-opencode json +acp):\n%s", diff)
			}
		})
	}
}

// TestAgentProtocolRecordingsValid: every recording of OpenCode and of
// ACP sessions passes validate (the format's own rules and the rules for
// every format), with no problem reported.
func TestAgentProtocolRecordingsValid(t *testing.T) {
	t.Parallel()
	n := 0
	for _, rec := range recordings(t) {
		if rec.f.Name != "acp" && rec.f.Name != "opencode" {
			continue
		}
		n++
		for _, v := range violations(t, rec.path, rec.data, rec.f) {
			t.Errorf("%s: %s %s: %s", rec.path, v.Rule, v.Name, v.Message)
		}
	}
	if n == 0 {
		t.Fatal("no recordings")
	}
}
