package event

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestLossesOnce checks that each what is warned about once, whatever
// comes between its reports, and that a nil warn is not remembered.
func TestLossesOnce(t *testing.T) {
	var l Losses
	var got []string
	warn := func(err error) { got = append(got, err.(*LossError).What) }
	l.Report(nil, "x", "a") // discarded, not remembered
	for _, what := range []string{"a", "a", "b", "a", "", "c", "b", "", "c", "c", "d", "a"} {
		l.Report(warn, "x", what)
	}
	if diff := cmp.Diff([]string{"a", "b", "", "c", "d"}, got); diff != "" {
		t.Errorf("warned (-want +got):\n%s", diff)
	}
}
