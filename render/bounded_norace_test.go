//go:build !race

package render

// The hostile streams of TestBoundedState: a million agents, 200,000
// choices (and turns, and notices), and tool calls, each formatted as the
// transcript writes it, so fewer than a million.
const (
	boundedAgents  = 1_000_000
	boundedChoices = 200_000
	boundedCalls   = 200_000
)
