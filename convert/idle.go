package convert

import (
	"io"

	"github.com/agentstream/agentstream/event"
)

// FlushOnIdle returns r wrapped so that flush is called before each read
// from r. A decoder reads from its input only once it has used up what it
// read before, and Pipe encodes each event before it asks for the next:
// so flush runs exactly when all the input that has arrived is written
// out and the program is about to wait for more: on a live pipe, after
// each line, so every event is written at once. (A regular file never
// makes the program wait: the commands give it no flush, and its output
// goes out in full buffers.) An error from flush is returned by the
// read, and ends the decoding as any read error does.
func FlushOnIdle(r io.Reader, flush func() error) io.Reader {
	if flush == nil {
		return r
	}
	return &idleReader{r: r, flush: flush}
}

type idleReader struct {
	r     io.Reader
	flush func() error
}

func (i *idleReader) Read(p []byte) (int, error) {
	if err := i.flush(); err != nil {
		return 0, err
	}
	return i.r.Read(p)
}

// FlushEncoder writes out what enc holds back, when it holds something
// back between events (it has a Flush method: the xml encoder holds the
// open block's deltas so that a block its source abandons can be
// dropped). A command calls it in the flush it gives FlushOnIdle, before
// flushing its own buffer.
func FlushEncoder(enc event.Encoder) error {
	if f, ok := enc.(interface{ Flush() error }); ok {
		return f.Flush()
	}
	return nil
}
