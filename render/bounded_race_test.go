//go:build race

package render

// Under the race detector (make test) a tenth: still many times the cap.
const boundedCalls = 20_000
