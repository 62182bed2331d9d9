// Package openaitest holds what the tests of the OpenAI formats' encoders
// share: a round trip through decoder and encoder over the recordings,
// and the encoding benchmark.
package openaitest

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
)

// Config is the shape of emit/openaichat's and emit/openairesp's Config.
type Config interface {
	~struct {
		Agent string
		Warn  func(error)
	}
}

// Encode writes evs with an encoder of newEnc, failing t on an error, and
// returns the output and the warnings.
func Encode[EC Config, E event.Encoder](t testing.TB, newEnc func(io.Writer, *EC) E, evs []event.Event) ([]byte, []string) {
	t.Helper()
	var out bytes.Buffer
	var warnings []string
	eventtest.Encode(t, newEnc(&out, &EC{Warn: eventtest.Warnings(t, &warnings)}), evs)
	return out.Bytes(), warnings
}

// EncoderCorpus checks an encoder: every recording of dir but those named
// hand-bad, read with newDec, written and read again, gives the same
// events (written(read) are the events the encoder is expected to write
// back; nil: all of them).
func EncoderCorpus[D event.Decoder, C any, E event.Encoder, EC Config](t *testing.T, dir string, newDec func(io.Reader, *C) D, newEnc func(io.Writer, *EC) E, written func([]eventtest.Item) []eventtest.Item) {
	t.Parallel()
	for _, file := range eventtest.Corpus(t, dir, "*.sse") {
		if strings.Contains(file, "hand-bad") {
			continue
		}
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := eventtest.Collect(newDec(bytes.NewReader(data), nil))
			out, warnings := Encode(t, newEnc, eventtest.Events(want))
			if written != nil {
				want = written(want)
			}
			got := eventtest.Collect(newDec(bytes.NewReader(out), nil))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("events differ after a round trip (-read +rewritten):\n%s\nwarnings: %q", diff, warnings)
			}
		})
	}
}

// BenchEncode measures an encoder of newEnc writing the events of the
// recordings of dir but those named hand-bad, read with newDec; the
// bytes are the recordings'.
func BenchEncode[D event.Decoder, C any, E event.Encoder, EC Config](b *testing.B, dir string, newDec func(io.Reader, *C) D, newEnc func(io.Writer, *EC) E) {
	var evs []event.Event
	var n int64
	for _, file := range eventtest.Corpus(b, dir, "*.sse") {
		if strings.Contains(filepath.Base(file), "hand-bad") {
			continue
		}
		data, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		n += int64(len(data))
		evs = append(evs, eventtest.Events(eventtest.Collect(newDec(bytes.NewReader(data), nil)))...)
	}
	b.ReportAllocs()
	b.SetBytes(n)
	for b.Loop() {
		enc := newEnc(io.Discard, nil)
		for _, ev := range evs {
			enc.Encode(ev)
		}
		enc.Close()
	}
}

// NoAllocPerDelta checks that an encoder of newEnc writes a text or
// thinking delta, in pieces, without allocating (but for the growth of
// what it keeps of a block). The test must not be parallel.
func NoAllocPerDelta[E event.Encoder, EC Config](t *testing.T, newEnc func(io.Writer, *EC) E) {
	for _, kind := range []event.BlockKind{event.Text, event.Thinking} {
		enc := newEnc(io.Discard, nil)
		enc.Encode(&event.TurnStart{MessageID: "m", Model: "model"})
		enc.Encode(&event.BlockStart{Kind: kind})
		ev := &event.Delta{Kind: kind, Text: strings.Repeat("é日 \"x\"\n", 20)} // 3 pieces
		if n := testing.AllocsPerRun(200, func() { enc.Encode(ev) }); n != 0 {
			t.Errorf("%s delta: %v allocations", kind, n)
		}
	}
}

// Decoder makes a format's decoder of r for the shared decoder tests:
// source names the input, max caps one SSE message (0: the default).
type Decoder func(r io.Reader, source string, max int) event.Decoder

// Golden checks the events of each recording of dir against its golden
// file in testdata/, or rewrites them when update is set.
func Golden(t *testing.T, dir string, update bool, dec Decoder) {
	t.Parallel()
	eventtest.GoldenFiles(t, eventtest.Corpus(t, dir, "*.sse"), ".sse", update, func(r io.Reader, source string) event.Decoder {
		return dec(r, source, 0)
	})
}

// Readers checks that every recording of dir gives the same events
// however its bytes arrive.
func Readers(t *testing.T, dir string, dec Decoder) {
	t.Parallel()
	eventtest.SplitInvariance(t, eventtest.Corpus(t, dir, "*.sse"), func(r io.Reader) event.Decoder { return dec(r, "", 0) })
}

// FuzzDecoder fuzzes a decoder (SSE messages of at most 4 KiB) with the
// recordings of dir as seeds: read whole or a byte at a time, the input
// gives the same events.
func FuzzDecoder(f *testing.F, dir string, dec Decoder) {
	eventtest.FuzzPieces(f, eventtest.Corpus(f, dir, "*.sse"), "\n\n", 512)
	f.Fuzz(func(t *testing.T, data []byte) {
		eventtest.FuzzSplit(t, data, func(r io.Reader) event.Decoder { return dec(r, "", 4096) })
	})
}

// BenchDecode measures a decoder over the recordings of dir.
func BenchDecode(b *testing.B, dir string, dec Decoder) {
	eventtest.BenchDecode(b, eventtest.Corpus(b, dir, "*.sse"), func(r io.Reader) event.Decoder { return dec(r, "", 0) })
}

// Corpus runs Golden and Readers.
func Corpus(t *testing.T, dir string, update bool, dec Decoder) {
	t.Parallel()
	t.Run("Golden", func(t *testing.T) { Golden(t, dir, update, dec) })
	t.Run("Readers", func(t *testing.T) { Readers(t, dir, dec) })
}
