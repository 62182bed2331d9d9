package cmd

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/kafka"
)

type kafkaOptions struct {
	out           convertOptions // --to and the output format flags
	in            inputOptions   // --from and the input format flags
	brokers       []string
	group         string
	inTopic       string
	outTopic      string
	problems      string
	runIdle       time.Duration
	maxOpenRuns   int
	maxBuffered   int
	transactional bool
	sessionTime   time.Duration
	commitEvery   time.Duration
	maxMeta       int
}

func newKafkaCmd(ios *IOStreams) *cobra.Command {
	o := &kafkaOptions{}
	c := &cobra.Command{
		Use:   "kafka --brokers HOST:PORT --group NAME --in TOPIC --out TOPIC --to FORMAT",
		Short: "Convert the runs of a Kafka topic into another, as a member of a consumer group",
		Long: `Kafka joins consumer group --group, reads the runs of topic --in (records
keyed by run id, each value one unit of the input format: an NDJSON line or
an SSE message) and writes each run converted to --to on topic --out, one
unit a record, keyed by run id, with headers agentstream-run and
agentstream-seq (the record's number within its run, from 0).

A run ends at its format's end marker, at a record with header
agentstream-end, or after --run-idle without a record, in the records'
timestamps (written out as a cut stream). Offsets are committed up to the
oldest run still open, so a member that dies mid-run is replaced by one
that converts the run again; what it writes twice has the same
agentstream-seq. Problems go to stderr as
TOPIC/PARTITION/RUN:LINE:COL: message, and with --problems to a topic as
JSON. SIGINT or SIGTERM commits what is done and leaves the group.`,
		Example: `  agentstream kafka --brokers localhost:9092 --group conv --in runs --out runs-jsonenv --to jsonenv`,
		Args:    usageArgs(cobra.NoArgs),
		RunE: func(c *cobra.Command, _ []string) error {
			ctx, stop := signal.NotifyContext(c.Context(), os.Interrupt, syscall.SIGTERM)
			defer stop()
			return runKafka(ctx, ios, o)
		},
	}
	fs := c.Flags()
	fs.StringSliceVar(&o.brokers, "brokers", nil, "Kafka brokers, HOST:PORT[,...]")
	fs.StringVar(&o.group, "group", "", "consumer group")
	fs.StringVar(&o.inTopic, "in", "", "topic to read runs from")
	fs.StringVar(&o.outTopic, "out", "", "topic to write the converted runs to")
	fs.StringVar(&o.problems, "problems", "", "topic to write problems to, as JSON")
	fs.DurationVar(&o.runIdle, "run-idle", kafka.DefaultRunIdle, "end a run no record came for in this long, in the records' timestamps")
	fs.IntVar(&o.maxOpenRuns, "max-open-runs", kafka.DefaultMaxOpenRuns, "open runs per partition at most (one more ends the one idle longest)")
	fs.IntVar(&o.maxBuffered, "max-buffered-records", kafka.DefaultMaxBufferedRecords, "output records waiting to be produced at most (fetching waits for room)")
	fs.DurationVar(&o.commitEvery, "commit-interval", kafka.DefaultCommitInterval, "how often to flush the output and commit (one transaction each with --transactional)")
	fs.IntVar(&o.maxMeta, "max-commit-metadata", kafka.DefaultMaxCommitMetadata, "cap on a commit's metadata (the runs past the committed offset), in bytes; keep it under the broker's offset.metadata.max.bytes")
	fs.DurationVar(&o.sessionTime, "session-timeout", 45*time.Second, "how long a member that stopped answering keeps its partitions")
	fs.BoolVar(&o.transactional, "transactional", false, "produce and commit in transactions (exactly once for read_committed consumers)")
	fs.StringVarP(&o.in.from, "from", "f", "auto", "input format (auto detects each run's; see 'agentstream formats')")
	fs.StringVar(&o.in.agent, "default-agent", "", "agent id for sources that carry none")
	addReadFlags(fs, &o.in, "")
	fs.StringVarP(&o.out.to, "to", "t", "", "output format (see 'agentstream formats')")
	addOutputFlags(fs, &o.out, "%s output: ")
	return c
}

func runKafka(ctx context.Context, ios *IOStreams, o *kafkaOptions) error {
	for _, f := range []struct{ name, v string }{{"brokers", strings.Join(o.brokers, ",")}, {"group", o.group}, {"in", o.inTopic}, {"out", o.outTopic}, {"to", o.out.to}} {
		if f.v == "" {
			return failure(fmt.Errorf("--%s is required", f.name))
		}
	}
	out, ok := convert.Lookup(o.out.to)
	if !ok || out.NewEncoder == nil {
		return failure(fmt.Errorf("unknown output format %q (one of %s)", o.out.to, strings.Join(convert.Names(false), ", ")))
	}
	if err := checkMaxChunkBytes(o.out.maxChunkBytes); err != nil {
		return err
	}
	if o.out.framing != "sse" && o.out.framing != "ndjson" {
		return failure(fmt.Errorf("--framing must be sse or ndjson, not %q", o.out.framing))
	}
	if err := checkUses(changedIn(o.out.fs), "--to "+out.Name, []convert.Format{out}, format.OptMaxChunkBytes, format.OptFraming, format.OptPartial, format.OptMCPBeta, format.OptLateSignature); err != nil {
		return err
	}
	if err := o.in.check(); err != nil {
		return err
	}
	if o.in.tools.protocol != "" {
		return failure(errors.New("--tools-protocol does not apply to kafka"))
	}
	var from convert.Format
	if o.in.from != "auto" {
		from, _ = convert.Lookup(o.in.from)
	}
	if o.runIdle <= 0 || o.maxOpenRuns <= 0 || o.maxBuffered <= 0 || o.maxMeta <= 0 {
		return failure(errors.New("--run-idle, --max-open-runs, --max-buffered-records and --max-commit-metadata must be positive"))
	}
	rep := newReporter(ios.Err, false)
	dec := format.Options{MaxEventBytes: o.in.maxEventBytes, Agent: o.in.agent, XMLEscaping: o.in.xmlEscaping}
	o.in.tools.apply(&dec)
	enc := format.Options{
		Agent: o.in.agent, MaxChunkBytes: o.out.maxChunkBytes, Framing: o.out.framing,
		Partial: o.out.partial, MCPBeta: o.out.mcpBeta, LateSignatures: o.out.lateSignatures,
	}
	o.in.tools.apply(&enc)
	err := kafka.Run(ctx, kafka.Config{
		Brokers: o.brokers, Group: o.group, In: o.inTopic, Out: o.outTopic, Problems: o.problems,
		From: from, To: out, Decode: dec, Encode: enc,
		RunIdle: o.runIdle, MaxOpenRuns: o.maxOpenRuns, MaxBufferedRecords: o.maxBuffered,
		Transactional: o.transactional, SessionTimeout: o.sessionTime, CommitInterval: o.commitEvery, MaxCommitMetadata: o.maxMeta, Stderr: &lockedWriter{rep: rep},
	})
	if err != nil {
		return failure(err)
	}
	return nil
}

// lockedWriter writes the worker's lines through the reporter's lock.
type lockedWriter struct{ rep *reporter }

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.rep.mu.Lock()
	defer l.rep.mu.Unlock()
	return l.rep.w.Write(p)
}
