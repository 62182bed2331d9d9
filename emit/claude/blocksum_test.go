package claude

import (
	"crypto/sha256"
	"strings"
	"testing"
)

// TestBlockSum: blockSum gives sha256.Sum256's sum for every length of
// message, those that fit one block and those that do not, in any order
// and after the longest one.
func TestBlockSum(t *testing.T) {
	t.Parallel()
	var s blockSum
	for _, n := range []int{maxOneBlock, 0, 1, 7, 8, 9, 54, 55, 56, 57, 63, 64, 65, 119, 120, 200, maxOneBlock, 3} {
		msg := []byte(strings.Repeat("0123456789abcdef", 13)[:n])
		for range 2 {
			if got, want := s.sum(msg), sha256.Sum256(msg); got != want {
				t.Fatalf("%d bytes: %x, want %x", n, got, want)
			}
		}
	}
	if !s.ok {
		t.Fatal("the digest's marshalled state was not read: every sum was sha256.Sum256's")
	}
}
