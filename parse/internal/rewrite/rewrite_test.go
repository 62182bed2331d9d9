package rewrite

import (
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

func TestCompleteUTF8(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"a\xc3", 1},
		{"a\xc3\xa9", 3},
		{"\xe6\x96", 0},
		{"\xe6\x96\x87", 3},
		{"x\xf0\x9f\x98", 1},
		{"\xff", 1},
		{"a\x80", 2},
	} {
		if got := completeUTF8([]byte(tt.in)); got != tt.want {
			t.Errorf("completeUTF8(%q) = %d, want %d", tt.in, got, tt.want)
		}
	}
}

func TestPosSplitRune(t *testing.T) {
	t.Parallel()
	s := "a魲\nb😀c"
	whole := Start
	whole.Advance(s)
	for i := 0; i <= len(s); i++ {
		p := Start
		p.Advance(s[:i])
		p.Advance(s[i:])
		if p != whole {
			t.Errorf("split at %d: %+v, want %+v", i, p, whole)
		}
		q := Start
		for j := 0; j < len(s); j++ {
			q.AdvanceByte(s[j])
		}
		if q != whole {
			t.Errorf("byte by byte: %+v, want %+v", q, whole)
		}
	}
	if whole.Line != 2 || whole.Col != 4 || whole.Off != int64(len(s)) {
		t.Errorf("got %+v", whole)
	}
}

// TestLayout checks which white space Layout drops: a run at the start is
// kept when text follows, a run between two elements is dropped, and one
// newline after an element is dropped before text.
func TestLayout(t *testing.T) {
	t.Parallel()
	var st decoderstate.State
	var cut error
	o := newOut("", "", &st, &cut)
	var l Layout
	l.Text(o, "  ")
	l.TextByte(o, 'a')      // "  a"
	l.Element()             // "<x/>"
	l.Text(o, "\n\n")       // layout
	l.Element()             // "<y/>"
	l.Text(o, "\n b\n")     // one newline dropped
	held := l.TakeHeld(nil) // nothing held after text started
	l.Element()
	l.Text(o, " \t")
	l.End(o) // white space after an element is dropped at the end
	o.EndAll()
	st.End()
	var got string
	for {
		ev, err := st.Next(func() {}, func() error { return nil })
		if err != nil {
			break
		}
		if d, ok := ev.(*event.Delta); ok {
			got += d.Text
		}
	}
	if want := "  a b\n"; got != want || len(held) != 0 {
		t.Errorf("got %q, held %q; want %q, none held", got, held, want)
	}
}

// TestValidText: invalid bytes become U+FFFD one by one, and a sequence
// split anywhere is joined, so every split gives the same text.
func TestValidText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ in, want string }{
		{"", ""},
		{"héllo 😀", "héllo 😀"},
		{"a\xffb", "a\uFFFDb"},
		{"\xff\xfe", "\uFFFD\uFFFD"},
		{"\xe2\x82 x", "\uFFFD\uFFFD x"},
		{"\x80é", "\uFFFDé"},
		{"end \xf0\x9f\x98", "end \uFFFD\uFFFD\uFFFD"},
		{"\xed\xa0\x80", "\uFFFD\uFFFD\uFFFD"}, // a surrogate
	} {
		for i := 0; i <= len(tt.in); i++ {
			for j := i; j <= len(tt.in); j++ {
				var v validText
				got := v.piece([]byte(tt.in[:i]), false) + v.piece([]byte(tt.in[i:j]), false) +
					v.piece([]byte(tt.in[j:]), false) + v.piece(nil, true)
				if got != tt.want {
					t.Errorf("%q split at %d, %d = %q, want %q", tt.in, i, j, got, tt.want)
				}
			}
		}
	}
}
