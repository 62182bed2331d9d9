package cmd

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/convert"
)

// samples holds a recording of each format agentstream reads.
var samples = map[string]string{
	"jsonenv":   "jsonenv/tooluse.sse",
	"xml":       "xml/tooluse.sse",
	"codex":     "codex/shell.jsonl",
	"claude":    "claude/tooluse.jsonl",
	"anthropic": "anthropic/tooluse-turn1.sse",
	"xmltools":  "xmltools/past.txt",

	"codex-session":    "codex-session/codex-shell.session.jsonl",
	"claude-session":   "claude-session/claude-tooluse.session.jsonl",
	"openai-chat":      "openai-chat/chat-tool.sse",
	"openai-responses": "openai-responses/responses-mcp-req1.sse",
	"inlinexml":        "inlinexml/cline-read.txt",
	"agui":             "agui/text-tool.sse",
}

// TestEveryFormatReadAsEveryOther: a recording read with --from another
// format never passes: convert, assemble and validate exit 1 naming the
// input, verify never says equal. Only the model text formats read each
// other's input, which is text either way.
func TestEveryFormatReadAsEveryOther(t *testing.T) {
	t.Parallel()
	for _, from := range convert.Formats() {
		if from.NewDecoder == nil {
			continue
		}
		if _, ok := samples[from.Name]; !ok {
			t.Fatalf("no sample of %s: add one to samples", from.Name)
		}
		for name, sample := range samples {
			other, _ := convert.Lookup(name)
			if name == from.Name || (from.Wrap != nil && other.Wrap != nil) {
				continue
			}
			path := filepath.Join("..", "testdata", filepath.FromSlash(sample))
			t.Run(from.Name+"/"+name, func(t *testing.T) {
				t.Parallel()
				for _, args := range [][]string{
					{"convert", "--from", from.Name, "--to", "jsonenv", path},
					{"assemble", "--from", from.Name, path},
					{"assemble", "-o", "json", "--from", from.Name, path},
					{"validate", "--from", from.Name, path},
				} {
					code, stdout, stderr := runCLI(t, "", args...)
					if code != ExitNo {
						t.Errorf("%s: exit %d, want %d\nstderr: %s", strings.Join(args, " "), code, ExitNo, stderr)
					}
					if !strings.Contains(stdout+stderr, path) {
						t.Errorf("%s: the input is not named:\nstdout: %s\nstderr: %s", strings.Join(args, " "), stdout, stderr)
					}
				}
				good := filepath.Join("..", "testdata", filepath.FromSlash(samples[from.Name]))
				code, stdout, stderr := runCLI(t, "", "verify", "--from-a", from.Name, path, good)
				if code == ExitOK || strings.Contains(stdout, "equal:") {
					t.Errorf("verify --from-a %s %s %s: exit %d\nstdout: %s\nstderr: %s", from.Name, path, good, code, stdout, stderr)
				}
			})
		}
	}
}
