// Package kafka converts agent streams carried by Kafka: a consumer-group
// worker (Run) reads runs from one topic and writes them, converted, to
// another, through franz-go (github.com/twmb/franz-go/pkg/kgo).
//
// # Records
//
// An input record's key is its run's id; its value is one unit of the
// source format (an NDJSON line, or one SSE message with its blank line; a
// value without its newline or blank line gets it, as producers that send
// a file line by line leave it out).
// The records of a run are converted in order by a convert.Session of its
// own. Each output record carries the run's key, one unit of the target
// format (a line, or an SSE message with its blank line; the text formats
// a line), and the headers agentstream-run (the run id) and agentstream-seq
// (the record's sequence number within the run, from 0, in decimal).
//
// A run ends at its format's end marker (data: [DONE] on SSE input; the
// run's own closing event, such as Claude Code's result line, on NDJSON
// input), at an input record with the header agentstream-end, or when no
// record of it came for Config.RunIdle in the records' time (a record of
// its partition is timestamped that long after its last, so that a replay
// ends it at the same record): then it is written out as a cut
// stream (what its target writes for a truncated input) and the cut is
// reported. A record of a run id after its run ended starts a new run
// under the same id, numbered from 0 again: run ids must not be reused.
//
// # Delivery
//
// A run is owned by the group member that owns its partition. Offsets are
// committed only up to the first record of the oldest run still open on a
// partition, after the output of everything before that point is
// acknowledged. The commit's metadata names the runs after that offset
// the worker knows of (up to Config.MaxCommitMetadata bytes): a run already ended
// (the member that takes the partition over skips its records) and, for a
// run still open, how many output records it wrote (the new owner
// converts the run again from its start and does not write those again).
// So a member that dies mid-run is replaced by one that replays the run,
// and what it writes twice carries the same agentstream-seq numbers:
// delivery is at least once, and duplicates are identifiable by
// (agentstream-run, agentstream-seq). With Config.Transactional the output
// and the offset commit go in one transaction (kgo.GroupTransactSession):
// output of a member that died is never visible to read_committed
// consumers, and the commit metadata keeps what was written from being
// written again.
//
// # Bounds
//
// A partition holds at most Config.MaxOpenRuns open runs (default
// DefaultMaxOpenRuns); a record that would open one more ends the run that
// has waited longest, as a cut. Each open run holds its session: its
// decoder's and encoder's state and a goroutine, some 70 to 90 KiB for
// the corpus's formats, and at most about MaxEventBytes more while one
// unit is being read (docs/kafka.md has the arithmetic). The
// worker fetches only as many records as the producer has room for
// (Config.MaxBufferedRecords).
package kafka
