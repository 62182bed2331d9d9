//go:build !race

package render

// The tool calls a hostile stream of TestBoundedCalls opens: each is
// formatted as the transcript writes it, so fewer than a million.
const boundedCalls = 200_000
