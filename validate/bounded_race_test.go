//go:build race

package validate

// Under the race detector (make test) a tenth of the agents, calls or
// turns: still a hundred times the cap.
const boundedN = 100_000
