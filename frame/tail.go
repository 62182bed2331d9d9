package frame

import "io"

// Counter is a reader that counts the bytes read through it. A reader
// of a log still being written uses it to tell the line the end of the
// input cut off from a bad one: a line that ends where the input read so
// far ends has no line terminator, and is the input's last.
type Counter struct {
	r io.Reader
	n int64
}

// NewCounter returns a Counter reading from r.
func NewCounter(r io.Reader) *Counter { return &Counter{r: r} }

func (c *Counter) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// N returns the number of bytes read so far.
func (c *Counter) N() int64 { return c.n }
