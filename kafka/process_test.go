package kafka

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
	"testing"
)

// buildAgentstream builds the agentstream binary into a temporary
// directory.
func buildAgentstream(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agentstream")
	// go test puts its own go first on PATH.
	cmd := exec.Command("go", "build", "-o", bin, "..")
	cmd.Stderr = os.Stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("building agentstream: %v", err)
	}
	return bin
}

// TestAcceptanceTwoProcesses: two agentstream kafka processes in one
// group over a kfake cluster; the recordings produced line by line,
// interleaved across runs, keyed by run; one worker killed with SIGKILL
// midway. For every run the output, deduplicated by (agentstream-run,
// agentstream-seq) and in seq order, is exactly what agentstream convert
// writes for the recording.
func TestAcceptanceTwoProcesses(t *testing.T) {
	t.Parallel()
	bin := buildAgentstream(t)
	c := newCluster(t, 4)
	runs := recordings(t, "claude", "codex", "jsonenv", "anthropic")
	const to = "jsonenv"
	want := map[string]string{}
	for _, r := range runs {
		var out bytes.Buffer
		cmd := exec.Command(bin, "convert", "--to", to, filepath.Join("..", "testdata", r.id))
		cmd.Stdout = &out
		// Exit 1 is a recording with problems (a cut run, say): its
		// output is still what a run's must be.
		if err := cmd.Run(); err != nil && cmd.ProcessState.ExitCode() != 1 {
			t.Fatalf("convert %s: %v", r.id, err)
		}
		want[r.id] = out.String()
	}
	var stderr [2]syncBuffer
	workers := make([]*exec.Cmd, 2)
	for i := range workers {
		cmd := exec.Command(bin, "kafka", "--brokers", c.ListenAddrs()[0], "--group", "accept",
			"--in", "in", "--out", "out", "--to", to, "--session-timeout", "1s")
		cmd.Stderr = &stderr[i]
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		workers[i] = cmd
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	}
	// Both members own partitions before the first record: the one
	// killed has runs open.
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	if _, err := c.WaitGroupStable(ctx, "accept", 2); err != nil {
		t.Fatal(err)
	}
	recs := interleaved(runs)
	half := len(recs) / 2
	produce(t, c, recs[:half])
	waitOutput(t, c, 50)
	if err := workers[0].Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = workers[0].Wait()
	produce(t, c, recs[half:])
	dups := outputs(t, c, want)
	t.Logf("%d runs, %d input records, %d duplicate output records", len(runs), len(recs), dups)
	if err := workers[1].Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if err := workers[1].Wait(); err != nil {
		t.Errorf("the worker left after SIGTERM: %v\n%s", err, stderr[1].String())
	}
}
