package cmd

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/convert"
)

// samples holds a recording of each format agentstream reads: the side of
// verify that is in its format.
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
	"opencode":         "opencode/read-file.jsonl",
	"acp":              "acp/gemini-read-file.agent.jsonl",
	"aisdk":            "aisdk/ai-5.0.277-tool-call.sse",
	"gemini":           "gemini/read-file.jsonl",
	"gemini-session":   "gemini-session/read-file.session.jsonl",
	"agui":             "agui/text-tool.sse",
}

// wrongInput is an input and the format it is in ("" for none).
type wrongInput struct {
	path, format string
	dir          bool
}

// wrongInputs returns every recording in testdata/ and ../shared/corpus/
// (once per content) with its format, then an HTML error page, 4 KB of
// random bytes (seeded), an empty file and a directory, in none. A file's
// format is what detection says (the shared corpus keeps two formats in
// openai/ and in sessions/), else, for the text formats detection does not
// name, its folder's; files of no format in the table are left out, so a
// format added to the table brings its recordings in.
func wrongInputs(t *testing.T) []wrongInput {
	t.Helper()
	var out []wrongInput
	seen := map[[32]byte]bool{}
	for _, root := range []string{filepath.Join("..", "testdata"), filepath.Join("..", "..", "shared", "corpus")} {
		files, _ := filepath.Glob(filepath.Join(root, "*", "*"))
		for _, path := range files {
			base := filepath.Base(path)
			if slices.ContainsFunc([]string{".md", ".events", ".tools.json", ".meta.json", ".txtar", ".stderr.txt"}, func(ext string) bool {
				return strings.HasSuffix(base, ext)
			}) {
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				continue // a directory
			}
			if seen[sha256.Sum256(b)] {
				continue
			}
			seen[sha256.Sum256(b)] = true
			name := filepath.Base(filepath.Dir(path))
			if f, guessed, err := convert.Detect(bufio.NewReader(bytes.NewReader(b))); err == nil && !guessed {
				name = f.Name
			} else if f, ok := convert.Lookup(name); !ok || f.NewDecoder == nil {
				continue
			}
			out = append(out, wrongInput{path: path, format: name})
		}
	}
	dir := t.TempDir()
	garbage := make([]byte, 4<<10)
	r := rand.New(rand.NewPCG(27, 27))
	for i := range garbage {
		garbage[i] = byte(r.Uint32())
	}
	for name, b := range map[string][]byte{
		"page.html":   []byte("<!DOCTYPE html>\n<html><head><title>502 Bad Gateway</title></head>\n<body><h1>502 Bad Gateway</h1></body></html>\n"),
		"garbage.bin": garbage,
		"empty.txt":   nil,
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		out = append(out, wrongInput{path: path})
	}
	sub := filepath.Join(dir, "dir")
	if err := os.Mkdir(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	return append(out, wrongInput{path: sub, dir: true})
}

// TestEveryFormatReadAsEveryOther: whatever --from says, input that is not
// that format never passes. For every format read and every input of
// another format (or of none: HTML, binary, empty, a directory), convert,
// assemble and validate exit 1 naming the input (2 for a directory, which
// cannot be read), usage does not exit 0, and verify exits 2 and says
// nothing on stdout. Only the model text formats read each other's input,
// which is text either way.
func TestEveryFormatReadAsEveryOther(t *testing.T) {
	t.Parallel()
	inputs := wrongInputs(t)
	for f, from := range convert.Formats() {
		if from.NewDecoder == nil {
			continue
		}
		if _, ok := samples[from.Name]; !ok {
			t.Fatalf("no sample of %s: add one to samples", from.Name)
		}
		good := filepath.Join("..", "testdata", filepath.FromSlash(samples[from.Name]))
		t.Run(from.Name, func(t *testing.T) {
			t.Parallel()
			for i, in := range inputs {
				other, _ := convert.Lookup(in.format)
				if in.format == from.Name || (from.Wrap != nil && other.Wrap != nil) || (in.format != "" && (i+f)%wrongSample != 0) {
					continue
				}
				want := ExitNo
				if in.dir {
					want = ExitFailure
				}
				for _, args := range [][]string{
					{"convert", "--from", from.Name, "--to", "jsonenv", in.path},
					{"assemble", "--from", from.Name, in.path},
					{"assemble", "-o", "json", "--from", from.Name, in.path},
					{"validate", "--from", from.Name, in.path},
					{"usage", "--from", from.Name, in.path},
				} {
					code, stdout, stderr := runCLI(t, "", args...)
					switch {
					case args[0] == "usage" && code == ExitOK:
						t.Errorf("%s: exit 0\nstdout: %s\nstderr: %s", strings.Join(args, " "), stdout, stderr)
					case args[0] != "usage" && code != want:
						t.Errorf("%s: exit %d, want %d\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, want, stdout, stderr)
					}
					// usage walks a directory: of an empty one it says
					// it holds no agent stream.
					named := strings.Contains(stdout+stderr, in.path) || (args[0] == "usage" && in.dir)
					if !named {
						t.Errorf("%s: the input is not named:\nstdout: %s\nstderr: %s", strings.Join(args, " "), stdout, stderr)
					}
					if args[0] == "validate" && strings.Contains(stdout, "valid: ") {
						t.Errorf("%s: says valid:\n%s", strings.Join(args, " "), stdout)
					}
				}
				for _, args := range [][]string{
					{"verify", "--from-a", from.Name, "--from-b", from.Name, in.path, in.path},
					{"verify", "--from-a", from.Name, "--from-b", from.Name, good, in.path},
				} {
					code, stdout, stderr := runCLI(t, "", args...)
					if code != ExitFailure || stdout != "" || !strings.Contains(stderr, in.path) {
						t.Errorf("%s: exit %d, want %d naming the input\nstdout: %s\nstderr: %s", strings.Join(args, " "), code, ExitFailure, stdout, stderr)
					}
				}
			}
		})
	}
}
