//go:build !race

package usage

// boundedN is the number of agents a hostile stream of TestBoundedState
// opens.
const boundedN = 1_000_000
