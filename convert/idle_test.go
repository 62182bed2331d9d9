package convert

import (
	"bufio"
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// TestFlushOnIdleLive feeds Claude stream-json deltas through a pipe, one
// line at a time, and checks that each converted envelope reaches the
// output before the next line is written: flushing when the input has
// nothing buffered keeps a live stream live.
func TestFlushOnIdleLive(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error)
	go func() {
		w := bufio.NewWriterSize(outW, 64<<10)
		to, _ := Lookup("jsonenv")
		enc := to.NewEncoder(w, &format.Options{Framing: "ndjson"})
		dec := decoderFor(t, "claude", FlushOnIdle(inR, w.Flush))
		err := Pipe(dec, enc, &PipeOptions{Problem: func(error) bool { return true }})
		w.Flush()
		outW.Close()
		done <- err
	}()
	head := `{"type":"stream_event","session_id":"s","event":{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[]}}}` + "\n" +
		`{"type":"stream_event","session_id":"s","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}}` + "\n"
	if _, err := io.WriteString(inW, head); err != nil {
		t.Fatal(err)
	}
	out := bufio.NewReader(outR)
	for i, d := range []string{"first ", "second ", "third"} {
		line := `{"type":"stream_event","session_id":"s","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + d + `"}}}` + "\n"
		if _, err := io.WriteString(inW, line); err != nil {
			t.Fatal(err)
		}
		// The envelope must come out now, with the input still open.
		got, err := out.ReadString('\n')
		if err != nil {
			t.Fatalf("delta %d: %v", i, err)
		}
		if !strings.Contains(got, `"delta":"`+d+`"`) {
			t.Fatalf("delta %d: got %q", i, got)
		}
	}
	inW.Close()
	io.Copy(io.Discard, out)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}

// writeCounter counts the writes made to it.
type writeCounter struct {
	bytes.Buffer
	writes int
}

func (w *writeCounter) Write(p []byte) (int, error) {
	w.writes++
	return w.Buffer.Write(p)
}

// TestFlushOnIdleFile: a file, whose reads never wait, is written in
// large writes, about one per buffer of input, not one per event; and
// the output is what flushing after every event writes.
func TestFlushOnIdleFile(t *testing.T) {
	t.Parallel()
	unit, err := os.ReadFile("../testdata/claude/partial-long-text.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	in := bytes.Repeat(unit, 4)
	convert := func(idle bool) (*writeCounter, int) {
		out := &writeCounter{}
		w := bufio.NewWriterSize(out, 64<<10)
		to, _ := Lookup("jsonenv")
		enc := to.NewEncoder(w, &format.Options{})
		events := 0
		counted := &countingEncoder{enc: enc, n: &events}
		var r io.Reader = bytes.NewReader(in)
		flush := w.Flush
		if idle {
			r, flush = FlushOnIdle(r, w.Flush), nil
		}
		if err := Pipe(decoderFor(t, "claude", r), counted, &PipeOptions{Flush: flush, Problem: func(error) bool { return true }}); err != nil {
			t.Fatal(err)
		}
		enc.Close()
		w.Flush()
		return out, events
	}
	perEvent, events := convert(false)
	idle, _ := convert(true)
	if idle.String() != perEvent.String() {
		t.Fatal("flushing on idle changes the output")
	}
	// One read per 64 KiB of input (and one to find the end), each
	// flushing at most two writes' worth, and the final flush.
	if max := 2*(len(in)/(64<<10)+2) + 1; idle.writes > max {
		t.Errorf("%d writes for %d bytes of input, want at most %d", idle.writes, len(in), max)
	}
	if perEvent.writes < events/2 {
		t.Errorf("flushing after each of %d events made only %d writes: the comparison proves nothing", events, perEvent.writes)
	}
}

// countingEncoder counts the events it passes on.
type countingEncoder struct {
	enc event.Encoder
	n   *int
}

func (c *countingEncoder) Encode(ev event.Event) error {
	*c.n++
	return c.enc.Encode(ev)
}

func (c *countingEncoder) Close() error { return c.enc.Close() }
