package eventtest

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestPieces(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		data string
		size int
		want []string
	}{
		{"empty", "", 8, nil},
		{"fits", "a\n\nb\n\n", 8, []string{"a\n\nb\n\n"}},
		{"cut after the last separator within size", "aa\n\nbb\n\ncc\n\n", 9, []string{"aa\n\nbb\n\n", "cc\n\n"}},
		{"a unit longer than size is cut at size", "abcdefgh\n\nx", 4, []string{"abcd", "efgh", "\n\nx"}},
		{"no separator", "abcdefg", 3, []string{"abc", "def", "g"}},
	}
	for _, tt := range tests {
		var got []string
		for _, p := range Pieces([]byte(tt.data), "\n\n", tt.size) {
			got = append(got, string(p))
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: pieces differ (-want +got):\n%s", tt.name, diff)
		}
	}
}
