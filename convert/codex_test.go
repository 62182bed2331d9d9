package convert

import (
	"bytes"
	"encoding/json"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// assembled reads every block of dec, failing on any problem.
func assembled(t *testing.T, dec event.Decoder) []*assemble.Block {
	t.Helper()
	a := assemble.New(0)
	var out []*assemble.Block
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return append(out, a.Flush()...)
		}
		if err != nil {
			t.Fatalf("problem: %v", err)
		}
		bs, err := a.Add(ev)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, bs...)
	}
}

// mainContent is what a Codex transcript must keep of a run: the main
// agent's text, and each tool call with its result's content, in order.
// Codex renames tools (Bash is command_execution) and ids, so calls are
// kept as the command or input they ran with, paired with their result.
func mainContent(blocks []*assemble.Block) (texts []string, calls []string) {
	main := ""
	for _, b := range blocks {
		if b.Type == assemble.TypeMetaInit && b.ParentAgent == "" {
			main = b.Agent
			break
		}
	}
	results := map[string]string{}
	for _, b := range blocks {
		if b.Agent == main && b.Type == assemble.TypeToolResult && b.Content != nil {
			results[b.ID] = *b.Content
		}
	}
	for _, b := range blocks {
		if b.Agent != main {
			continue
		}
		switch b.Type {
		case assemble.TypeText:
			texts = append(texts, b.Text)
		case assemble.TypeToolCall:
			var in struct{ Command string }
			json.Unmarshal(b.Input, &in)
			// Names are not compared: Codex renames tools by kind
			// (docs/conversion-matrix.md). The command and the result are.
			calls = append(calls, in.Command+" => "+results[b.ID])
		}
	}
	return texts, calls
}

// TestClaudeThroughCodex: a Claude recording converted to Codex and
// assembled keeps the main agent's text and its tool calls with their
// results (issue 5's acceptance).
func TestClaudeThroughCodex(t *testing.T) {
	t.Parallel()
	codex, _ := Lookup("codex")
	for _, file := range recordings(t, claudeDir, "*.jsonl") {
		if strings.Contains(filepath.Base(file), "error-529") {
			continue // no content: an API error only
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			in := read(t, file)
			wantTexts, wantCalls := mainContent(assembled(t, decoderFor(t, "claude", bytes.NewReader(in))))
			var out bytes.Buffer
			enc := codex.NewEncoder(&out, &format.Options{})
			if err := Pipe(decoderFor(t, "claude", bytes.NewReader(in)), enc, &PipeOptions{
				Problem: func(err error) bool { t.Errorf("problem: %v", err); return true },
			}); err != nil {
				t.Fatal(err)
			}
			if err := enc.Close(); err != nil {
				t.Fatal(err)
			}
			gotTexts, gotCalls := mainContent(assembled(t, decoderFor(t, "codex", &out)))
			if diff := cmp.Diff(wantTexts, gotTexts); diff != "" {
				t.Errorf("text (-claude +through codex):\n%s", diff)
			}
			if diff := cmp.Diff(wantCalls, gotCalls); diff != "" {
				t.Errorf("tool calls with results (-claude +through codex):\n%s", diff)
			}
			if len(wantTexts) == 0 {
				t.Error("the recording has no text: nothing was compared")
			}
		})
	}
}
