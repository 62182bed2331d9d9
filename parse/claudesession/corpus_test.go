package claudesession

// The tests over the recordings in testdata/claude-session.

import (
	"flag"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/source/sessions"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/")

// corpus holds the recordings; recordings is the pattern of their names.
const corpus, recordings = "../../testdata/claude-session", "*.jsonl"

// newDecoder reads the recording named source, and the subagent
// transcripts beside it.
func newDecoder(r io.Reader, source string) event.Decoder {
	return NewDecoder(r, &Config{Source: source, Subagent: sessions.Subagents(filepath.Join(corpus, source))})
}

func TestGolden(t *testing.T) {
	t.Parallel()
	eventtest.GoldenFiles(t, eventtest.Corpus(t, corpus, recordings), ".jsonl", *update, newDecoder)
}

// TestReaders: one-byte and half reads give the same events as whole
// reads, subagent transcripts included.
func TestReaders(t *testing.T) {
	t.Parallel()
	for _, file := range eventtest.Corpus(t, corpus, recordings) {
		eventtest.SplitInvariance(t, []string{file}, func(r io.Reader) event.Decoder { return newDecoder(r, filepath.Base(file)) })
	}
}

// FuzzDecoder: no input panics, events carry valid UTF-8, and one-byte
// reads give the events whole reads give.
func FuzzDecoder(f *testing.F) {
	eventtest.FuzzPieces(f, eventtest.Corpus(f, corpus, recordings), "\n", 1024)
	f.Add([]byte(strings.Join([]string{userLine, asst1, asst1b, result1, asst2}, "\n")))
	f.Fuzz(func(t *testing.T, data []byte) {
		eventtest.FuzzSplit(t, data, func(r io.Reader) event.Decoder { return NewDecoder(r, &Config{MaxEventBytes: 4096}) })
	})
}

func BenchmarkDecode(b *testing.B) {
	eventtest.BenchDecode(b, eventtest.Corpus(b, corpus, recordings), func(r io.Reader) event.Decoder { return NewDecoder(r, nil) })
}
