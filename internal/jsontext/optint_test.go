package jsontext

import (
	"math"
	"strconv"
	"testing"
)

func TestAppendOptInt(t *testing.T) {
	t.Parallel()
	n := int64(-42)
	if got := string(AppendOptInt([]byte("x:"), &n)); got != "x:-42" {
		t.Errorf("got %q", got)
	}
	if got := string(AppendOptInt([]byte("x:"), nil)); got != "x:null" {
		t.Errorf("nil: got %q", got)
	}
}

// TestAppendInt checks AppendInt against strconv.AppendInt, around the
// single digits it writes itself.
func TestAppendInt(t *testing.T) {
	t.Parallel()
	for _, n := range []int64{math.MinInt64, -10, -9, -1, 0, 1, 9, 10, 11, 99, 100, 2400, math.MaxInt64} {
		if got, want := string(AppendInt([]byte("x:"), n)), string(strconv.AppendInt([]byte("x:"), n, 10)); got != want {
			t.Errorf("AppendInt(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestAppendOptString(t *testing.T) {
	t.Parallel()
	s := "end_turn \"x\"\u2028"
	if got, want := string(AppendOptString([]byte("x:"), &s)), `x:"end_turn \"x\"\u2028"`; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := string(AppendOptString([]byte("x:"), nil)); got != "x:null" {
		t.Errorf("nil: got %q", got)
	}
}
