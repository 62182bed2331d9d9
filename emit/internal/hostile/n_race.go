//go:build race

package hostile

// Under the race detector (make test) a tenth of the agents or calls:
// still a hundred times the encoders' caps.
const N = 100_000
