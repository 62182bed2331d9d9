package textlist

import (
	"fmt"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestJoin(t *testing.T) {
	t.Parallel()
	items := func(n int) []string {
		var s []string
		for i := range n {
			s = append(s, fmt.Sprint(i))
		}
		return s
	}
	tests := []struct {
		n    int
		sep  string
		want string
	}{
		{0, ", ", ""},
		{1, ", ", "0"},
		{10, ", ", "0, 1, 2, 3, 4, 5, 6, 7, 8, 9"},
		{11, ", ", "0, 1, 2, 3, 4, 5, 6, 7, 8, 9 and 1 more"},
		{400000, "; ", "0; 1; 2; 3; 4; 5; 6; 7; 8; 9 and 399990 more"},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.n), func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, Join(items(tt.n), tt.sep)); diff != "" {
				t.Errorf("Join (-want +got):\n%s", diff)
			}
		})
	}
}

func ExampleJoin() {
	fmt.Println(Join([]string{"a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l"}, ", "))
	// Output: a, b, c, d, e, f, g, h, i, j and 2 more
}
