package claude

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestArrayPositions: problems in the top-level array of --output-format
// json are reported at NAME:LINE:COL, as in lines: an element's problem
// at its first byte, a syntax error where the JSON decoder stopped.
func TestArrayPositions(t *testing.T) {
	t.Parallel()
	in := "\n [\n  " + initLine + ",\n    [1],\n  {\"type\": }\n]"
	var got []string
	for _, it := range decodeAll(strings.NewReader(in), &Config{Source: "in"}) {
		if it.Err != "" {
			got = append(got, it.Err)
		}
	}
	want := []string{
		"in:4:5: not a JSON object: a JSON array, not an object",
		"in:5:12: in the top-level JSON array: invalid character '}' looking for beginning of value",
		"in:5:12: stream ended before the result line",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}
