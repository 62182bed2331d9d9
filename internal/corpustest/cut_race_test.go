//go:build race

package corpustest

// Under the race detector (make test) a sample of cuts per recording: two
// line boundaries and two random offsets, each through every target. The
// points are among those of the run without it (cut_norace_test.go),
// which make test runs too: the sample is there for the race detector,
// which finds no more with more cuts of the same code.
const (
	cutLines   = 2
	cutOffsets = 2
)
