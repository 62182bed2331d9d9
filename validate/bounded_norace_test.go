//go:build !race

package validate

// boundedN is the number of agents, calls or turns a hostile stream of
// TestBoundedState opens.
const boundedN = 1_000_000
