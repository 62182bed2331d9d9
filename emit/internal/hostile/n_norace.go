//go:build !race

package hostile

// N is the number of agents or calls a hostile stream opens.
const N = 1_000_000
