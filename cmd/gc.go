package cmd

import "runtime/debug"

// The binary's garbage collector settings, unless the user sets GOGC or
// GOMEMLIMIT (then the runtime's own defaults and the user's values hold).
//
// agentstream is a filter: its live heap is small (the blocks open at once,
// a few MB) and it allocates as it reads. With Go's default GOGC=100 the
// heap goal is twice the live heap, at least 4 MB, so a conversion collects
// once every few MB of input, a large share of its CPU time.
// gcPercent lets the heap grow to five times the live heap instead, and
// gcMemoryLimit, a soft limit, keeps peak RSS under the 32 MB that
// docs/performance.md promises for streams of any length. An input whose
// single item needs more live memory than that (docs/limits.md) is still
// read: the runtime collects more often while it is held, spending at most
// half the CPU on it, as GOMEMLIMIT documents.
const (
	gcPercent     = 400
	gcMemoryLimit = 20 << 20
)

// TuneGC applies the settings above unless getenv reports GOGC or
// GOMEMLIMIT set, and says whether it did. The binary's main calls it
// first; tools/perf -pgo calls it too, so that its profile weighs
// what the binary runs.
func TuneGC(getenv func(string) string) bool {
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return false
	}
	debug.SetGCPercent(gcPercent)
	debug.SetMemoryLimit(gcMemoryLimit)
	return true
}
