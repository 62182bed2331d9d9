package cmd

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// sessionPairs are the runs of ../testdata/sessions: each run's stdout
// (<run>.jsonl) and the session log the same process wrote
// (<run>.session.jsonl in ../testdata/claude-session or codex-session), with what verify must be told to ignore
// (docs/formats/claude-session.md, docs/formats/codex-session.md).
var sessionPairs = []struct {
	run    string
	ignore string
	// extra are the transcript lines only the session log has:
	// stream-json does not carry a subagent's text.
	extra []string
}{
	{run: "claude-plain-text", ignore: "model"},
	{run: "claude-thinking", ignore: "model"},
	{run: "claude-tooluse", ignore: "model"},
	{run: "claude-multi-tool", ignore: "model"},
	{run: "claude-tool-error", ignore: "model"},
	{run: "claude-unicode", ignore: "model"},
	{run: "claude-long-text", ignore: "model"},
	{run: "claude-error-529", ignore: "model"},
	{run: "claude-subagent", ignore: "model,turn_end", extra: []string{
		"│ Subagent here; running a command.",
		"│ Subagent result: the command printed `from-subagent`.",
	}},
	{run: "codex-plain", ignore: "ids"},
	{run: "codex-reasoning", ignore: "ids"},
	{run: "codex-shell", ignore: "ids"},
	{run: "codex-shell-fail", ignore: "ids"},
	{run: "codex-multi-shell", ignore: "ids"},
	{run: "codex-unicode", ignore: "ids"},
	{run: "codex-error-400", ignore: "ids"},
	{run: "codex-error-500", ignore: "ids"},
	{run: "codex-response-failed", ignore: "ids"},
}

// sessionLog returns the path of a run's session log.
func sessionLog(run string) string {
	dir := "claude-session"
	if strings.HasPrefix(run, "codex-") {
		dir = "codex-session"
	}
	return filepath.Join("..", "testdata", dir, run+".session.jsonl")
}

// TestSessionVerify: every stdout recording and its session log carry the
// same content, usage included, given what the docs say to ignore.
func TestSessionVerify(t *testing.T) {
	t.Parallel()
	for _, p := range sessionPairs {
		t.Run(p.run, func(t *testing.T) {
			t.Parallel()
			dir := "../testdata/sessions"
			args := []string{
				"verify", "--usage", "--ignore", p.ignore,
				filepath.Join(dir, p.run+".jsonl"), sessionLog(p.run),
			}
			code, out, errs := runCLI(t, "", args...)
			if p.extra != nil {
				// The subagent's text blocks are the only difference.
				var diffs []string
				for _, l := range strings.Split(out, "\n") {
					if strings.HasPrefix(l, "agent ") {
						diffs = append(diffs, l)
					}
				}
				want := []string{
					"agent 2 (general-purpose) B block 1 (text): only in B",
					"agent 2 (general-purpose) B block 4 (text): only in B",
				}
				if diff := cmp.Diff(want, diffs); code != 1 || diff != "" {
					t.Errorf("verify: exit %d (-want +got):\n%s\n%s", code, diff, errs)
				}
				return
			}
			if code != 0 || !strings.Contains(out, "equal:") {
				t.Errorf("verify: exit %d\n%s%s", code, out, errs)
			}
		})
	}
}

// TestSessionTranscripts: a session log assembles to the transcript of
// its stdout twin, apart from what only one side has (the session's
// header and run summary, notices, the prompt, which stream-json does not
// carry, and the subagent text of sessionPairs.extra). The session logs'
// transcripts are golden files.
func TestSessionTranscripts(t *testing.T) {
	t.Parallel()
	for _, p := range sessionPairs {
		t.Run(p.run, func(t *testing.T) {
			t.Parallel()
			dir := "../testdata/sessions"
			code, stdout, errs := runCLI(t, "", "assemble", filepath.Join(dir, p.run+".jsonl"))
			if code != 0 {
				t.Fatalf("assemble stdout: exit %d: %s", code, errs)
			}
			code, session, errs := runCLI(t, "", "assemble", sessionLog(p.run))
			if code != 0 {
				t.Fatalf("assemble session: exit %d: %s", code, errs)
			}
			golden := filepath.Join(dir, "golden", p.run+".session.txt")
			if *update {
				if err := os.WriteFile(golden, []byte(session), 0o644); err != nil {
					t.Fatal(err)
				}
			} else if want, err := os.ReadFile(golden); err != nil || string(want) != session {
				t.Errorf("transcript differs from %s (run go test -run TestSessionTranscripts -update): %v\n%s", golden, err, session)
			}
			want := content(stdout)
			got := content(session)
			for _, x := range p.extra {
				want = insertLike(want, got, x)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("session transcript differs from stdout's (-stdout +session):\n%s", diff)
			}
		})
	}
}

// content returns the lines of a transcript that show content: not the
// header, the run summary, notices, the prompt or blank lines.
func content(transcript string) []string {
	var out []string
	for _, l := range strings.Split(transcript, "\n") {
		t := strings.TrimSpace(strings.TrimPrefix(l, "│"))
		if t == "" || strings.HasPrefix(t, "●") || strings.HasPrefix(t, "■") || strings.HasPrefix(t, "•") ||
			strings.HasPrefix(t, "❯") {
			continue
		}
		// The session log names the error's kind where stdout has none.
		out = append(out, errorKind.ReplaceAllString(l, "$1"))
	}
	return out
}

var errorKind = regexp.MustCompile(`^(\s*✗ error: )[a-z_]+: `)

// insertLike inserts line x into want where it sits in got.
func insertLike(want, got []string, x string) []string {
	for i, l := range got {
		if l == x && i <= len(want) {
			return append(want[:i:i], append([]string{x}, want[i:]...)...)
		}
	}
	return want
}
