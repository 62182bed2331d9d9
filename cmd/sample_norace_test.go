//go:build !race

package cmd

// wrongSample: without the race detector, every pair (see
// sample_race_test.go).
const wrongSample = 1
