package kafka

import (
	"bytes"
	"context"
	"fmt"
	"syscall"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/agentstream/agentstream/convert"
)

// benchInput is the corpus recordings repeated under new run ids until
// there are at least n records, interleaved, and the number of output
// records they make.
func benchInput(b *testing.B, n int) (recs []*kgo.Record, outputs int) {
	b.Helper()
	base := recordings(b, "claude", "codex", "jsonenv", "anthropic")
	to := lookup(b, "jsonenv")
	units := 0
	for _, r := range base {
		u := &run{}
		u.out.WriteString(wholeOutput(b, r.data, to))
		for u.nextUnit(true) != nil {
			units++
		}
	}
	for round := 0; len(recs) < n; round++ {
		runs := make([]recording, len(base))
		for i, r := range base {
			r.id = fmt.Sprintf("%s#%d", r.id, round)
			runs[i] = r
		}
		recs = append(recs, interleaved(runs)...)
		outputs += units
	}
	return recs, outputs
}

// BenchmarkWorkers converts the corpus recordings (repeated, interleaved)
// from a topic of 8 partitions to jsonenv, with 1, 2 and 4 workers in
// process, and reports records per second (input records), from the
// first record produced to the last output record read. The producer,
// the broker (kfake) and the reader of the output run in the same
// process as the workers: records/cpu-s counts the CPU time of all of
// them.
func BenchmarkWorkers(b *testing.B) {
	recs, want := benchInput(b, 20000)
	var size int64
	for _, r := range recs {
		size += int64(len(r.Value))
	}
	for _, workers := range []int{1, 2, 4} {
		b.Run(fmt.Sprintf("workers=%d", workers), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(size)
			var total, cpu time.Duration
			for b.Loop() {
				b.StopTimer()
				c := newCluster(b, 8)
				out, err := kgo.NewClient(kgo.SeedBrokers(c.ListenAddrs()...), kgo.ConsumeTopics("out"))
				if err != nil {
					b.Fatal(err)
				}
				var stderr syncBuffer
				var ms []*member
				for range workers {
					cfg := testConfig(c, lookup(b, "jsonenv"), &stderr)
					cfg.CommitInterval = DefaultCommitInterval
					ms = append(ms, start(b, cfg))
				}
				// The group is formed before the clock starts: the
				// figure is the steady state, not the joins.
				ctx, cancel := context.WithTimeout(context.Background(), hangGuard)
				if _, err := c.WaitGroupStable(ctx, "g", workers); err != nil {
					b.Fatal(err)
				}
				cancel()
				b.StartTimer()
				began, cpuBegan := time.Now(), cpuTime()
				produce(b, c, recs)
				ctx, cancel = context.WithTimeout(context.Background(), hangGuard)
				for got := 0; got < want; {
					fs := out.PollFetches(ctx)
					if ctx.Err() != nil {
						b.Fatalf("%d of %d output records", got, want)
					}
					got += fs.NumRecords()
				}
				total += time.Since(began)
				cpu += cpuTime() - cpuBegan
				cancel()
				b.StopTimer()
				for _, m := range ms {
					m.stop(b)
				}
				out.Close()
				if bytes.Contains([]byte(stderr.String()), []byte("agentstream: kafka")) {
					b.Fatal(stderr.String())
				}
				b.StartTimer()
			}
			b.ReportMetric(float64(len(recs))*float64(b.N)/total.Seconds(), "records/s")
			b.ReportMetric(float64(len(recs))*float64(b.N)/cpu.Seconds(), "records/cpu-s")
		})
	}
}

// BenchmarkConvertOnly converts the same records through one
// convert.Session per run, with no Kafka: the conversion's own cost per
// record, the ceiling of one worker's core.
func BenchmarkConvertOnly(b *testing.B) {
	recs, _ := benchInput(b, 20000)
	to := lookup(b, "jsonenv")
	var size int64
	for _, r := range recs {
		size += int64(len(r.Value))
	}
	b.ReportAllocs()
	b.SetBytes(size)
	var out bytes.Buffer
	cpuBegan := cpuTime()
	for b.Loop() {
		sessions := map[string]*convert.Session{}
		for _, r := range recs {
			s := sessions[string(r.Key)]
			if s == nil {
				s = convert.NewSession(&out, &convert.SessionOptions{To: to, Problem: func(error) bool { return true }})
				sessions[string(r.Key)] = s
			}
			_, _ = s.Write(r.Value)
			out.Reset()
		}
		for _, s := range sessions {
			_ = s.Close()
		}
	}
	b.ReportMetric(float64(len(recs))*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	b.ReportMetric(float64(len(recs))*float64(b.N)/(cpuTime()-cpuBegan).Seconds(), "records/cpu-s")
}

// cpuTime is the CPU time the process has used, user and system: on a
// shared machine records per CPU second say more than records per second.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
