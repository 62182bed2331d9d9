package eventtest

import "io"

// Generated returns a reader of n lines, line(0) to line(n-1), each made
// as it is read and never held with the others: the hostile inputs of the
// tests that count the state a stage holds (a million agents, ids or open
// calls). line's result ends without a line end; Generated adds one.
func Generated(n int, line func(i int) string) io.Reader {
	return &generated{n: n, line: line}
}

type generated struct {
	n, i int
	line func(int) string
	buf  []byte
}

func (g *generated) Read(p []byte) (int, error) {
	for len(g.buf) == 0 {
		if g.i == g.n {
			return 0, io.EOF
		}
		g.buf = append(append(g.buf[:0], g.line(g.i)...), '\n')
		g.i++
	}
	n := copy(p, g.buf)
	g.buf = g.buf[n:]
	return n, nil
}
