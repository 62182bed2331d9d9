//go:build race

package usage

// Under the race detector (make test) a tenth of the agents: still a
// hundred times the cap.
const boundedN = 100_000
