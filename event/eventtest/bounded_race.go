//go:build race

package eventtest

// BoundedN is how many agents, ids or calls the hostile inputs of the
// tests that count a stage's state open: a million, or a tenth of it
// under the race detector, which makes each line about ten times slower.
const BoundedN = 100_000
