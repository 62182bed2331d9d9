package logline

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestLast: only a last line without its terminator is Last, whatever
// the reads.
func TestLast(t *testing.T) {
	t.Parallel()
	type line struct {
		Text string
		Num  int
		Last bool
	}
	tests := []struct {
		in   string
		want []line
	}{
		{"a\n\nb\n", []line{{"a", 1, false}, {"b", 3, false}}},
		{"a\r\nb", []line{{"a", 1, false}, {"b", 2, true}}},
		{"a\n  ", []line{{"a", 1, false}}},
	}
	for _, tt := range tests {
		for name, r := range map[string]io.Reader{
			"whole":    strings.NewReader(tt.in),
			"one byte": iotest.OneByteReader(strings.NewReader(tt.in)),
		} {
			l := NewLines(r, "x", 0)
			got := []line{}
			for {
				b, err := l.Next()
				if err == io.EOF {
					break
				}
				if err != nil {
					t.Fatal(err)
				}
				got = append(got, line{string(b), l.Line, l.Last})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%q %s (-want +got):\n%s", tt.in, name, diff)
			}
		}
	}
	l := NewLines(strings.NewReader("a\n{\"b\""), "log", 0)
	l.Next()
	l.Next()
	if _, err := l.Next(); err != io.EOF {
		t.Fatal(err)
	}
	if err := l.Truncated(); !errors.Is(err, event.ErrTruncated) || err.Error() != "log:2:1: log ends inside line 2 (still being written?)" {
		t.Errorf("Truncated() = %v", err)
	}
}

// TestOut: events wait behind a held start; a line's problems come after
// its events.
func TestOut(t *testing.T) {
	t.Parallel()
	var o Out
	start := &event.SessionStart{Agent: "a"}
	o.Emit(&event.Notice{Kind: "before"})
	o.Hold(start)
	o.Emit(&event.Notice{Kind: "held"})
	o.Problem(errors.New("p"))
	if o.Held() != start {
		t.Fatal("Held is not the start")
	}
	o.Release()
	var got []string
	for !o.Empty() {
		ev, err := o.Pop()
		switch {
		case err != nil:
			got = append(got, "error "+err.Error())
		case ev == event.Event(start):
			got = append(got, "start")
		default:
			got = append(got, ev.(*event.Notice).Kind)
		}
	}
	if diff := cmp.Diff([]string{"before", "start", "held", "error p"}, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	if o.Returned() != 3 {
		t.Errorf("Returned() = %d, want 3", o.Returned())
	}
}
