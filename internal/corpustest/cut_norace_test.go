//go:build !race

package corpustest

// Without the race detector (make test runs this package once more so)
// every line boundary and 20 random offsets of every recording.
const (
	cutLines   = 0
	cutOffsets = 20
)
