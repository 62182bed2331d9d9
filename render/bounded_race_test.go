//go:build race

package render

// Under the race detector (make test) a tenth: still many times the caps.
const (
	boundedAgents  = 100_000
	boundedChoices = 20_000
	boundedCalls   = 20_000
)
