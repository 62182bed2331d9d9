package frame_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/frame"
)

func readSSE(t *testing.T, r io.Reader, max int) ([]frame.Message, []string) {
	t.Helper()
	s := frame.NewSSE(r, "in", max)
	var msgs []frame.Message
	var problems []string
	for {
		m, err := s.Next()
		if err == io.EOF {
			return msgs, problems
		}
		if err != nil {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("fatal: %v", err)
			}
			problems = append(problems, err.Error())
			continue
		}
		msgs = append(msgs, m)
	}
}

func TestSSE(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		in       string
		max      int
		want     []frame.Message
		problems []string
	}{
		{
			name: "LF, positions",
			in:   "data: a\n\ndata: b\n\n",
			want: []frame.Message{{Data: "a", Line: 1, Offset: 0}, {Data: "b", Line: 3, Offset: 9}},
		},
		{
			name: "CRLF and CR line ends, no space after the colon",
			in:   "data:a\r\n\r\ndata: b\r\rdata: c\r\n\r\n",
			want: []frame.Message{{Data: "a", Line: 1}, {Data: "b", Line: 3, Offset: 10}, {Data: "c", Line: 5, Offset: 19}},
		},
		{
			name: "multi-line data joined, event and id kept, comments skipped",
			in:   ": hello\nevent: e\nid: 7\ndata: x\ndata: y\n\n",
			want: []frame.Message{{Type: "e", ID: "7", Data: "x\ny", Line: 2, Offset: 8}},
		},
		{
			name: "whitespace-only data is data",
			in:   "data:  \n\n",
			want: []frame.Message{{Data: " ", Line: 1}},
		},
		{
			name:     "a message over the cap is skipped and reading goes on",
			in:       "data: 0123456789012345678901234567890123456789\n\ndata: ok\n\n",
			max:      20,
			want:     []frame.Message{{Data: "ok", Line: 3, Offset: 48}},
			problems: []string{"in:1:1: SSE message larger than 20 bytes (raise the cap, MaxEventBytes)"},
		},
		{
			name:     "CR-only line ends: an oversized message does not swallow the next ones",
			in:       "data: 0123456789012345678901234567890123456789\r\rdata: 1\r\rdata: 2\r\r",
			max:      20,
			want:     []frame.Message{{Data: "1", Line: 3, Offset: 48}, {Data: "2", Line: 5, Offset: 57}},
			problems: []string{"in:1:1: SSE message larger than 20 bytes (raise the cap, MaxEventBytes)"},
		},
		{
			name:     "an oversized line, then CRLF and CR blank lines (same at any read size)",
			in:       "00000000000000000\n\r\n\rdata:0\r\r",
			max:      9,
			want:     []frame.Message{{Data: "0", Line: 4, Offset: 21}},
			problems: []string{"in:1:1: SSE message larger than 9 bytes (raise the cap, MaxEventBytes)"},
		},
		{
			name: "a CRLF split from its CR by the reads is one line end",
			in:   "data: a\r\n\r\ndata: b\r\n\r\n",
			want: []frame.Message{{Data: "a", Line: 1}, {Data: "b", Line: 3, Offset: 11}},
		},
		{
			name: "a byte order mark at the start is dropped",
			in:   "\xef\xbb\xbfdata: a\n\n",
			want: []frame.Message{{Data: "a", Line: 1, Offset: 3}},
		},
		{
			name: "a last message without its blank line still counts",
			in:   "data: a\n\ndata: tail\n",
			want: []frame.Message{{Data: "a", Line: 1}, {Data: "tail", Line: 3, Offset: 9}},
		},
		{
			name:     "a message cut off mid-line is reported as truncated",
			in:       "data: a\n\ndata: ta",
			want:     []frame.Message{{Data: "a", Line: 1}},
			problems: []string{"in:3:1: stream ended inside an SSE message"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			for name, r := range map[string]io.Reader{
				"whole":   strings.NewReader(tt.in),
				"onebyte": iotest.OneByteReader(strings.NewReader(tt.in)),
				"half":    iotest.HalfReader(strings.NewReader(tt.in)),
			} {
				got, problems := readSSE(t, r, tt.max)
				if diff := cmp.Diff(tt.want, got); diff != "" {
					t.Errorf("%s: messages (-want +got):\n%s", name, diff)
				}
				if diff := cmp.Diff(tt.problems, problems); diff != "" {
					t.Errorf("%s: problems (-want +got):\n%s", name, diff)
				}
			}
		})
	}
}

// TestSSELive: a message is yielded as soon as its blank line arrives,
// without waiting for more input.
func TestSSELive(t *testing.T) {
	t.Parallel()
	pr, pw := io.Pipe()
	s := frame.NewSSE(pr, "in", 0)
	go pw.Write([]byte("data: first\n\n"))
	m, err := s.Next()
	if err != nil || m.Data != "first" {
		t.Fatalf("Next = %+v, %v", m, err)
	}
	pw.Close()
	if _, err := s.Next(); err != io.EOF {
		t.Fatalf("Next after close = %v, want EOF", err)
	}
}

func TestLines(t *testing.T) {
	t.Parallel()
	type line struct {
		Text string
		Num  int
		Off  int64
	}
	in := "\xef\xbb\xbf{\"a\":1}\r\n\n" + strings.Repeat("x", 30) + "\nlast"
	for name, r := range map[string]io.Reader{
		"whole":   strings.NewReader(in),
		"onebyte": iotest.OneByteReader(strings.NewReader(in)),
	} {
		l := frame.NewLines(r, "in", 20)
		var got []line
		var problems []string
		for {
			b, n, off, err := l.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				problems = append(problems, err.Error())
				continue
			}
			got = append(got, line{string(b), n, off})
		}
		want := []line{{`{"a":1}`, 1, 0}, {"", 2, 12}, {"last", 4, 44}}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: lines (-want +got):\n%s", name, diff)
		}
		if diff := cmp.Diff([]string{"in:3:1: line longer than 20 bytes (raise the cap, MaxEventBytes)"}, problems); diff != "" {
			t.Errorf("%s: problems (-want +got):\n%s", name, diff)
		}
	}
}

// TestLinesAppend: a line returned in place, in the read buffer, cannot
// be appended to over the input that follows it.
func TestLinesAppend(t *testing.T) {
	t.Parallel()
	l := frame.NewLines(strings.NewReader("{\"a\":1}\n{\"b\":2}\r\nlast"), "in", 0)
	var got []string
	for {
		line, _, _, err := l.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, string(line))
		_ = append(line, "XXXXXXXXXXXXXXXX"...)
	}
	if diff := cmp.Diff([]string{`{"a":1}`, `{"b":2}`, "last"}, got); diff != "" {
		t.Errorf("lines (-want +got):\n%s", diff)
	}
}

// TestSSEMessages: Messages yields the messages NextRaw reads and skips
// what it reports as problems (a message over the cap, one cut at the
// end), and it stops at a read error.
func TestSSEMessages(t *testing.T) {
	t.Parallel()
	data := func(ds ...string) []string { return ds }
	tests := []struct {
		name string
		r    io.Reader
		want []string
	}{
		{"plain", strings.NewReader("data: a\n\ndata: b\n\n"), data("a", "b")},
		{"over the cap", strings.NewReader("data: a\n\ndata: " + strings.Repeat("x", 64) + "\n\ndata: b\n\n"), data("a", "b")},
		{"cut", strings.NewReader("data: a\n\ndata: b"), data("a")},
		{"read error", io.MultiReader(strings.NewReader("data: a\n\n"), iotest.ErrReader(errors.New("boom"))), data("a")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			for m := range frame.NewSSE(tt.r, "in", 32).Messages() {
				got = append(got, string(m.Data))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

// emptyReader reads nothing, and says nothing is wrong.
type emptyReader struct{}

func (emptyReader) Read([]byte) (int, error) { return 0, nil }

// TestSSEReads: the framer's own buffer takes what each read gives, the
// bytes that come with an error first, then the error; a reader that
// keeps giving nothing ends in io.ErrNoProgress.
func TestSSEReads(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	tests := []struct {
		name string
		r    io.Reader
		want []string
		err  error
	}{
		{"data with EOF", iotest.DataErrReader(strings.NewReader("data: a\n\ndata: b\n\n")), []string{"a", "b"}, io.EOF},
		{"one byte a read", iotest.OneByteReader(strings.NewReader("\xef\xbb\xbfdata: a\n\nevent: e\ndata: b\n\n")), []string{"a", "b"}, io.EOF},
		{"then an error", io.MultiReader(strings.NewReader("data: a\n\ndata: b\n\n"), iotest.ErrReader(boom)), []string{"a", "b"}, boom},
		{"no progress", io.MultiReader(strings.NewReader("data: a\n\n"), emptyReader{}), []string{"a"}, io.ErrNoProgress},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := frame.NewSSE(tt.r, "in", 0)
			var got []string
			for {
				m, err := s.NextRaw()
				if err != nil {
					if !errors.Is(err, tt.err) {
						t.Errorf("error %v, want %v", err, tt.err)
					}
					break
				}
				got = append(got, string(m.Data))
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("messages (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSSENextData: NextData and Pos give each message's data, type and
// place, for the shapes it reads in one look and for those it leaves to
// the line-by-line reading, and its problems, at every read size.
func TestSSENextData(t *testing.T) {
	t.Parallel()
	in := "data: a\n\nevent: e\ndata: b\n\nevent: e\ndata: c\n\nevent:f\ndata:d\n\n" +
		": c\ndata: x\ndata: y\n\nid: 7\nevent: e\ndata: z\r\n\r\n" +
		"data: 0123456789012345678901234567890123456789\n\nevent: g\ndata: w\n\ndata: cut"
	want := []string{
		"a  1 0", "b e 3 9", "c e 6 27", "d f 9 45", "x\ny  13 65", "z e 16 82",
		"in:20:1: SSE message larger than 32 bytes (raise the cap, MaxEventBytes)",
		"w g 22 156",
		"in:25:1: stream ended inside an SSE message",
	}
	for _, n := range readSizes {
		s := frame.NewSSE(&chunkReader{s: in, n: n}, "in", 32)
		var got []string
		for {
			data, typ, err := s.NextData()
			if err == io.EOF {
				break
			}
			if err != nil {
				got = append(got, err.Error())
				continue
			}
			line, off := s.Pos()
			got = append(got, fmt.Sprintf("%s %s %d %d", data, typ, line, off))
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("read size %d (-want +got):\n%s", n, diff)
		}
	}
}
