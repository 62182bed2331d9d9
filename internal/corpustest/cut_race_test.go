//go:build race

package corpustest

// Under the race detector (make test) a sample of cuts per recording:
// eight line boundaries spread over it and four random offsets.
const (
	cutLines   = 8
	cutOffsets = 4
)
