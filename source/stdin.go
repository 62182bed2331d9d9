package source

import (
	"context"
	"io"
)

// Stdin returns in (standard input, a pipe, a FIFO) as a reader that
// stops at ctx's end: a read blocked on a pipe or a FIFO whose producer is
// silent returns ctx.Err() as soon as ctx is done (Ctrl-C on `record -`,
// or on `-d @-` reading a request body), instead of waiting for the
// producer to write or close. When ctx cannot end, in is read as it is.
// Closing the reader does not close in.
func Stdin(ctx context.Context, in io.Reader) io.ReadCloser {
	if ctx.Done() == nil {
		return io.NopCloser(in)
	}
	return &ctxReader{ctx: ctx, in: in}
}

// ctxReader reads in on a goroutine of its own, one chunk at a time, so
// that Read can wait for either the chunk or ctx. The goroutine reads the
// next chunk only once the last one is taken: at most one chunk is held.
// A read left blocked when ctx ends stays so until in has data or ends;
// the process is then on its way out.
type ctxReader struct {
	ctx     context.Context
	in      io.Reader
	chunks  chan chunk
	next    chan struct{}
	pending []byte
	err     error
}

type chunk struct {
	b   []byte
	err error
}

func (r *ctxReader) start() {
	r.chunks = make(chan chunk)
	r.next = make(chan struct{}, 1)
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := r.in.Read(buf)
			select {
			case r.chunks <- chunk{buf[:n], err}:
			case <-r.ctx.Done():
				return
			}
			if err != nil {
				return
			}
			select {
			case <-r.next: // the chunk has been copied out: buf is free
			case <-r.ctx.Done():
				return
			}
		}
	}()
}

func (r *ctxReader) Read(p []byte) (int, error) {
	for len(r.pending) == 0 {
		if r.err != nil {
			return 0, r.err
		}
		if r.chunks == nil {
			r.start()
		}
		select {
		case c := <-r.chunks:
			r.pending, r.err = c.b, c.err
		case <-r.ctx.Done():
			// What has arrived already is kept.
			select {
			case c := <-r.chunks:
				r.pending = c.b
			default:
			}
			r.err = r.ctx.Err()
			if len(r.pending) == 0 {
				return 0, r.err
			}
			continue
		}
		if len(r.pending) == 0 && r.err == nil {
			r.next <- struct{}{}
		}
	}
	n := copy(p, r.pending)
	r.pending = r.pending[n:]
	if len(r.pending) == 0 && r.err == nil {
		r.next <- struct{}{}
	}
	return n, nil
}

func (r *ctxReader) Close() error { return nil }
