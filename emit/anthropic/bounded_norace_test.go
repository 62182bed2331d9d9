//go:build !race

package anthropic

// boundedN is the number of agents or calls of TestBoundedState: the
// hostile inputs of docs/limits.md.
const boundedN = 1_000_000
