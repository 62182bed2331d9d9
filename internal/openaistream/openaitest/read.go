package openaitest

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// SameAsJSON checks that what read, a one-pass reader, decodes of data
// is what json.Unmarshal gives, and reports whether read decoded it.
func SameAsJSON[T any](t *testing.T, data []byte, read func([]byte, *T) bool, opts ...cmp.Option) bool {
	t.Helper()
	var got T
	if !read(data, &got) {
		return false
	}
	var want T
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: one pass decodes what json.Unmarshal refuses: %v", data, err)
	}
	if diff := cmp.Diff(want, got, opts...); diff != "" {
		t.Errorf("%s: differs (-json +one pass):\n%s", data, diff)
	}
	return true
}

// ReadSeeds checks SameAsJSON on every seed, and that read decodes at
// least least of them.
func ReadSeeds[T any](t *testing.T, seeds [][]byte, least int, read func([]byte, *T) bool, opts ...cmp.Option) {
	t.Parallel()
	fast := 0
	for _, s := range seeds {
		if SameAsJSON(t, s, read, opts...) {
			fast++
		}
	}
	if fast < least {
		t.Errorf("only %d of %d decoded in one pass", fast, len(seeds))
	}
}

// DecodeReuse checks that decode, which reuses its buffers, gives for
// each seed in turn what json.Unmarshal gives: nothing of the one before.
func DecodeReuse[T any](t *testing.T, seeds [][]byte, decode func([]byte, *T) error, opts ...cmp.Option) {
	t.Parallel()
	var v T
	for i, s := range seeds {
		if decode(s, &v) != nil {
			continue
		}
		var want T
		json.Unmarshal(s, &want)
		if diff := cmp.Diff(want, v, opts...); diff != "" {
			t.Errorf("%s after %s (-json +Decode):\n%s", s, seeds[max(i-1, 0)], diff)
		}
	}
}
