package cmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestGeminiSessionVerify: a Gemini CLI run's stream-json stdout and the
// session log the same process wrote carry the same content, with what
// stream-json cannot carry (thoughts, structured output) and what the log
// cannot (the session's model, the run's end, the white space around an
// answer) listed as not compared. The API error run's log keeps no trace
// of the error: verify says so.
func TestGeminiSessionVerify(t *testing.T) {
	t.Parallel()
	tests := []struct {
		run, stdout string
		args        []string
		code        int
		want        []string
	}{
		{run: "plain-text", code: ExitOK, want: []string{"equal: 1 agent, 1 block"}},
		{run: "read-file", code: ExitOK, want: []string{
			"not compared: text_edges (B (gemini-session) cannot carry it)",
			"not compared: structured (A (gemini) cannot carry it)",
			"equal: 1 agent, 4 blocks",
		}},
		{run: "tool-error", code: ExitOK, want: []string{"equal: 1 agent, 5 blocks"}},
		{run: "json-plain-text", stdout: "json-plain-text.json", args: []string{"--ignore", "prompt"}, code: ExitOK, want: []string{"equal: 1 agent, 1 block"}},
		// The log keeps no trace of the API error: not compared.
		{run: "error-400", code: ExitOK, want: []string{"not compared: error (B (gemini-session) cannot carry it)"}},
		{run: "hand-thoughts", stdout: "-", code: ExitOK},
	}
	for _, tt := range tests {
		t.Run(tt.run, func(t *testing.T) {
			t.Parallel()
			log := filepath.Join("..", "testdata", "gemini-session", tt.run+".session.jsonl")
			if tt.stdout == "-" {
				// A log against its own conversion to stream-json: the
				// thoughts are named as not compared.
				code, out, errs := runCLI(t, "", "convert", "--to", "gemini", log)
				if code != ExitOK {
					t.Fatalf("convert: exit %d: %s", code, errs)
				}
				code, report, errs := runCLI(t, out, "verify", log, "-")
				if code != ExitOK || !strings.Contains(report, "not compared: thinking (B (gemini) cannot carry it)") {
					t.Errorf("verify: exit %d\n%s%s", code, report, errs)
				}
				return
			}
			stdout := tt.stdout
			if stdout == "" {
				stdout = tt.run + ".jsonl"
			}
			args := append([]string{"verify"}, tt.args...)
			args = append(args, filepath.Join("..", "testdata", "gemini", stdout), log)
			code, out, errs := runCLI(t, "", args...)
			if code != tt.code {
				t.Errorf("verify: exit %d, want %d\n%s%s", code, tt.code, out, errs)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("verify does not say %q:\n%s", w, out)
				}
			}
		})
	}
}

// TestGeminiAssembleJSON: `assemble -o json` of every Gemini CLI
// recording (testdata and the shared corpus) gives the text, tool calls
// and results its lines hold, read here from the raw lines.
func TestGeminiAssembleJSON(t *testing.T) {
	t.Parallel()
	var files []string
	for _, dir := range []string{"../testdata/gemini", "../../shared/corpus/gemini"} {
		fs, _ := filepath.Glob(filepath.Join(dir, "*.jsonl"))
		for _, f := range fs {
			if !strings.Contains(f, ".session.") {
				files = append(files, f)
			}
		}
	}
	if len(files) == 0 {
		t.Fatal("no recordings")
	}
	for _, path := range files {
		t.Run(path, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			// From the raw lines: runs of assistant text, calls, results.
			var want []string
			text, open := "", false
			flush := func() {
				if open {
					want = append(want, "text "+text)
				}
				text, open = "", false
			}
			for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
				var m map[string]any
				if err := json.Unmarshal([]byte(line), &m); err != nil {
					t.Fatal(err)
				}
				switch {
				case m["type"] == "message" && m["role"] == "assistant":
					if m["delta"] != true {
						flush()
					}
					text += m["content"].(string)
					open = true
					if m["delta"] != true {
						flush()
					}
				case m["type"] == "tool_use":
					flush()
					in, _ := json.Marshal(m["parameters"])
					want = append(want, "call "+m["tool_id"].(string)+" "+m["tool_name"].(string)+" "+string(in))
				case m["type"] == "tool_result":
					flush()
					out, _ := m["output"].(string)
					want = append(want, "result "+m["tool_id"].(string)+" "+m["status"].(string)+" "+out)
				default:
					flush()
				}
			}
			flush()
			code, stdout, errs := runCLI(t, "", "assemble", "-o", "json", path)
			if code != ExitOK {
				t.Fatalf("assemble: exit %d: %s", code, errs)
			}
			var got []string
			for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
				var b struct {
					Type, Text, ID, Name, Content string
					Input                         json.RawMessage
					IsError                       bool `json:"is_error"`
				}
				if err := json.Unmarshal([]byte(line), &b); err != nil {
					t.Fatal(err)
				}
				switch b.Type {
				case "text":
					got = append(got, "text "+b.Text)
				case "tool_call":
					var in any
					json.Unmarshal(b.Input, &in)
					compact, _ := json.Marshal(in)
					got = append(got, "call "+b.ID+" "+b.Name+" "+string(compact))
				case "tool_result":
					status := "success"
					if b.IsError {
						status = "error"
					}
					got = append(got, "result "+b.ID+" "+status+" "+b.Content)
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("assemble -o json differs from the lines (-lines +assembled):\n%s", diff)
			}
		})
	}
}
