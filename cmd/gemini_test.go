package cmd

import (
	"path/filepath"
	"strings"
	"testing"
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
		{run: "error-400", code: ExitNo, want: []string{"agent 1 (main) block 1 (error): only in A"}},
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
