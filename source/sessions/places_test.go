package sessions_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/source/sessions"
)

func TestDefaultPlaces(t *testing.T) {
	t.Parallel()
	home := t.TempDir()
	mk := func(p string) string {
		t.Helper()
		p = filepath.Join(home, p)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	mk(".claude/projects/-home-me-app/s1.jsonl")
	mk(".claude/projects/-home-me-app/s1/subagents/agent-a1.jsonl")
	mk(".claude/projects/-home-me-app/s1/subagents/agent-a1.meta.json")
	mk(".config/claude/projects/-home-me-lib/s2.jsonl")
	mk("cfg1/projects/-x/s3.jsonl")
	mk(".codex/sessions/2026/11/23/rollout-2026-11-23T19-43-53-t1.jsonl")
	mk(".codex/sessions/2026/11/23/notes.txt")
	mk("codexhome/sessions/2026/11/24/rollout-2026-11-24T01-00-00-t2.jsonl")
	mk(".gemini/tmp/abc123/chats/session-1.jsonl")
	mk(".gemini/tmp/abc123/logs.json")
	has := func(all bool) func(string) bool {
		return func(f string) bool { return all || f != "gemini-session" }
	}
	env := func(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

	type found struct{ CLI, Rel, Project string }
	list := func(places []sessions.Place) []found {
		var out []found
		for _, p := range places {
			logs, err := p.Logs()
			if err != nil {
				t.Fatal(err)
			}
			for _, l := range logs {
				rel, _ := filepath.Rel(home, l.Path)
				out = append(out, found{l.CLI, filepath.ToSlash(rel), l.Project})
			}
		}
		return out
	}
	tests := []struct {
		name string
		env  map[string]string
		all  bool
		want []found
	}{
		{"the defaults; no Gemini format yet", nil, false, []found{
			{"claude", ".config/claude/projects/-home-me-lib/s2.jsonl", "-home-me-lib"},
			{"claude", ".claude/projects/-home-me-app/s1/subagents/agent-a1.jsonl", "-home-me-app"},
			{"claude", ".claude/projects/-home-me-app/s1.jsonl", "-home-me-app"},
			{"codex", ".codex/sessions/2026/11/23/rollout-2026-11-23T19-43-53-t1.jsonl", ""},
		}},
		{"with the Gemini format", nil, true, []found{
			{"claude", ".config/claude/projects/-home-me-lib/s2.jsonl", "-home-me-lib"},
			{"claude", ".claude/projects/-home-me-app/s1/subagents/agent-a1.jsonl", "-home-me-app"},
			{"claude", ".claude/projects/-home-me-app/s1.jsonl", "-home-me-app"},
			{"codex", ".codex/sessions/2026/11/23/rollout-2026-11-23T19-43-53-t1.jsonl", ""},
			{"gemini", ".gemini/tmp/abc123/chats/session-1.jsonl", "abc123"},
		}},
		{"CLAUDE_CONFIG_DIR lists several (a projects folder itself too); CODEX_HOME", map[string]string{
			"CLAUDE_CONFIG_DIR": filepath.Join(home, "missing") + "," + filepath.Join(home, "cfg1") + " , " + filepath.Join(home, ".claude", "projects"),
			"CODEX_HOME":        filepath.Join(home, "codexhome"),
		}, false, []found{
			{"claude", "cfg1/projects/-x/s3.jsonl", "-x"},
			{"claude", ".claude/projects/-home-me-app/s1/subagents/agent-a1.jsonl", "-home-me-app"},
			{"claude", ".claude/projects/-home-me-app/s1.jsonl", "-home-me-app"},
			{"codex", "codexhome/sessions/2026/11/24/rollout-2026-11-24T01-00-00-t2.jsonl", ""},
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := list(sessions.DefaultPlaces(env(tt.env), home, has(tt.all)))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if got := sessions.DefaultPlaces(env(nil), t.TempDir(), has(true)); len(got) != 0 {
		t.Errorf("an empty home: %v", got)
	}
}

func TestIsOwnFile(t *testing.T) {
	t.Parallel()
	for name, want := range map[string]bool{
		"p/s1/subagents/agent-a1.meta.json": true, "logs.json": true,
		"p/s1/subagents/agent-a1.jsonl": false, "notes.json": false, "meta.json": false,
	} {
		if got := sessions.IsOwnFile(name); got != want {
			t.Errorf("IsOwnFile(%q) = %v, want %v", name, got, want)
		}
	}
}
