//go:build !race

package htmlview

// The agents and tool calls a hostile stream of TestBoundedState opens.
const (
	boundedN     = 1_000_000
	boundedCalls = 200_000
)
