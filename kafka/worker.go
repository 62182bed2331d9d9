package kafka

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// Record headers.
const (
	HeaderRun = "agentstream-run"
	HeaderSeq = "agentstream-seq"
	HeaderEnd = "agentstream-end"
)

// Defaults of Config.
const (
	DefaultRunIdle            = 10 * time.Minute
	DefaultMaxOpenRuns        = 1000
	DefaultMaxBufferedRecords = 10000
	DefaultCommitInterval     = time.Second
	// DefaultMaxCommitMetadata fits Kafka's default
	// offset.metadata.max.bytes, 4096.
	DefaultMaxCommitMetadata = 4000
)

// Config configures Run.
type Config struct {
	Brokers  []string
	Group    string
	In, Out  string
	Problems string // topic for problems as JSON; "" for none
	// From is the input format; the zero Format detects each run's.
	From, To convert.Format
	// Decode and Encode are the options of every run's decoder and
	// encoder (Source is set to topic/partition/run).
	Decode, Encode format.Options
	// RunIdle ends a run no record came for in that long, in the records'
	// time: when a record of its partition is timestamped that long after
	// the run's last (DefaultRunIdle when 0).
	RunIdle time.Duration
	// MaxOpenRuns caps the open runs of one partition
	// (DefaultMaxOpenRuns when 0).
	MaxOpenRuns int
	// MaxBufferedRecords caps the output records waiting to be produced;
	// the worker fetches only what fits (DefaultMaxBufferedRecords when
	// 0).
	MaxBufferedRecords int
	// Transactional produces and commits in transactions, under
	// TransactionalID (the group name and a random suffix when "").
	Transactional   bool
	TransactionalID string
	// CommitInterval is how often the worker flushes its output and
	// commits (each transaction spans one with Transactional); 0
	// commits after every poll. What a replacement converts again after
	// a crash is at most what came in one interval, beyond the open runs.
	CommitInterval time.Duration
	// MaxCommitMetadata caps a commit's metadata, in bytes
	// (DefaultMaxCommitMetadata when 0); keep it under the broker's
	// offset.metadata.max.bytes.
	MaxCommitMetadata int
	// SessionTimeout is the group's session timeout: how long a member
	// that stopped answering keeps its partitions (kgo's default when 0).
	SessionTimeout time.Duration
	// Stderr receives problems, one a line.
	Stderr io.Writer
	// Opts are more client options (tests shorten the group's timeouts).
	Opts []kgo.Opt
}

// Problem is a problem as written to the problems topic.
type Problem struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
	Run       string `json:"run"`
	Line      int    `json:"line,omitempty"`
	Column    int    `json:"column,omitempty"`
	Message   string `json:"message"`
}

// Run runs a worker of the group until ctx ends, then commits what is
// done and leaves the group. It returns nil after a shutdown through ctx,
// or the error that stopped it (the output could not be produced, say).
func Run(ctx context.Context, c Config) error {
	w, err := newWorker(c)
	if err != nil {
		return err
	}
	return w.run(ctx)
}

// worker is one member of the group.
type worker struct {
	c    Config
	cl   *kgo.Client
	gts  *kgo.GroupTransactSession
	mu   sync.Mutex // parts, between the poll loop and the group callbacks
	part map[int32]*partition

	errMu   sync.Mutex
	prodErr error           // the first produce error
	warned  map[string]bool // warnings printed, up to maxWarnings

	// replayed counts the records converted again after a commit's
	// metadata said their output was written (or skipped as done).
	replayed atomic.Int64

	inTxn bool // a transaction is begun (the poll loop's only)

	// killed (tests) stops the worker as if its process died: no
	// commit, no goodbye.
	killed chan struct{}
}

func newWorker(c Config) (*worker, error) {
	if c.RunIdle <= 0 {
		c.RunIdle = DefaultRunIdle
	}
	if c.MaxOpenRuns <= 0 {
		c.MaxOpenRuns = DefaultMaxOpenRuns
	}
	if c.MaxBufferedRecords <= 0 {
		c.MaxBufferedRecords = DefaultMaxBufferedRecords
	}
	if c.MaxCommitMetadata <= 0 {
		c.MaxCommitMetadata = DefaultMaxCommitMetadata
	}
	if c.Stderr == nil {
		c.Stderr = io.Discard
	}
	if c.To.NewEncoder == nil {
		return nil, errors.New("kafka: the output format has no encoder")
	}
	w := &worker{c: c, part: map[int32]*partition{}, killed: make(chan struct{})}
	opts := []kgo.Opt{
		kgo.SeedBrokers(c.Brokers...),
		kgo.ConsumerGroup(c.Group),
		kgo.ConsumeTopics(c.In),
		kgo.DisableAutoCommit(),
		kgo.BlockRebalanceOnPoll(),
		kgo.MaxBufferedRecords(c.MaxBufferedRecords),
		kgo.OnPartitionsAssigned(w.assigned),
		kgo.OnPartitionsRevoked(w.revoked),
		kgo.OnPartitionsLost(w.lost),
	}
	if c.SessionTimeout > 0 {
		opts = append(opts, kgo.SessionTimeout(c.SessionTimeout), kgo.HeartbeatInterval(min(3*time.Second, c.SessionTimeout/3)))
	}
	if c.Transactional {
		id := c.TransactionalID
		if id == "" {
			id = fmt.Sprintf("%s-%d", c.Group, time.Now().UnixNano())
		}
		opts = append(opts, kgo.TransactionalID(id), kgo.FetchIsolationLevel(kgo.ReadCommitted()))
	}
	opts = append(opts, c.Opts...)
	var err error
	if c.Transactional {
		w.gts, err = kgo.NewGroupTransactSession(opts...)
		if err == nil {
			w.cl = w.gts.Client()
		}
	} else {
		w.cl, err = kgo.NewClient(opts...)
	}
	if err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	return w, nil
}

func (w *worker) run(ctx context.Context) error {
	defer func() {
		if w.gts != nil {
			w.gts.CloseAllowingRebalance()
		} else {
			w.cl.CloseAllowingRebalance()
		}
	}()
	lastCommit := time.Now()
	for {
		if err := w.produceErr(); err != nil {
			return err
		}
		select {
		case <-w.killed:
			return nil
		default:
		}
		if ctx.Err() != nil {
			return w.shutdown()
		}
		if w.gts != nil && !w.inTxn {
			if err := w.gts.Begin(); err != nil {
				return fmt.Errorf("kafka: %w", err)
			}
			w.inTxn = true
		}
		// Back-pressure: fetch only what the producer has room for.
		room := w.c.MaxBufferedRecords - int(w.cl.BufferedProduceRecords())
		if room <= 0 {
			if err := w.cl.Flush(ctx); err != nil && ctx.Err() == nil {
				return fmt.Errorf("kafka: %w", err)
			}
			room = w.c.MaxBufferedRecords
		}
		// At most a second, to commit and to notice the end.
		pctx, cancel := context.WithTimeout(ctx, time.Second)
		var fetches kgo.Fetches
		if w.gts != nil {
			fetches = w.gts.PollRecords(pctx, room)
		} else {
			fetches = w.cl.PollRecords(pctx, room)
		}
		cancel()
		if fetches.IsClientClosed() {
			return nil
		}
		fetches.EachError(func(topic string, p int32, err error) {
			if !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) {
				fmt.Fprintf(w.c.Stderr, "agentstream: %s/%d: %v\n", topic, p, err)
			}
		})
		w.mu.Lock()
		fetches.EachPartition(func(ft kgo.FetchTopicPartition) {
			p := w.part[ft.Partition]
			if p == nil {
				return // revoked meanwhile
			}
			for _, r := range ft.Records {
				w.record(p, r)
			}
		})
		w.mu.Unlock()
		if w.gts == nil {
			// A rebalance may go on: the revoked partitions commit in
			// the callback.
			w.cl.AllowRebalance()
		}
		if time.Since(lastCommit) < w.c.CommitInterval && ctx.Err() == nil {
			continue
		}
		lastCommit = time.Now()
		// The commit finishes even when ctx ends meanwhile: shutdown
		// commits next.
		cctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 30*time.Second)
		err := w.commit(cctx, nil)
		cancel()
		if err != nil {
			return err
		}
		if w.gts != nil {
			w.gts.AllowRebalance()
		}
	}
}

// shutdown commits what is done and leaves the group.
func (w *worker) shutdown() error {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	err := w.commit(ctx, nil)
	w.mu.Lock()
	for id, p := range w.part {
		p.abandon()
		delete(w.part, id)
	}
	w.mu.Unlock()
	return err
}

// commit flushes the output and commits, for each partition (only those
// of only when not nil), the offset of the first record of its oldest
// open run, with the metadata that lets a new owner take over.
func (w *worker) commit(ctx context.Context, only map[int32]bool) error {
	w.mu.Lock()
	offsets := map[int32]kgo.EpochOffset{}
	meta := map[int32]string{}
	for id, p := range w.part {
		if only != nil && !only[id] {
			continue
		}
		off, md, ok := p.commitPoint()
		if !ok || w.gts == nil && off == p.committed && md == p.committedMeta {
			continue // nothing new
		}
		p.committed, p.committedMeta = off, md
		offsets[id] = kgo.EpochOffset{Epoch: -1, Offset: off}
		meta[id] = md
	}
	w.mu.Unlock()
	rewrite := func(topics []kmsg.OffsetCommitRequestTopic) {
		for i := range topics {
			if topics[i].Topic != w.c.In {
				continue
			}
			kept := topics[i].Partitions[:0]
			for _, pp := range topics[i].Partitions {
				if eo, ok := offsets[pp.Partition]; ok {
					pp.Offset = eo.Offset
					pp.Metadata = kmsg.StringPtr(meta[pp.Partition])
					kept = append(kept, pp)
				}
			}
			topics[i].Partitions = kept
		}
	}
	if w.gts != nil {
		if !w.inTxn {
			return nil
		}
		w.inTxn = false
		tctx := kgo.PreTxnCommitFnContext(ctx, func(req *kmsg.TxnOffsetCommitRequest) error {
			for i := range req.Topics {
				if req.Topics[i].Topic != w.c.In {
					continue
				}
				kept := req.Topics[i].Partitions[:0]
				for _, pp := range req.Topics[i].Partitions {
					if eo, ok := offsets[pp.Partition]; ok {
						pp.Offset = eo.Offset
						pp.Metadata = kmsg.StringPtr(meta[pp.Partition])
						kept = append(kept, pp)
					}
				}
				req.Topics[i].Partitions = kept
			}
			return nil
		})
		committed, err := w.gts.End(tctx, kgo.TryCommit)
		if err != nil {
			return fmt.Errorf("kafka: ending a transaction: %w", err)
		}
		if !committed {
			// The transaction was aborted (a rebalance): what the runs
			// converted since the last commit is gone; start them over
			// from the committed offsets.
			w.mu.Lock()
			var ids []int32
			for id, p := range w.part {
				p.abandon()
				ids = append(ids, id)
			}
			w.mu.Unlock()
			known := w.fetchMetadata(ctx, w.cl, ids)
			w.mu.Lock()
			for _, id := range ids {
				if w.part[id] != nil {
					w.part[id] = newPartition(w.c.In, id, known[id], w.c.MaxCommitMetadata)
				}
			}
			w.mu.Unlock()
		}
		return nil
	}
	if err := w.cl.Flush(ctx); err != nil {
		return fmt.Errorf("kafka: flushing output: %w", err)
	}
	if err := w.produceErr(); err != nil {
		return err
	}
	if len(offsets) == 0 {
		return nil
	}
	set := map[string]map[int32]kgo.EpochOffset{w.c.In: offsets}
	var cerr error
	cctx := kgo.PreCommitFnContext(ctx, func(req *kmsg.OffsetCommitRequest) error {
		rewrite(req.Topics)
		return nil
	})
	w.cl.CommitOffsetsSync(cctx, set, func(_ *kgo.Client, _ *kmsg.OffsetCommitRequest, resp *kmsg.OffsetCommitResponse, err error) {
		if err != nil {
			cerr = err
			return
		}
		for _, t := range resp.Topics {
			for _, p := range t.Partitions {
				if p.ErrorCode != 0 && cerr == nil {
					cerr = fmt.Errorf("committing %s/%d: error code %d", t.Topic, p.Partition, p.ErrorCode)
				}
			}
		}
	})
	if cerr != nil {
		// A commit that fails (a rebalance took the partition) is not
		// fatal: the next owner replays from the last commit.
		fmt.Fprintf(w.c.Stderr, "agentstream: %s: commit: %v\n", w.c.In, cerr)
	}
	return nil
}

func (w *worker) produceErr() error {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	return w.prodErr
}

// assigned sets up the partitions this member now owns, reading what the
// last commit's metadata says about their runs.
func (w *worker) assigned(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
	ps := m[w.c.In]
	if len(ps) == 0 {
		return
	}
	known := w.fetchMetadata(ctx, cl, ps)
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range ps {
		w.part[id] = newPartition(w.c.In, id, known[id], w.c.MaxCommitMetadata)
	}
}

// revoked commits what is done on the partitions leaving and drops them.
func (w *worker) revoked(ctx context.Context, cl *kgo.Client, m map[string][]int32) {
	ps := m[w.c.In]
	select {
	case <-w.killed:
		w.drop(ps)
		return
	default:
	}
	if w.gts == nil {
		only := map[int32]bool{}
		for _, id := range ps {
			only[id] = true
		}
		if err := w.commit(ctx, only); err != nil {
			fmt.Fprintf(w.c.Stderr, "agentstream: %v\n", err)
		}
	}
	w.drop(ps)
}

// lost drops the partitions lost without a chance to commit.
func (w *worker) lost(_ context.Context, _ *kgo.Client, m map[string][]int32) {
	w.drop(m[w.c.In])
}

func (w *worker) drop(ps []int32) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for _, id := range ps {
		if p := w.part[id]; p != nil {
			p.abandon()
			delete(w.part, id)
		}
	}
}

// fetchMetadata reads the committed metadata of partitions ps.
func (w *worker) fetchMetadata(ctx context.Context, cl *kgo.Client, ps []int32) map[int32]*commitMeta {
	out := map[int32]*commitMeta{}
	req := kmsg.NewPtrOffsetFetchRequest()
	req.Group = w.c.Group
	req.RequireStable = true
	t := kmsg.NewOffsetFetchRequestTopic()
	t.Topic = w.c.In
	t.Partitions = ps
	req.Topics = append(req.Topics, t)
	resp, err := req.RequestWith(ctx, cl)
	if err != nil {
		fmt.Fprintf(w.c.Stderr, "agentstream: %s: reading the commit metadata: %v\n", w.c.In, err)
		return out
	}
	for _, rt := range resp.Topics {
		for _, rp := range rt.Partitions {
			if rp.Metadata == nil || *rp.Metadata == "" {
				continue
			}
			var m commitMeta
			if err := json.Unmarshal([]byte(*rp.Metadata), &m); err == nil && m.Offset == rp.Offset {
				out[rp.Partition] = &m
			}
		}
	}
	return out
}

// record converts one input record.
func (w *worker) record(p *partition, r *kgo.Record) {
	// Idle time is the records' time, which a replay of the same records
	// sees again: the partition's clock is its newest record's timestamp,
	// and a run is idle once the clock is RunIdle past its last record.
	if r.Timestamp.After(p.clock) {
		p.clock = r.Timestamp
	}
	if len(p.runs) > 0 && !p.clock.Before(p.expiry) {
		p.endIdle(w)
	}
	key := string(r.Key)
	if p.skip(key, r.Offset) {
		w.replayed.Add(1)
		p.advance(r.Offset)
		return
	}
	run := p.runs[key]
	if run == nil {
		if len(p.runs) >= w.c.MaxOpenRuns {
			oldest := p.oldestIdle()
			w.problem(p, oldest, r.Offset, fmt.Errorf("more than %d runs open on the partition: run %q is ended as cut", w.c.MaxOpenRuns, oldest.key))
			p.end(w, oldest, true)
		}
		run = w.open(p, key, r)
		if e := p.clock.Add(w.c.RunIdle); len(p.runs) == 1 || e.Before(p.expiry) {
			p.expiry = e
		}
	}
	run.last = r.Offset
	run.seen = p.clock
	run.offset = r.Offset
	_, err := run.s.Write(run.framed(r.Value))
	switch {
	case err == io.EOF:
		// The run ended in-band already; this record is after its end.
		w.problem(p, run, r.Offset, errors.New("record after the run's end marker: left out"))
	case err != nil:
		w.problem(p, run, r.Offset, err)
	}
	w.emit(p, run, false)
	if hasHeader(r, HeaderEnd) || run.s.Done() || err != nil && err != io.EOF {
		p.end(w, run, false)
	}
	p.advance(r.Offset)
}

func hasHeader(r *kgo.Record, key string) bool {
	for _, h := range r.Headers {
		if h.Key == key {
			return true
		}
	}
	return false
}

// open starts run key at record r.
func (w *worker) open(p *partition, key string, r *kgo.Record) *run {
	run := &run{key: key, first: r.Offset, p: p}
	if m := p.meta; m != nil {
		if n, ok := m.Open[key]; ok && n.First == r.Offset {
			run.suppress = n.Emitted
		}
	}
	dopts := w.c.Decode
	dopts.Source = fmt.Sprintf("%s/%d/%s", p.topic, p.id, key)
	dopts.StopAtDone = true
	eopts := w.c.Encode
	eopts.Warn = w.warn
	dopts.Warn = w.warn
	ndjson := true
	if h, ok := format.Sniff(r.Value, true); ok {
		ndjson = !h.SSE
	}
	run.sseIn = !ndjson
	var mainAgent *string
	run.s = convert.NewSession(&run.out, &convert.SessionOptions{
		From: w.c.From, To: w.c.To, Decode: &dopts, Encode: &eopts,
		Problem: func(err error) bool {
			var perr *event.ParseError
			if errors.As(err, &perr) && errors.Is(err, event.ErrWarning) {
				w.warn(err)
				return true
			}
			if !run.abandoned {
				w.problem(p, run, run.offset, err)
			}
			return true
		},
		End: func(ev event.Event) bool {
			// An NDJSON run ends at the main agent's RunEnd (Claude
			// Code's result line); an SSE run at data: [DONE].
			if mainAgent == nil {
				a := ev.AgentID()
				mainAgent = &a
			}
			re, ok := ev.(*event.RunEnd)
			return ndjson && ok && re.Agent == *mainAgent
		},
	})
	p.runs[key] = run
	p.order = append(p.order, run)
	return run
}

// emit produces the complete output units of run (all of them at the end).
func (w *worker) emit(p *partition, run *run, final bool) {
	if run.abandoned {
		run.out.Reset()
		return
	}
	for {
		unit := run.nextUnit(final)
		if unit == nil {
			return
		}
		seq := run.seq
		run.seq++
		if seq < run.suppress {
			w.replayed.Add(1)
			continue // written before the last commit
		}
		rec := &kgo.Record{
			Topic: w.c.Out, Key: []byte(run.key), Value: unit,
			Headers: []kgo.RecordHeader{
				{Key: HeaderRun, Value: []byte(run.key)},
				{Key: HeaderSeq, Value: strconv.AppendInt(nil, seq, 10)},
			},
		}
		w.produce(rec)
	}
}

func (w *worker) produce(rec *kgo.Record) {
	promise := func(_ *kgo.Record, err error) {
		if err != nil {
			w.errMu.Lock()
			if w.prodErr == nil {
				w.prodErr = fmt.Errorf("kafka: producing to %s: %w", rec.Topic, err)
			}
			w.errMu.Unlock()
		}
	}
	if w.gts != nil {
		w.gts.Produce(context.Background(), rec, promise)
	} else {
		w.cl.Produce(context.Background(), rec, promise)
	}
}

// maxWarnings caps the distinct warnings a worker prints.
const maxWarnings = 1000

// warn prints what an encoder cannot carry, or a decoder's warning, once
// per message (the first maxWarnings messages).
func (w *worker) warn(err error) {
	w.errMu.Lock()
	defer w.errMu.Unlock()
	msg := err.Error()
	if w.warned[msg] || len(w.warned) >= maxWarnings {
		return
	}
	if w.warned == nil {
		w.warned = map[string]bool{}
	}
	w.warned[msg] = true
	fmt.Fprintf(w.c.Stderr, "agentstream: warning: %s\n", msg)
}

// problem reports a problem of run (nil: of the partition) at offset.
func (w *worker) problem(p *partition, run *run, offset int64, err error) {
	pr := Problem{Topic: p.topic, Partition: p.id, Offset: offset, Message: err.Error()}
	if run != nil {
		pr.Run = run.key
	}
	var perr *event.ParseError
	msg := err.Error()
	if errors.As(err, &perr) {
		pr.Line, pr.Column = perr.Line, perr.Column
	} else if run != nil {
		msg = fmt.Sprintf("%s/%d/%s: %s", p.topic, p.id, run.key, msg)
	}
	fmt.Fprintf(w.c.Stderr, "agentstream: %s\n", msg)
	if w.c.Problems != "" {
		b, _ := json.Marshal(pr)
		w.produce(&kgo.Record{Topic: w.c.Problems, Key: []byte(pr.Run), Value: b})
	}
}

// run is one open run.
type run struct {
	key         string
	p           *partition
	first, last int64     // offsets of its first and last record
	offset      int64     // the record being converted
	seen        time.Time // the partition's clock at its last record
	s           *convert.Session
	out         bytes.Buffer
	sse         *bool // the output is SSE (known from its first bytes)
	seq         int64 // the next output record's number
	suppress    int64 // output records before this one were written already
	abandoned   bool
	closed      bool
	sseIn       bool // the input is SSE
}

// framed returns v, one unit of the input, ending as its framing needs:
// a line with its newline, an SSE message with its blank line. Producers
// that send a line per record often leave the newline out.
func (r *run) framed(v []byte) []byte {
	switch {
	case !r.sseIn && !bytes.HasSuffix(v, []byte("\n")):
		return append(bytes.Clone(v), '\n')
	case !r.sseIn || bytes.HasSuffix(v, []byte("\n\n")) || bytes.HasSuffix(v, []byte("\r\n\r\n")):
		return v
	case bytes.HasSuffix(v, []byte("\n")):
		return append(bytes.Clone(v), '\n')
	default:
		return append(bytes.Clone(v), "\n\n"...)
	}
}

// nextUnit takes the next complete unit of the output: an SSE message
// with its blank line, or a line; at the end, what is left.
func (r *run) nextUnit(final bool) []byte {
	b := r.out.Bytes()
	if len(b) == 0 {
		return nil
	}
	if r.sse == nil {
		h, ok := format.Sniff(b, final)
		if !ok {
			return nil
		}
		sse := h.SSE
		r.sse = &sse
	}
	sep := []byte("\n")
	if *r.sse {
		sep = []byte("\n\n")
	}
	n := len(b)
	if i := bytes.Index(b, sep); i >= 0 {
		n = i + len(sep)
	} else if !final {
		return nil
	}
	unit := bytes.Clone(b[:n])
	r.out.Next(n)
	return unit
}

// partition is the state of one owned partition.
type partition struct {
	topic string
	id    int32
	runs  map[string]*run
	order []*run // open runs and closed runs still of use to a commit, by first offset
	next  int64  // the offset after the last record handled; -1 before any
	meta  *commitMeta
	// maxMeta caps the commit metadata.
	maxMeta int
	// committed and committedMeta are the last commit asked for.
	committed     int64
	committedMeta string
	// clock is the newest record timestamp seen on the partition; no
	// open run goes idle before expiry (an earlier time may be stale).
	clock, expiry time.Time
}

func newPartition(topic string, id int32, meta *commitMeta, maxMeta int) *partition {
	return &partition{topic: topic, id: id, runs: map[string]*run{}, next: -1, meta: meta, maxMeta: maxMeta}
}

// commitMeta is the metadata of a commit.
type commitMeta struct {
	Offset int64                `json:"o"`
	Closed map[string]int64     `json:"c,omitempty"` // ended runs: their last record's offset
	Open   map[string]openState `json:"r,omitempty"` // open runs
}

type openState struct {
	First   int64 `json:"f"`
	Emitted int64 `json:"n"`
}

// skip reports whether the record of run key at offset belongs to a run
// that ended before the commit this member started from.
func (p *partition) skip(key string, offset int64) bool {
	if p.meta == nil || p.runs[key] != nil {
		return false
	}
	last, ok := p.meta.Closed[key]
	return ok && offset <= last
}

func (p *partition) advance(offset int64) {
	p.next = offset + 1
	if p.meta != nil && len(p.runs) == 0 {
		// Past every run the metadata names? Then forget it.
		done := true
		for _, last := range p.meta.Closed {
			done = done && last < p.next
		}
		for _, o := range p.meta.Open {
			done = done && o.First < p.next
		}
		if done {
			p.meta = nil
		}
	}
}

// oldestIdle returns the open run no record came for the longest.
func (p *partition) oldestIdle() *run {
	var oldest *run
	for _, r := range p.runs {
		if oldest == nil || r.seen.Before(oldest.seen) || r.seen.Equal(oldest.seen) && r.first < oldest.first {
			oldest = r
		}
	}
	return oldest
}

// endIdle ends the runs whose last record is RunIdle or more older than
// the partition's clock, as cut, and sets when the next may go idle.
func (p *partition) endIdle(w *worker) {
	// In the order the runs began, so that their reports and outputs
	// come out the same way each time.
	runs := slices.SortedFunc(maps.Values(p.runs), func(a, b *run) int { return cmp.Compare(a.first, b.first) })
	p.expiry = time.Time{}
	for _, r := range runs {
		if e := r.seen.Add(w.c.RunIdle); !p.clock.Before(e) {
			w.problem(p, r, r.last, fmt.Errorf("no record for %v: the run is ended as cut", w.c.RunIdle))
			p.end(w, r, true)
		} else if p.expiry.IsZero() || e.Before(p.expiry) {
			p.expiry = e
		}
	}
}

// end ends run: the rest of its output is written.
func (p *partition) end(w *worker, r *run, cut bool) {
	_ = cut // Close reports the cut (a truncation) through Problem
	r.s.Close()
	w.emit(p, r, true)
	r.closed = true
	delete(p.runs, r.key)
}

// abandon drops every run without writing more: the next owner replays
// them from the last commit.
func (p *partition) abandon() {
	for _, r := range p.runs {
		r.abandoned = true
		r.s.Close()
	}
	p.runs = map[string]*run{}
	p.order = nil
}

// commitPoint returns the offset to commit (the first record of the
// oldest open run, or the next record when none is open) and its
// metadata; ok is false when there is nothing to commit or the metadata
// would not fit (an older commit stands).
func (p *partition) commitPoint() (int64, string, bool) {
	if p.next < 0 {
		return 0, "", false
	}
	c := p.next
	for _, r := range p.runs {
		c = min(c, r.first)
	}
	// Forget the closed runs that end before c: no replay reaches them.
	kept := p.order[:0]
	for _, r := range p.order {
		if !r.closed || r.last >= c {
			kept = append(kept, r)
		}
	}
	clear(p.order[len(kept):])
	p.order = kept
	b, ok := p.metadata(c, true)
	if !ok {
		// Too much to say: name only the runs a replay must skip (the
		// runs after c are converted again: duplicates).
		b, ok = p.metadata(c, false)
	}
	if !ok {
		return 0, "", false
	}
	return c, string(b), true
}

// metadata returns the commit metadata for offset c: the runs after c
// this member knows of (all, or only those a replay needs), and whether
// it fits.
func (p *partition) metadata(c int64, all bool) ([]byte, bool) {
	m := commitMeta{Offset: c, Closed: map[string]int64{}, Open: map[string]openState{}}
	for _, r := range p.order {
		switch {
		case r.closed && (all || r.first < c):
			m.Closed[r.key] = r.last
		case !r.closed && all:
			m.Open[r.key] = openState{First: r.first, Emitted: r.seq}
		}
	}
	// What this member was told and has not reached yet stands too.
	if old := p.meta; old != nil {
		for k, last := range old.Closed {
			if _, ok := m.Closed[k]; !ok && last >= c && p.runs[k] == nil {
				m.Closed[k] = last
			}
		}
		for k, o := range old.Open {
			if _, ok := m.Open[k]; !ok && o.First >= p.next && all {
				m.Open[k] = o
			}
		}
	}
	b, _ := json.Marshal(m)
	return b, len(b) <= p.maxMeta
}
