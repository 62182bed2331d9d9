package jsontext

import "testing"

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
