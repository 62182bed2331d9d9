//go:build race

package cmd

// wrongSample is the share of (format, input) pairs that
// TestEveryFormatReadAsEveryOther runs of recordings read as a format
// they are not in: one in wrongSample, different pairs for each format so
// that every recording is still read as some other format (the HTML page,
// binary, empty and directory inputs are read as every format). Under the
// race detector, which slows every run and finds nothing more in a
// one-goroutine CLI run, a sample; `make test` runs the whole sweep again
// without it.
const wrongSample = 8
