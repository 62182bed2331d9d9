package claude

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
	"testing"
)

// TestLineIDs: every uuid is the first 16 bytes of the SHA-256 of the
// session id, "/" and the line's number, with the version and variant
// bits of a version 4 uuid, whatever the lengths (one block or more) and
// however the session ids alternate.
func TestLineIDs(t *testing.T) {
	t.Parallel()
	want := func(session string, n int) string {
		h := sha256.Sum256([]byte(session + "/" + strconv.Itoa(n)))
		h[6] = h[6]&0x0f | 0x40
		h[8] = h[8]&0x3f | 0x80
		x := hex.EncodeToString(h[:16])
		return x[:8] + "-" + x[8:12] + "-" + x[12:16] + "-" + x[16:20] + "-" + x[20:]
	}
	var l lineIDs
	checked := 0
	for size := range 70 {
		session := strings.Repeat("é", size/2) + strings.Repeat("s", size%2)
		for _, n := range []int{1, 9, 10, 99, 100, 12345, 1 << 40, 1<<63 - 1} {
			for _, s := range []string{session, "0199a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b", session} {
				l.setSession(s)
				if got, w := string(l.appendUUID(nil, n)), want(s, n); got != w {
					t.Fatalf("session %q, line %d: %s, want %s", s, n, got, w)
				}
				checked++
			}
		}
	}
	// Line after line, as the encoder asks: the number counted up in
	// place, across the lengths 1 to 4 digits.
	for _, s := range []string{"0199a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b", "a/9", ""} {
		l.setSession(s)
		for n := 1; n <= 1100; n++ {
			if got, w := string(l.appendUUID(nil, n)), want(s, n); got != w {
				t.Fatalf("session %q, line %d in order: %s, want %s", s, n, got, w)
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Fatalf("only %d uuids checked", checked)
	}
}

// BenchmarkLineIDs: the uuids of the lines of one session, in order, as
// the encoder asks for them.
func BenchmarkLineIDs(b *testing.B) {
	b.ReportAllocs()
	var l lineIDs
	l.setSession("0199a1b2-c3d4-7e5f-8a6b-7c8d9e0f1a2b")
	buf := make([]byte, 0, 64)
	n := 0
	for b.Loop() {
		n++
		buf = l.appendUUID(buf[:0], n)
	}
}
