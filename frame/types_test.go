package frame

import (
	"strings"
	"testing"
	"unsafe"
)

// TestTypesReused: each message keeps its event type whether the framer
// made it anew or reused one seen before, and the types it keeps for
// reuse are short ones only.
func TestTypesReused(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100)
	var in strings.Builder
	var want []string
	for i := range 40 {
		typ := []string{"ping", "content_block_delta", long, "message_stop", "t" + strings.Repeat("y", i)}[i%5]
		in.WriteString("event: " + typ + "\ndata: {}\n\n")
		want = append(want, typ)
	}
	s := NewSSE(strings.NewReader(in.String()), "in", 0)
	first := map[string]*byte{} // where each short type's string was made
	for i, w := range want {
		m, err := s.NextRaw()
		if err != nil {
			t.Fatal(err)
		}
		if m.Type != w {
			t.Errorf("message %d: type %q, want %q", i, m.Type, w)
		}
		if len(w) > 64 || i%5 == 4 {
			// Too long to keep, or a new type each time (eleven types
			// in all, which must all stay kept: a Responses API
			// stream takes turns with about fifteen).
			continue
		}
		p := unsafe.StringData(m.Type)
		if q, ok := first[w]; !ok {
			first[w] = p
		} else if p != q {
			t.Errorf("message %d: type %q made anew, not reused", i, w)
		}
	}
	for _, typ := range s.types {
		if len(typ) > 64 {
			t.Errorf("kept a type of %d bytes for reuse", len(typ))
		}
	}
}
