package slab

import (
	"strings"
	"testing"
	"unsafe"
)

// TestStrings: every string is its bytes, later writes never change an
// earlier string, short strings share a slab, and a long one does not.
func TestStrings(t *testing.T) {
	t.Parallel()
	var s Strings
	var got, want []string
	for i := range 2000 {
		b := []byte(strings.Repeat(string(rune('a'+i%26)), i%40))
		got = append(got, s.String(b))
		want = append(want, string(b))
		if len(b) > 0 {
			b[0] = 0 // the caller's buffer is reused
		}
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("string %d = %q, want %q", i, got[i], want[i])
		}
	}
	a, b := s.String([]byte("ab")), s.String([]byte("cd"))
	if unsafe.StringData(b) != (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(a)), 2)) {
		t.Error("two short strings are not in one slab")
	}
	long := make([]byte, MaxText+1)
	if l := s.String(long); len(l) != MaxText+1 || unsafe.StringData(l) == (*byte)(unsafe.Add(unsafe.Pointer(unsafe.StringData(b)), 2)) {
		t.Error("a long string went into the slab")
	}
	if Next(0) != First || Next(First) != 2*First || Next(Size) != Size {
		t.Errorf("Next: %d %d %d", Next(0), Next(First), Next(Size))
	}
}

// TestBytes: every copy is its parts, later copies never change an
// earlier one nor can an append to one, short copies share a slab, and a
// long one does not.
func TestBytes(t *testing.T) {
	t.Parallel()
	var s Bytes
	var got [][]byte
	var want []string
	for i := range 2000 {
		p := []byte(strings.Repeat(string(rune('a'+i%26)), i%40))
		q := []byte(strings.Repeat("z", i%3))
		b := s.Copy(p, q)
		if cap(b) != len(b) {
			t.Fatalf("copy %d: cap %d, len %d", i, cap(b), len(b))
		}
		got, want = append(got, b), append(want, string(p)+string(q))
	}
	long := s.Copy([]byte(strings.Repeat("L", MaxText+1)))
	after := s.Copy([]byte("x"))
	for i := range got {
		if string(got[i]) != want[i] {
			t.Fatalf("copy %d = %q, want %q", i, got[i], want[i])
		}
	}
	if len(long) != MaxText+1 || unsafe.SliceData(after) == unsafe.SliceData(long[len(long)-1:]) {
		t.Error("a long copy shares a slab")
	}
	a, b := s.Copy([]byte("ab")), s.Copy([]byte("cd"))
	if unsafe.SliceData(b) != (*byte)(unsafe.Add(unsafe.Pointer(unsafe.SliceData(a)), 2)) {
		t.Error("short copies do not share a slab")
	}
}

// TestEqual: Equal is ==, on strings that share their bytes, strings
// that share a prefix of them, and equal strings that do not.
func TestEqual(t *testing.T) {
	t.Parallel()
	s := "agent-1agent-2"
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{s[:7], s[:7], true},
		{s[:7], s[:6], false},
		{s[:7], s[7:], false},
		{s[:7], strings.Clone(s[:7]), true},
		{"", "", true},
		{"", s[:1], false},
	} {
		if got := Equal(tc.a, tc.b); got != tc.want || got != (tc.a == tc.b) {
			t.Errorf("Equal(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
