package eventtest

import (
	"errors"
	"io"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
)

// ChunkReader hands out Chunks one per Read; N counts the reads so far.
type ChunkReader struct {
	Chunks []string
	N      int
}

func (r *ChunkReader) Read(p []byte) (int, error) {
	if r.N == len(r.Chunks) {
		return 0, io.EOF
	}
	r.N++
	return copy(p, r.Chunks[r.N-1]), nil
}

// Split cuts s into pieces of step bytes (the last may be shorter).
func Split(s string, step int) []string {
	var chunks []string
	for s != "" {
		k := min(step, len(s))
		chunks = append(chunks, s[:k])
		s = s[k:]
	}
	return chunks
}

// RunEndFirst moves a RunEnd at the end of items (but for the problems
// after it) before the problems right before it: a wrapping decoder
// reports what the end of a text block cut off at the block's end and
// emits the completion's RunEnd at the end of the stream, where the plain
// decoder emits the RunEnd first and the truncation last.
func RunEndFirst(items []Item) []Item {
	n := len(items)
	for n > 0 && items[n-1].Event == nil {
		n-- // problems reported at the end of the input (a warning)
	}
	if n == 0 {
		return items
	}
	if _, ok := items[n-1].Event.(*event.RunEnd); !ok {
		return items
	}
	i := n - 1
	for i > 0 && items[i-1].Err != "" {
		i--
	}
	out := slices.Clone(items[:i])
	out = append(out, items[n-1])
	out = append(out, items[i:n-1]...)
	return append(out, items[n:]...)
}

// Normalise drops error positions and the wording difference between the
// end of a wrapped text block and the end of a plain input, and moves
// warnings (reported once per input, at its end) after the other items:
// a wrapped text block's own end problem comes when the block ends, before
// the input's end, where a plain input reports it last.
func Normalise(items []Item) []Item {
	out := make([]Item, 0, len(items))
	var warnings []Item
	for _, it := range items {
		if it.Err != "" {
			_, msg, _ := strings.Cut(it.Err, ": ")
			if _, m, ok := strings.Cut(msg, ": "); ok && strings.HasPrefix(msg, "1") {
				msg = m
			}
			it.Err = strings.Replace(msg, "the text block", "the input", 1)
			if strings.Contains(it.Err, ": warning: ") || strings.HasPrefix(it.Err, "warning: ") {
				warnings = append(warnings, it)
				continue
			}
		}
		out = append(out, it)
	}
	return append(out, warnings...)
}

// CheckUTF8 reports any event text in items that is not valid UTF-8.
func CheckUTF8(t testing.TB, items []Item) {
	t.Helper()
	for _, it := range items {
		switch ev := it.Event.(type) {
		case *event.Delta:
			if !utf8.ValidString(ev.Text) {
				t.Errorf("delta %q is not valid UTF-8", ev.Text)
			}
		case *event.ToolCall:
			if !utf8.Valid(ev.Input) || !utf8.ValidString(ev.Name) {
				t.Errorf("tool call %q %q is not valid UTF-8", ev.Name, ev.Input)
			}
		case *event.ToolResult:
			for _, p := range ev.Content {
				if !utf8.ValidString(p.Text) {
					t.Errorf("tool result %q is not valid UTF-8", p.Text)
				}
			}
		}
	}
}

// Sequence returns what dec.Next returns, in order, for checking the
// event.Decoder contract: an event's type name, or "ParseError(truncated)"
// / "ParseError(syntax)" for the sentinel a problem wraps, up to and
// including "EOF", which must then repeat. Any other error is fatal.
func Sequence(t testing.TB, dec event.Decoder) []string {
	t.Helper()
	var out []string
	for range 1000 {
		ev, err := dec.Next()
		switch {
		case err == io.EOF:
			if _, err := dec.Next(); err != io.EOF {
				t.Errorf("Next after io.EOF = %v, want io.EOF again", err)
			}
			return append(out, "EOF")
		case errors.Is(err, event.ErrTruncated):
			out = append(out, "ParseError(truncated)")
		case errors.Is(err, event.ErrSyntax):
			out = append(out, "ParseError(syntax)")
		case err != nil:
			t.Fatalf("Next: %v", err)
		default:
			out = append(out, reflect.TypeOf(ev).Elem().Name())
		}
	}
	t.Fatal("decoder does not end")
	return nil
}
