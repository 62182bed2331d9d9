//go:build race

package htmlview

// Under the race detector (make test) fewer: still many times the cap.
const (
	boundedN     = 100_000
	boundedCalls = 20_000
)
