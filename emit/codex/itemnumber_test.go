package codex

import (
	"strconv"
	"strings"
	"testing"
)

// TestItemNumber checks itemNumber against what strconv.Atoi reads after
// the item_ prefix (the number only when Atoi takes it), for ids of every shape its early refusal looks at.
func TestItemNumber(t *testing.T) {
	ids := []string{
		"", "item_", "item_0", "item_7", "item_42", "item_007", "item_+3", "item_-5", "item_--5",
		"item_+", "item_-", "item_1-2", "item_0z2y0", "item_1 ", "item_ 1", "item_1_000", "item_0x10",
		"item_9223372036854775807", "item_9223372036854775808", "item_-9223372036854775808",
		"Item_1", "item1", "call_1", "toolu_01", "item_١", "item_1\x00",
	}
	for _, id := range ids {
		var want int
		wantOK := false
		if rest, ok := strings.CutPrefix(id, "item_"); ok {
			n, err := strconv.Atoi(rest)
			want, wantOK = n, err == nil
		}
		got, ok := itemNumber(id)
		if ok != wantOK || ok && got != want {
			t.Errorf("itemNumber(%q) = %d, %v; want %d, %v", id, got, ok, want, wantOK)
		}
	}
}

// FuzzItemNumber compares itemNumber with strconv.Atoi on any id.
func FuzzItemNumber(f *testing.F) {
	for _, s := range []string{"item_12", "item_0z2y0", "item_-1", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, id string) {
		var want int
		wantOK := false
		if rest, ok := strings.CutPrefix(id, "item_"); ok {
			n, err := strconv.Atoi(rest)
			want, wantOK = n, err == nil
		}
		if got, ok := itemNumber(id); ok != wantOK || ok && got != want {
			t.Fatalf("itemNumber(%q) = %d, %v; want %d, %v", id, got, ok, want, wantOK)
		}
	})
}
