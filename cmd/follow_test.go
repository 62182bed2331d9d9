package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// lineBuffer is a writer a test can wait on for a line.
type lineBuffer struct {
	mu   sync.Mutex
	buf  bytes.Buffer
	more chan struct{}
}

func newLineBuffer() *lineBuffer { return &lineBuffer{more: make(chan struct{}, 1)} }

func (b *lineBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	select {
	case b.more <- struct{}{}:
	default:
	}
	return len(p), nil
}

func (b *lineBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor waits until the output holds want, failing the test at the
// deadline (a generous one: the test asserts the event arrives, not how
// fast).
func (b *lineBuffer) waitFor(t *testing.T, want string, deadline time.Time) {
	t.Helper()
	for !strings.Contains(b.String(), want) {
		select {
		case <-b.more:
		case <-time.After(time.Until(deadline)):
			t.Fatalf("%q never arrived; output so far:\n%s", want, b.String())
		}
	}
}

// TestFollow appends one event at a time to a file that convert and
// assemble --follow read, and waits for each event in their output
// before appending the next; --until-end ends them at the run end.
func TestFollow(t *testing.T) {
	t.Parallel()
	lines := []string{
		`{"type":"meta_init","agent":"A","final":true,"delta":"{\"format\":\"json\",\"agent_uuid\":\"A\",\"model\":\"m\"}"}`,
		`{"type":"tool_call","agent":"A","final":true,"delta":"{\"command\":\"ls\"}","id":"t1","name":"Bash"}`,
		`{"type":"tool_result","agent":"A","final":true,"delta":"ok","id":"t1","name":"Bash"}`,
		`{"type":"meta_final","agent":"A","final":true,"delta":"{\"stop_reason\":\"end_turn\"}"}`,
	}
	// What each command writes for each line.
	for _, tt := range []struct {
		args []string
		outs []string
	}{
		{[]string{"convert", "--to", "jsonenv", "--framing", "ndjson"}, []string{`"meta_init"`, `"tool_call"`, `"tool_result"`, `"meta_final"`}},
		{[]string{"assemble", "-o", "json"}, []string{`"meta_init"`, `"tool_call"`, `"tool_result"`, `"meta_final"`}},
		{[]string{"assemble", "-o", "html"}, []string{`t-meta_init`, `t-tool_call`, `t-tool_result`, `t-meta_final`}},
	} {
		args := tt.args
		t.Run(strings.Join(args[:3], " "), func(t *testing.T) {
			t.Parallel()
			name := filepath.Join(t.TempDir(), "run.jsonl")
			if err := os.WriteFile(name, nil, 0o644); err != nil {
				t.Fatal(err)
			}
			out, errb := newLineBuffer(), &bytes.Buffer{}
			done := make(chan int, 1)
			go func() {
				done <- Run(t.Context(), append(args, "--from", "jsonenv", "-F", "--until-end", name), &IOStreams{In: strings.NewReader(""), Out: out, Err: errb})
			}()
			f, err := os.OpenFile(name, os.O_APPEND|os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			deadline := time.Now().Add(20 * time.Second)
			for i, l := range lines {
				if _, err := f.WriteString(l + "\n"); err != nil {
					t.Fatal(err)
				}
				out.waitFor(t, tt.outs[i], deadline)
			}
			select {
			case code := <-done:
				if code != 0 {
					t.Errorf("exit %d; stderr:\n%s", code, errb)
				}
			case <-time.After(time.Until(deadline)):
				t.Fatal("--until-end did not stop at the run end")
			}
		})
	}
}
