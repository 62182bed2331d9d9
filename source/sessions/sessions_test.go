package sessions

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

const claudeDir = "../../testdata/claude-session"

func TestExpand(t *testing.T) {
	t.Parallel()
	base := func(paths []string) []string {
		var out []string
		for _, p := range paths {
			out = append(out, strings.TrimSuffix(filepath.Base(p), ".session.jsonl"))
		}
		return out
	}
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name   string
		inputs []string
		filter *Filter
		want   []string
	}{
		{
			// Oldest first (not by name), the subagent's transcript left
			// out: it is read with its parent.
			name:   "directory",
			inputs: []string{claudeDir},
			want: []string{
				"hand-branches", // its first line, a summary, has no time: its second says January
				"claude-plain-text", "claude-thinking", "claude-tooluse", "claude-truncated", "claude-multi-tool",
				"claude-tool-error", "claude-unicode", "claude-long-text", "claude-subagent", "claude-error-529",
			},
		},
		{
			name:   "glob",
			inputs: []string{filepath.Join(claudeDir, "claude-t*.jsonl")},
			want:   []string{"claude-thinking", "claude-tooluse", "claude-truncated", "claude-tool-error"},
		},
		{
			name:   "session id",
			inputs: []string{claudeDir},
			filter: &Filter{Session: "b974a714"},
			want:   []string{"claude-subagent"},
		},
		{
			name:   "until",
			inputs: []string{claudeDir},
			filter: &Filter{Until: at("2026-11-23T19:43:05Z")},
			want:   []string{"hand-branches", "claude-plain-text", "claude-thinking"},
		},
		{
			// Files and other names are kept as they are.
			name:   "files",
			inputs: []string{"-", "https://example.com/x", filepath.Join(claudeDir, "claude-subagent.session-1.jsonl")},
			want:   []string{"-", "x", "claude-subagent.session-1.jsonl"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Expand(tt.inputs, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, base(got)); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	// A directory with no selected session is an error, never an empty
	// success.
	if _, err := Expand([]string{claudeDir}, &Filter{Session: "nope"}); err == nil || !strings.Contains(err.Error(), "no session logs found") {
		t.Errorf("Expand with no match: %v", err)
	}
}

func TestSubagents(t *testing.T) {
	t.Parallel()
	// The corpus's layout.
	open := Subagents(filepath.Join(claudeDir, "claude-subagent.session.jsonl"))
	rc, name, err := open("ad6d99c8c276aa89f")
	if err != nil || rc == nil {
		t.Fatalf("open = %v, %v", rc, err)
	}
	rc.Close()
	if filepath.Base(name) != "claude-subagent.session-1.jsonl" {
		t.Errorf("name = %s", name)
	}
	if rc, _, err := open("0000"); rc != nil || err != nil {
		t.Errorf("unknown agent: %v, %v", rc, err)
	}
	// Claude Code's layout: <session>/subagents/agent-<id>.jsonl.
	dir := t.TempDir()
	sub := filepath.Join(dir, "s1", "subagents")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{filepath.Join(dir, "s1.jsonl"), filepath.Join(sub, "agent-a1.jsonl")} {
		if err := os.WriteFile(f, []byte(f), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rc, _, err = Subagents(filepath.Join(dir, "s1.jsonl"))("a1")
	if err != nil || rc == nil {
		t.Fatalf("open = %v, %v", rc, err)
	}
	b, _ := io.ReadAll(rc)
	rc.Close()
	if !strings.HasSuffix(string(b), "agent-a1.jsonl") {
		t.Errorf("read %q", b)
	}
	paths, err := Expand([]string{dir}, nil)
	if err != nil || len(paths) != 1 || filepath.Base(paths[0]) != "s1.jsonl" {
		t.Errorf("Expand = %v, %v", paths, err)
	}
	if Subagents("-") != nil || Subagents("http://x/y") != nil {
		t.Error("Subagents of a stream is not nil")
	}
}

func TestParseTime(t *testing.T) {
	t.Parallel()
	now := time.Date(2026, 11, 23, 12, 0, 0, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Time
		ok   bool
	}{
		{"2026-11-20", time.Date(2026, 11, 20, 0, 0, 0, 0, time.UTC), true},
		{"2026-11-20T10:00:00Z", time.Date(2026, 11, 20, 10, 0, 0, 0, time.UTC), true},
		{"36h", now.Add(-36 * time.Hour), true},
		{"7d", time.Date(2026, 11, 16, 12, 0, 0, 0, time.UTC), true},
		{"-1d", time.Time{}, false},
		{"d", time.Time{}, false},
		{"yesterday", time.Time{}, false},
	}
	for _, tt := range tests {
		got, err := ParseTime(tt.in, now)
		if (err == nil) != tt.ok || !got.Equal(tt.want) {
			t.Errorf("ParseTime(%q) = %v, %v", tt.in, got, err)
		}
	}
}
