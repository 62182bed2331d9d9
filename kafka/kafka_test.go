package kafka

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/agentstream/agentstream/convert"
)

// The tests run a kfake cluster (franz-go's Kafka in process) on
// 127.0.0.1 and workers against it. A deadline (hangGuard) only stops a
// test that hangs; no assertion depends on time.
const hangGuard = 2 * time.Minute

// newCluster starts a one-broker cluster with topics in and out of n
// partitions each.
func newCluster(t testing.TB, n int32) *kfake.Cluster {
	t.Helper()
	c, err := kfake.NewCluster(
		kfake.NumBrokers(1),
		kfake.SeedTopics(n, "in", "out", "problems"),
		kfake.GroupMinSessionTimeout(100*time.Millisecond),
	)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	return c
}

// recording is one run to send: its id and its units (lines, or SSE
// messages with their blank line).
type recording struct {
	id    string
	units [][]byte
	data  []byte
}

// units splits data into the units of its framing.
func units(data []byte) [][]byte {
	sse := bytes.HasPrefix(data, []byte("data:")) || bytes.HasPrefix(data, []byte("event:"))
	var out [][]byte
	for len(data) > 0 {
		n := len(data)
		sep := []byte("\n")
		if sse {
			sep = []byte("\n\n")
		}
		if i := bytes.Index(data, sep); i >= 0 {
			n = i + len(sep)
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}

// recordings reads the real producers' recordings of dirs under
// ../testdata (not the hand-made ones).
func recordings(t testing.TB, dirs ...string) []recording {
	t.Helper()
	var out []recording
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join("..", "testdata", dir, "*"))
		for _, f := range files {
			base := filepath.Base(f)
			if strings.HasPrefix(base, "hand-") || strings.HasSuffix(base, ".md") {
				continue
			}
			b, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, recording{id: dir + "/" + base, units: units(b), data: b})
		}
	}
	if len(out) == 0 {
		t.Fatal("no recordings")
	}
	return out
}

// interleaved returns the records of runs, one unit of each run in turn,
// the last of each with the end header.
func interleaved(runs []recording) []*kgo.Record {
	var out []*kgo.Record
	for i := 0; ; i++ {
		more := false
		for _, r := range runs {
			if i >= len(r.units) {
				continue
			}
			more = true
			rec := &kgo.Record{Topic: "in", Key: []byte(r.id), Value: r.units[i]}
			if i == len(r.units)-1 {
				rec.Headers = []kgo.RecordHeader{{Key: HeaderEnd}}
			}
			out = append(out, rec)
		}
		if !more {
			return out
		}
	}
}

func produce(t testing.TB, c *kfake.Cluster, recs []*kgo.Record) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.RecordPartitioner(kgo.StickyKeyPartitioner(nil)),
		kgo.MetadataMinAge(50*time.Millisecond), kgo.RetryBackoffFn(func(int) time.Duration { return 20 * time.Millisecond }))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	fresh := make([]*kgo.Record, len(recs)) // kgo keeps state in a record it produced
	for i, r := range recs {
		fresh[i] = &kgo.Record{Topic: r.Topic, Key: r.Key, Value: r.Value, Headers: r.Headers, Timestamp: r.Timestamp}
	}
	if err := cl.ProduceSync(ctx, fresh...).FirstErr(); err != nil {
		t.Fatal(err)
	}
}

// wholeOutput is what converting data whole to the format to writes.
func wholeOutput(t testing.TB, data []byte, to convert.Format) string {
	t.Helper()
	var out bytes.Buffer
	s := convert.NewSession(&out, &convert.SessionOptions{To: to, Problem: func(error) bool { return true }})
	if _, err := s.Write(data); err != nil && err.Error() != "EOF" {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// outputs reads topic out until every run of want has its whole output
// (deduplicated by run and seq), and checks the records: headers set,
// duplicates the same bytes, output as wanted. It returns how many
// records were duplicates.
func outputs(t *testing.T, c *kfake.Cluster, want map[string]string) (dups int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ConsumeTopics("out"),
		kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	got := map[string]map[int64][]byte{}
	complete := func(run string) bool {
		var b []byte
		for i := int64(0); ; i++ {
			u, ok := got[run][i]
			if !ok {
				break
			}
			b = append(b, u...)
		}
		return len(b) >= len(want[run])
	}
	for {
		done := true
		for run := range want {
			done = done && complete(run)
		}
		if done {
			break
		}
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("output incomplete: %d of %d runs", countComplete(want, complete), len(want))
		}
		fs.EachRecord(func(r *kgo.Record) {
			var run string
			seq := int64(-1)
			for _, h := range r.Headers {
				switch h.Key {
				case HeaderRun:
					run = string(h.Value)
				case HeaderSeq:
					seq, _ = strconv.ParseInt(string(h.Value), 10, 64)
				}
			}
			if run != string(r.Key) || seq < 0 {
				t.Errorf("record %d/%d: key %q, run %q, seq %d", r.Partition, r.Offset, r.Key, run, seq)
				return
			}
			if got[run] == nil {
				got[run] = map[int64][]byte{}
			}
			if prev, ok := got[run][seq]; ok {
				dups++
				if !bytes.Equal(prev, r.Value) {
					t.Errorf("run %s seq %d written twice, differently:\n%q\n%q", run, seq, prev, r.Value)
				}
				return
			}
			got[run][seq] = r.Value
		})
	}
	for run, w := range want {
		var b []byte
		for i := range int64(len(got[run])) {
			u, ok := got[run][i]
			if !ok {
				t.Errorf("run %s: seq %d missing", run, i)
			}
			b = append(b, u...)
		}
		if diff := cmp.Diff(w, string(b)); diff != "" {
			t.Errorf("run %s: output differs from convert (-convert +kafka):\n%s", run, diff)
		}
	}
	return dups
}

func countComplete(want map[string]string, complete func(string) bool) int {
	n := 0
	for run := range want {
		if complete(run) {
			n++
		}
	}
	return n
}

// testConfig is a worker's configuration for cluster c.
func testConfig(c *kfake.Cluster, to convert.Format, stderr *syncBuffer) Config {
	return Config{
		Brokers: c.ListenAddrs(), Group: "g", In: "in", Out: "out", To: to,
		RunIdle: time.Hour, SessionTimeout: time.Second, Stderr: stderr,
		Opts: []kgo.Opt{kgo.MetadataMinAge(50 * time.Millisecond), kgo.RetryBackoffFn(func(int) time.Duration { return 20 * time.Millisecond })},
	}
}

// syncBuffer is a bytes.Buffer for several goroutines.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// member is a running worker.
type member struct {
	w      *worker
	cancel context.CancelFunc
	done   chan error
}

func start(t testing.TB, c Config) *member {
	t.Helper()
	w, err := newWorker(c)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	m := &member{w: w, cancel: cancel, done: make(chan error, 1)}
	go func() { m.done <- w.run(ctx) }()
	t.Cleanup(func() { m.stop(t) })
	return m
}

// stop shuts the member down as SIGTERM does.
func (m *member) stop(t testing.TB) {
	t.Helper()
	if m.cancel == nil {
		return
	}
	m.cancel()
	m.cancel = nil
	if err := <-m.done; err != nil {
		t.Error(err)
	}
}

// kill stops the member as if its process died: no commit.
func (m *member) kill() {
	close(m.w.killed)
	m.cancel()
	m.cancel = nil
	<-m.done
}

func wantOutputs(t testing.TB, runs []recording, to convert.Format) map[string]string {
	want := map[string]string{}
	for _, r := range runs {
		want[r.id] = wholeOutput(t, r.data, to)
	}
	return want
}

func lookup(t testing.TB, name string) convert.Format {
	f, ok := convert.Lookup(name)
	if !ok {
		t.Fatalf("no format %s", name)
	}
	return f
}

// TestInterleavedRuns: runs of four formats, interleaved record by record
// over four partitions, each come out as convert writes them.
func TestInterleavedRuns(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 4)
	runs := recordings(t, "claude", "codex", "jsonenv", "anthropic")
	to := lookup(t, "jsonenv")
	var stderr syncBuffer
	start(t, testConfig(c, to, &stderr))
	produce(t, c, interleaved(runs))
	if dups := outputs(t, c, wantOutputs(t, runs, to)); dups != 0 {
		t.Errorf("%d duplicates with one member and no failure", dups)
	}
}

// TestUnitsWithoutNewlines: a producer that sends each line without its
// newline (kcat does), or each SSE message without its blank line, gets
// the same output.
func TestUnitsWithoutNewlines(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2)
	runs := recordings(t, "claude", "jsonenv")
	to := lookup(t, "codex")
	recs := interleaved(runs)
	for _, r := range recs {
		r.Value = bytes.TrimRight(r.Value, "\n")
	}
	var stderr syncBuffer
	start(t, testConfig(c, to, &stderr))
	produce(t, c, recs)
	outputs(t, c, wantOutputs(t, runs, to))
}

// TestEndMarkers: runs end at their format's end marker without the end
// header: the next run under the same id is a new run, numbered from 0.
func TestEndMarkers(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 1)
	to := lookup(t, "claude")
	runs := recordings(t, "jsonenv")[:1]
	claude := recordings(t, "claude")[:1]
	var recs []*kgo.Record
	for _, r := range append(runs, claude...) {
		for _, u := range r.units {
			recs = append(recs, &kgo.Record{Topic: "in", Key: []byte("same"), Value: u})
		}
	}
	var stderr syncBuffer
	start(t, testConfig(c, to, &stderr))
	produce(t, c, recs)
	// The two runs share an id: the output is the first run's then the
	// second's, each numbered from 0; read by seq the second overwrites.
	want := wholeOutput(t, claude[0].data, to)
	first := wholeOutput(t, runs[0].data, to)
	cl, _ := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ConsumeTopics("out"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	var all []byte
	zeros := 0
	for len(all) < len(first)+len(want) {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("output incomplete: %d bytes", len(all))
		}
		fs.EachRecord(func(r *kgo.Record) {
			all = append(all, r.Value...)
			for _, h := range r.Headers {
				if h.Key == HeaderSeq && string(h.Value) == "0" {
					zeros++
				}
			}
		})
	}
	if diff := cmp.Diff(first+want, string(all)); diff != "" {
		t.Errorf("output (-want +got):\n%s", diff)
	}
	if zeros != 2 {
		t.Errorf("%d records numbered 0, want 2 (two runs)", zeros)
	}
}

// TestKilledMember: a member dies mid-run (no commit); the member that
// takes its partitions over finishes its runs: nothing is lost, and what
// is written twice has the same run and seq. With a small cap on the
// commit metadata the commit names only the runs a replay must skip.
func TestKilledMember(t *testing.T) {
	t.Parallel()
	for _, maxMeta := range []int{DefaultMaxCommitMetadata, 300} {
		t.Run(fmt.Sprintf("metadata=%d", maxMeta), func(t *testing.T) {
			t.Parallel()
			c := newCluster(t, 4)
			runs := recordings(t, "claude", "jsonenv")
			to := lookup(t, "openai-responses")
			recs := interleaved(runs)
			var stderr syncBuffer
			cfg := testConfig(c, to, &stderr)
			cfg.MaxCommitMetadata = maxMeta
			a := start(t, cfg)
			produce(t, c, recs[:len(recs)/2])
			// Wait for a's output to reach the middle, then kill it.
			waitOutput(t, c, 20)
			a.kill()
			b := start(t, cfg)
			produce(t, c, recs[len(recs)/2:])
			dups := outputs(t, c, wantOutputs(t, runs, to))
			if b.w.replayed.Load() == 0 && dups == 0 {
				t.Error("the new member converted nothing again: no run was open when the first died")
			}
		})
	}
}

// TestCommitPoint: the commit offset is the first record of the oldest
// open run; the metadata names the ended runs with records past it (a
// replay skips them) and the open runs with what they wrote.
func TestCommitPoint(t *testing.T) {
	t.Parallel()
	p := newPartition("in", 0, nil, DefaultMaxCommitMetadata)
	a := &run{key: "a", first: 0, last: 5, closed: true}
	b := &run{key: "b", first: 3, last: 9, seq: 4}
	d := &run{key: "d", first: 1, last: 2, closed: true}
	p.order = []*run{a, d, b}
	p.runs["b"] = b
	p.next = 10
	off, md, ok := p.commitPoint()
	if !ok || off != 3 {
		t.Fatalf("commit point %d, %v; want 3", off, ok)
	}
	if want := `{"o":3,"c":{"a":5},"r":{"b":{"f":3,"n":4}}}`; md != want {
		t.Errorf("metadata %s, want %s", md, want)
	}
	if len(p.order) != 2 {
		t.Errorf("%d runs kept, want 2 (d ended before the commit point)", len(p.order))
	}
	// A replay from the commit skips a's records up to its last one.
	q := newPartition("in", 0, &commitMeta{Offset: 3, Closed: map[string]int64{"a": 5}}, DefaultMaxCommitMetadata)
	for _, tc := range []struct {
		key  string
		off  int64
		skip bool
	}{{"a", 4, true}, {"a", 5, true}, {"b", 4, false}, {"a", 6, false}} {
		if got := q.skip(tc.key, tc.off); got != tc.skip {
			t.Errorf("skip(%s, %d) = %v, want %v", tc.key, tc.off, got, tc.skip)
		}
	}
	// Past what fits, only the runs a replay must skip are named.
	p.maxMeta = 18
	if _, md, ok := p.commitPoint(); ok {
		t.Errorf("metadata %s fits in 18 bytes?", md)
	}
	p.maxMeta = 30
	if _, md, _ := p.commitPoint(); md != `{"o":3,"c":{"a":5}}` {
		t.Errorf("small metadata %s", md)
	}
}

// waitOutput waits until topic out holds n records.
func waitOutput(t *testing.T, c *kfake.Cluster, n int) {
	t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ConsumeTopics("out"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	for got := 0; got < n; {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("only %d output records", got)
		}
		got += fs.NumRecords()
	}
}

// TestRebalance: a second member joins mid-stream, and the first leaves
// later: partitions move twice, and every run comes out whole.
func TestRebalance(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 4)
	runs := recordings(t, "claude", "codex")
	to := lookup(t, "jsonenv")
	recs := interleaved(runs)
	var stderr syncBuffer
	a := start(t, testConfig(c, to, &stderr))
	third := len(recs) / 3
	produce(t, c, recs[:third])
	waitOutput(t, c, 10)
	start(t, testConfig(c, to, &stderr))
	produce(t, c, recs[third:2*third])
	a.stop(t)
	produce(t, c, recs[2*third:])
	outputs(t, c, wantOutputs(t, runs, to))
}

// TestBrokerError: the broker fails produce and commit requests for a
// while; the worker retries and the output is whole.
func TestBrokerError(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 2)
	runs := recordings(t, "jsonenv")
	to := lookup(t, "claude")
	var mu sync.Mutex
	failures := map[int16]int{}
	fail := func(key int16, n int) {
		c.ControlKey(key, func(req kmsg.Request) (kmsg.Response, error, bool) {
			c.KeepControl()
			mu.Lock()
			defer mu.Unlock()
			if failures[key] >= n {
				return nil, nil, false
			}
			failures[key]++
			switch req := req.(type) {
			case *kmsg.ProduceRequest:
				resp := req.ResponseKind().(*kmsg.ProduceResponse)
				for _, rt := range req.Topics {
					st := kmsg.NewProduceResponseTopic()
					st.Topic = rt.Topic
					for _, rp := range rt.Partitions {
						sp := kmsg.NewProduceResponseTopicPartition()
						sp.Partition = rp.Partition
						sp.ErrorCode = 6 // NOT_LEADER_FOR_PARTITION: retriable
						st.Partitions = append(st.Partitions, sp)
					}
					resp.Topics = append(resp.Topics, st)
				}
				return resp, nil, true
			default:
				return nil, errors.New("injected broker failure"), true
			}
		})
	}
	fail(int16(kmsg.Produce), 3)
	var stderr syncBuffer
	start(t, testConfig(c, to, &stderr))
	produce(t, c, interleaved(runs))
	outputs(t, c, wantOutputs(t, runs, to))
	mu.Lock()
	defer mu.Unlock()
	if failures[int16(kmsg.Produce)] == 0 {
		t.Error("no produce request failed: the test injected nothing")
	}
}

// TestPoisonRecord: a record that is not the format is a positioned
// problem on stderr and the problems topic; its run goes on.
func TestPoisonRecord(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 1)
	runs := recordings(t, "claude")[:2]
	bad := runs[0]
	poison := []byte("{this is not json\n")
	bad.units = slices.Insert(slices.Clone(bad.units), 2, poison)
	bad.data = bytes.Join(bad.units, nil)
	runs[0] = bad
	to := lookup(t, "jsonenv")
	var stderr syncBuffer
	cfg := testConfig(c, to, &stderr)
	cfg.Problems = "problems"
	start(t, cfg)
	produce(t, c, interleaved(runs))
	outputs(t, c, wantOutputs(t, runs, to))
	want := fmt.Sprintf("agentstream: in/0/%s:3:", bad.id)
	if !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr does not say %q:\n%s", want, stderr.String())
	}
	cl, _ := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ConsumeTopics("problems"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	fs := cl.PollFetches(ctx)
	if ctx.Err() != nil || fs.NumRecords() == 0 {
		t.Fatal("no problem record")
	}
	r := fs.Records()[0]
	if !bytes.Contains(r.Value, []byte(`"line":3`)) || string(r.Key) != bad.id {
		t.Errorf("problem record: key %q value %s", r.Key, r.Value)
	}
}

// TestTransactional: with transactions, a member killed mid-run and
// replaced leaves no duplicate visible to a read_committed consumer.
func TestTransactional(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 4)
	runs := recordings(t, "claude", "jsonenv")
	to := lookup(t, "jsonenv")
	recs := interleaved(runs)
	var stderr syncBuffer
	cfg := testConfig(c, to, &stderr)
	cfg.Transactional = true
	cfg.TransactionalID = "a"
	a := start(t, cfg)
	produce(t, c, recs[:len(recs)/2])
	waitOutput(t, c, 20)
	a.kill()
	cfg.TransactionalID = "b"
	start(t, cfg)
	produce(t, c, recs[len(recs)/2:])
	if dups := outputs(t, c, wantOutputs(t, runs, to)); dups != 0 {
		t.Errorf("%d duplicates visible to read_committed", dups)
	}
}

// TestRunIdle: a run whose records stop mid-stream ends as a cut when a
// record of the partition comes --run-idle after its last one, in the
// records' time (their timestamps), not the worker's: its output is what
// convert writes for the cut input, and the cut is reported. The idle
// time is an hour; the records come a moment apart in the worker's time.
// A run whose records are half an hour apart in their time is not idle.
func TestRunIdle(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 1)
	full := recordings(t, "jsonenv")[0]
	cut := full
	cut.units = full.units[:len(full.units)/2]
	cut.data = bytes.Join(cut.units, nil)
	slow := full
	slow.id = "slow-" + full.id
	to := lookup(t, "claude")
	var stderr syncBuffer
	cfg := testConfig(c, to, &stderr)
	cfg.RunIdle = time.Hour
	start(t, cfg)
	at := time.Date(2026, 11, 27, 3, 0, 0, 0, time.UTC)
	var recs []*kgo.Record
	for i, u := range cut.units {
		recs = append(recs, &kgo.Record{Topic: "in", Key: []byte(cut.id), Value: u, Timestamp: at.Add(time.Duration(i) * time.Millisecond)})
	}
	// The slow run's third record is two hours after the cut run's last.
	for i, u := range slow.units {
		r := &kgo.Record{Topic: "in", Key: []byte(slow.id), Value: u, Timestamp: at.Add(time.Duration(i+2) * 30 * time.Minute)}
		if i == len(slow.units)-1 {
			r.Headers = []kgo.RecordHeader{{Key: HeaderEnd}}
		}
		recs = append(recs, r)
	}
	produce(t, c, recs)
	outputs(t, c, wantOutputs(t, []recording{cut, slow}, to))
	// The cut run's output is whole before its end (Cut writes no end):
	// wait for the report, as long as the guard allows.
	guard := time.Now().Add(hangGuard)
	for !strings.Contains(stderr.String(), "the run is ended as cut") && time.Now().Before(guard) {
		time.Sleep(10 * time.Millisecond)
	}
	for _, want := range []string{"no record for 1h0m0s: the run is ended as cut", "in/0/" + cut.id + ":"} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr does not say %q:\n%s", want, stderr.String())
		}
	}
	if strings.Contains(stderr.String(), slow.id) {
		t.Errorf("the slow run is reported:\n%s", stderr.String())
	}
}

// TestMaxOpenRuns: past the cap on open runs the run that waited
// longest is ended as a cut, and said so.
func TestMaxOpenRuns(t *testing.T) {
	t.Parallel()
	c := newCluster(t, 1)
	runs := recordings(t, "claude")[:3]
	to := lookup(t, "jsonenv")
	var stderr syncBuffer
	cfg := testConfig(c, to, &stderr)
	cfg.MaxOpenRuns = 2
	start(t, cfg)
	// Two runs whole, then a third: the cap is not reached while the
	// first two run one after the other.
	var recs []*kgo.Record
	recs = append(recs, interleaved(runs[:2])...)
	recs = append(recs, interleaved(runs[2:])...)
	produce(t, c, recs)
	outputs(t, c, wantOutputs(t, runs, to))
	if strings.Contains(stderr.String(), "runs open") {
		t.Errorf("cap reported with two runs open:\n%s", stderr.String())
	}
	// Three runs at once: the first is cut when the third opens.
	c2 := newCluster(t, 1)
	cfg2 := testConfig(c2, to, &stderr)
	cfg2.MaxOpenRuns = 2
	cfg2.Problems = "problems"
	start(t, cfg2)
	produce(t, c2, interleaved(runs))
	want := fmt.Sprintf("more than 2 runs open on the partition: run %q is ended as cut", runs[0].id)
	cl, err := kgo.NewClient(kgo.SeedBrokers(c2.ListenAddrs()...), kgo.ConsumeTopics("problems"), kgo.ConsumeResetOffset(kgo.NewOffset().AtStart()))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
	defer cancel()
	for found := false; !found; {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("no problem says %q; stderr:\n%s", want, stderr.String())
		}
		fs.EachRecord(func(r *kgo.Record) {
			found = found || bytes.Contains(r.Value, []byte(strconv.Quote(want)[1:len(strconv.Quote(want))-1]))
		})
	}
}
