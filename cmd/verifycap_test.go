package cmd

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/verify"
)

// TestVerifyPastCap: two inputs past verify's caps exit 2 with "cannot
// compare", never equal and never different: more agents open at once
// than it holds (A's agents, which B has not), and streams that differ
// over more blocks than it holds.
func TestVerifyPastCap(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	write := func(name string, n int, line func(i int) string) string {
		path := filepath.Join(dir, name)
		f, err := os.Create(path)
		if err != nil {
			t.Fatal(err)
		}
		w := bufio.NewWriter(f)
		for i := range n {
			fmt.Fprintln(w, line(i))
		}
		if err := w.Flush(); err != nil {
			t.Fatal(err)
		}
		if err := f.Close(); err != nil {
			t.Fatal(err)
		}
		return path
	}
	agents := write("agents.jsonl", verify.DefaultMaxAgents+1, func(i int) string {
		// An agent's meta_init: the agent, and no block to compare.
		return fmt.Sprintf(`{"type":"meta_init","agent":"a%d","final":true,"delta":"{\"format\": \"json\", \"agent_uuid\": \"a%d\"}"}`, i, i)
	})
	call := func(i int) string {
		return fmt.Sprintf(`{"type":"tool_call","agent":"","final":true,"delta":"{}","id":"c%d","name":"Read"}`, i)
	}
	calls := write("calls.jsonl", verify.DefaultMaxHeld+2, call)
	ahead := write("ahead.jsonl", 2*verify.DefaultMaxHeld+4, func(i int) string {
		// The calls of calls.jsonl, each twice: from the second block
		// on, both sides' blocks are held to the end.
		return call(i / 2)
	})
	for _, tt := range []struct {
		name, a, b, want string
	}{
		{"agents", agents, calls, fmt.Sprintf("agentstream: cannot compare: more than %d agents open at once", verify.DefaultMaxAgents)},
		{"differ", calls, ahead, fmt.Sprintf("agentstream: cannot compare: more than %d blocks wait", verify.DefaultMaxHeld)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out, errb bytes.Buffer
			code := Run(context.Background(), []string{"verify", "--from-a", "jsonenv", "--from-b", "jsonenv", tt.a, tt.b}, &IOStreams{In: strings.NewReader(""), Out: &out, Err: &errb})
			if code != 2 || out.Len() != 0 || !strings.Contains(errb.String(), tt.want) {
				t.Errorf("exit %d, stdout %q, stderr %q; want exit 2, nothing, %q", code, out.String(), errb.String(), tt.want)
			}
		})
	}
}
