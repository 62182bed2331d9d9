package sessions

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

const (
	codexDir      = "../../testdata/codex-subagent/sessions"
	codexDay      = codexDir + "/2026/11/23"
	codexParentID = "019ab3c0-5e10-7a21-9c3e-4f1b2d8e6a01"
	codexChildID  = "019ab3c0-6a42-7b03-8d15-0c9e7f3a2b44"
)

func codexRolloutName(id string) string { return "rollout-2026-11-23T20-10-00-" + id + ".jsonl" }

// TestExpandCodexSubagent: a Codex subagent's rollout, whose session_meta
// names its parent thread, is read with the parent's, not listed as a
// session of its own; alone (its parent not among the logs) it is one.
func TestExpandCodexSubagent(t *testing.T) {
	t.Parallel()
	only := filepath.Join(t.TempDir(), "2026", "11", "23")
	if err := os.MkdirAll(only, 0o755); err != nil {
		t.Fatal(err)
	}
	copyFile(t, filepath.Join(codexDay, codexRolloutName(codexChildID)), filepath.Join(only, codexRolloutName(codexChildID)))
	tests := []struct {
		name   string
		inputs []string
		filter *Filter
		want   []string
	}{
		{"directory", []string{codexDir}, nil, []string{codexRolloutName(codexParentID)}},
		{"glob", []string{codexDay + "/rollout-*.jsonl"}, nil, []string{codexRolloutName(codexParentID)}},
		{"parent's id", []string{codexDir}, &Filter{Session: codexParentID[:13]}, []string{codexRolloutName(codexParentID)}},
		{"no parent here", []string{filepath.Dir(filepath.Dir(filepath.Dir(only)))}, nil, []string{codexRolloutName(codexChildID)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := Expand(tt.inputs, tt.filter)
			if err != nil {
				t.Fatal(err)
			}
			var names []string
			for _, p := range got {
				names = append(names, filepath.Base(p))
			}
			if diff := cmp.Diff(tt.want, names); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
	if _, err := Expand([]string{codexDir}, &Filter{Session: codexChildID}); err == nil || !strings.Contains(err.Error(), "no session logs found") {
		t.Errorf("the subagent's own id selected %v", err)
	}
}

// TestSubagentsCodex: the opener finds a thread's rollout beside the
// parent's or in another day's directory of the same tree.
func TestSubagentsCodex(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	day1 := filepath.Join(root, "2026", "11", "23")
	day2 := filepath.Join(root, "2026", "11", "24")
	for _, d := range []string{day1, day2} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	parent := filepath.Join(day1, codexRolloutName(codexParentID))
	copyFile(t, filepath.Join(codexDay, codexRolloutName(codexParentID)), parent)
	copyFile(t, filepath.Join(codexDay, codexRolloutName(codexChildID)), filepath.Join(day2, "rollout-2026-11-24T00-00-01-"+codexChildID+".jsonl"))
	tests := []struct {
		name, path, id, want string
	}{
		{"beside", filepath.Join(codexDay, codexRolloutName(codexParentID)), codexChildID, codexRolloutName(codexChildID)},
		{"another day", parent, codexChildID, "rollout-2026-11-24T00-00-01-" + codexChildID + ".jsonl"},
		{"unknown thread", parent, "019ab3c0-0000-7000-8000-000000000000", ""},
		{"a pattern is no id", parent, "*", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rc, name, err := Subagents(tt.path)(tt.id)
			if err != nil {
				t.Fatal(err)
			}
			if tt.want == "" {
				if rc != nil {
					rc.Close()
					t.Errorf("opened %s", name)
				}
				return
			}
			if rc == nil {
				t.Fatalf("no rollout found for %s", tt.id)
			}
			b, _ := io.ReadAll(rc)
			rc.Close()
			if filepath.Base(name) != tt.want || !strings.Contains(string(b), `"parent_thread_id":"`+codexParentID+`"`) {
				t.Errorf("opened %s", name)
			}
		})
	}
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}
