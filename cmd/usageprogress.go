package cmd

import (
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"sync"
	"time"

	"github.com/mattn/go-isatty"
)

// progress says on a terminal's stderr how many of the inputs usage has
// read, once reading has taken more than a second; nothing elsewhere.
type progress struct {
	w     io.Writer
	total int

	mu    sync.Mutex
	n     int
	start time.Time
	last  time.Time
	shown bool
}

// newProgress returns the progress of reading total inputs, or nil when
// stderr is not a terminal.
func newProgress(ios *IOStreams, total int) *progress {
	f, ok := ios.Err.(*os.File)
	if !ok || !(isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd())) {
		return nil
	}
	return &progress{w: f, total: total, start: time.Now()}
}

// done counts one input read.
func (p *progress) done() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.n++
	now := time.Now()
	if now.Sub(p.start) < time.Second || now.Sub(p.last) < 100*time.Millisecond {
		return
	}
	p.last, p.shown = now, true
	fmt.Fprintf(p.w, "\ragentstream: read %d of %d files", p.n, p.total)
}

// finish clears the progress line.
func (p *progress) finish() {
	if p == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.shown {
		fmt.Fprint(p.w, "\r\x1b[K")
	}
}

// usageMemoryLimit is usage's soft memory limit (TuneGC's is for the
// streaming commands): usage keeps each model call it counts, about 200
// bytes each, to count it once across inputs.
const usageMemoryLimit = 256 << 20

// tuneUsageGC raises the soft memory limit for usage, as TuneGC sets
// it: not when the user sets GOGC or GOMEMLIMIT.
func tuneUsageGC(ios *IOStreams) {
	getenv := ios.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return
	}
	if debug.SetMemoryLimit(-1) < usageMemoryLimit {
		debug.SetMemoryLimit(usageMemoryLimit)
	}
}
