//go:build race

package acp

// boundedN is the number of agents or calls of TestBoundedState, fewer
// under the race detector (still far past the cap).
const boundedN = 20_000
