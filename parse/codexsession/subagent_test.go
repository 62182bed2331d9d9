package codexsession

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
)

const (
	subagentDir = "../../testdata/codex-subagent/sessions/2026/11/23"
	parentID    = "019ab3c0-5e10-7a21-9c3e-4f1b2d8e6a01"
	childID     = "019ab3c0-6a42-7b03-8d15-0c9e7f3a2b44"
)

func rollout(id string) string {
	return filepath.Join(subagentDir, "rollout-2026-11-23T20-10-00-"+id+".jsonl")
}

// openRollouts opens the rollouts of testdata/codex-subagent by thread id,
// and counts what it was asked for.
func openRollouts(asked *[]string) func(string) (io.ReadCloser, string, error) {
	return func(id string) (io.ReadCloser, string, error) {
		*asked = append(*asked, id)
		f, err := os.Open(rollout(id))
		if errors.Is(err, os.ErrNotExist) {
			return nil, "", nil
		}
		return f, filepath.Base(rollout(id)), err
	}
}

// outline writes each event as its type, its agent, and what tells a
// subagent's start apart.
func outline(items []eventtest.Item) []string {
	var out []string
	for _, it := range items {
		if it.Err != "" {
			out = append(out, "error: "+it.Err)
			continue
		}
		s := fmt.Sprintf("%T", it.Event)[len("*event."):]
		switch ev := it.Event.(type) {
		case *event.SessionStart:
			s += fmt.Sprintf(" %s parent=%q tool=%q name=%q prompt=%q", ev.Agent, ev.ParentAgent, ev.ParentToolID, ev.Name, ev.Prompt)
		case *event.ToolCall:
			s += " " + ev.Agent + " " + ev.Name
		case *event.ToolResult:
			s += " " + ev.Agent + " " + ev.Name
		case *event.Delta:
			s += " " + ev.Agent + " " + ev.Text
		case *event.TurnStart:
			s += " " + ev.Agent
		case *event.TurnEnd:
			s += " " + ev.Agent
		default:
			continue
		}
		out = append(out, s)
	}
	return out
}

// TestSubagent: the rollout of the thread spawn_agent started is read
// after the call's result, in the subagent's scope under the call.
func TestSubagent(t *testing.T) {
	t.Parallel()
	main := []string{
		fmt.Sprintf("SessionStart %s parent=\"\" tool=\"\" name=\"\" prompt=%q", parentID, "Have a subagent count the Go files here, then tell me the count."),
		"TurnStart " + parentID,
		"ToolCall " + parentID + " spawn_agent",
		"ToolResult " + parentID + " spawn_agent",
	}
	child := []string{
		fmt.Sprintf("SessionStart %s parent=%q tool=\"call_spawn_1\" name=\"explorer\" prompt=%q", childID, parentID, "Count the .go files under the current directory."),
		"TurnStart " + childID,
		"ToolCall " + childID + " exec_command",
		"ToolResult " + childID + " exec_command",
		"Delta " + childID + " There are 3 .go files.",
		"TurnEnd " + childID,
	}
	rest := []string{
		"ToolCall " + parentID + " wait",
		"ToolResult " + parentID + " wait",
		"Delta " + parentID + " The subagent counted 3 Go files.",
		"TurnEnd " + parentID,
	}
	tests := []struct {
		name   string
		opener bool
		want   []string
	}{
		{"read with its parent", true, append(append(append([]string{}, main...), child...), rest...)},
		{"no opener: the call stands alone", false, append(append([]string{}, main...), rest...)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var asked []string
			cfg := &Config{Source: "parent.jsonl"}
			if tt.opener {
				cfg.Subagent = openRollouts(&asked)
			}
			f, err := os.Open(rollout(parentID))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			if diff := cmp.Diff(tt.want, outline(eventtest.Collect(NewDecoder(f, cfg)))); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
			if tt.opener && !cmp.Equal(asked, []string{childID}) {
				t.Errorf("opened %q, want the child thread only", asked)
			}
		})
	}
}

// TestSubagentProblems: a rollout that cannot be opened, or that fails
// while read, is a positioned problem, and the parent goes on.
func TestSubagentProblems(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(rollout(parentID))
	if err != nil {
		t.Fatal(err)
	}
	child, err := os.ReadFile(rollout(childID))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name string
		open func(string) (io.ReadCloser, string, error)
		want string
	}{
		{"open fails", func(string) (io.ReadCloser, string, error) {
			return nil, "", errors.New("permission denied")
		}, "parent.jsonl:6:1: subagent " + childID + ": permission denied"},
		{"read fails", func(string) (io.ReadCloser, string, error) {
			r := io.MultiReader(strings.NewReader(string(child[:300])), iotestErr{})
			return io.NopCloser(r), "child.jsonl", nil
		}, "parent.jsonl:6:1: reading the rollout of subagent " + childID + ": disk gone"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			items := eventtest.Collect(NewDecoder(strings.NewReader(string(data)), &Config{Source: "parent.jsonl", Subagent: tt.open}))
			var errs []string
			waits := 0
			for _, it := range items {
				if it.Err != "" {
					errs = append(errs, it.Err)
				}
				if c, ok := it.Event.(*event.ToolCall); ok && c.Name == "wait" {
					waits++
				}
			}
			if diff := cmp.Diff([]string{tt.want}, errs); diff != "" {
				t.Errorf("problems (-want +got):\n%s", diff)
			}
			if waits != 1 {
				t.Errorf("the parent did not go on after the problem: %d wait calls", waits)
			}
		})
	}
}

type iotestErr struct{}

func (iotestErr) Read([]byte) (int, error) { return 0, errors.New("disk gone") }

// TestSubagentDepth: a subagent that spawns itself is not read forever.
func TestSubagentDepth(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile(rollout(parentID))
	if err != nil {
		t.Fatal(err)
	}
	opened := 0
	open := func(string) (io.ReadCloser, string, error) {
		opened++
		return io.NopCloser(strings.NewReader(string(data))), "loop.jsonl", nil
	}
	items := eventtest.Collect(NewDecoder(strings.NewReader(string(data)), &Config{Source: "parent.jsonl", Subagent: open}))
	if opened != maxDepth {
		t.Errorf("opened %d rollouts, want %d", opened, maxDepth)
	}
	last := ""
	for _, it := range items {
		if it.Err != "" {
			last = it.Err
		}
	}
	if !strings.Contains(last, "nested more than 8 deep; not read") {
		t.Errorf("last problem %q, want the depth cap", last)
	}
}
