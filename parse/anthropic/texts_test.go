package anthropic

import (
	"strconv"
	"strings"
	"testing"
)

// TestTexts: every string texts hands out stays what it was given,
// however many follow it (short ones share slabs, long ones do not), and
// the buffer it was given may change after.
func TestTexts(t *testing.T) {
	t.Parallel()
	var tx texts
	var got, want []string
	buf := make([]byte, 0, 2*maxSlabText)
	for i := range 2000 {
		s := strings.Repeat(strconv.Itoa(i), i%(maxSlabText/2)+i%3*maxSlabText/2)
		buf = append(buf[:0], s...)
		got = append(got, tx.string(buf))
		want = append(want, s)
		clear(buf)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d: %q, want %q", i, got[i], want[i])
		}
	}
}
