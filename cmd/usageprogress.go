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

// Usage's soft memory limit (TuneGC's is for the streaming commands).
// usage keeps the last model calls it counts (usage.Window), about 200
// bytes each, to count each once across inputs, so its limit grows with
// the calls it holds: the
// base, room for the inputs being read (the largest single item of a
// stream, docs/limits.md), and usageMemoryPerCall for each call held, up
// to usageMemoryLimit. A fixed high limit let the heap reach five times
// (gcPercent) a large item's transient live heap although usage held
// nothing: one openai-chat chunk of 200,000 choices.
const (
	usageMemoryBase    = 32 << 20
	usageMemoryPerCall = 2 << 10
	usageMemoryLimit   = 256 << 20
)

// usageGC raises the soft memory limit as usage holds more calls. The
// zero value (and nil) does nothing: the user set GOGC or GOMEMLIMIT.
type usageGC struct {
	set   func(int64) int64 // debug.SetMemoryLimit
	limit int64             // the limit set, 0 before the first
	next  int               // calls held past which the limit is raised
}

// tuneUsageGC sets usage's soft memory limit for no call held, as TuneGC
// sets its own: not when the user sets GOGC or GOMEMLIMIT (then it
// returns nil).
func tuneUsageGC(ios *IOStreams) *usageGC {
	getenv := ios.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	if getenv("GOGC") != "" || getenv("GOMEMLIMIT") != "" {
		return nil
	}
	g := &usageGC{set: debug.SetMemoryLimit}
	g.hold(0)
	return g
}

// hold says that usage holds calls model calls. The limit is set again
// only when it would grow by an eighth or more, so that hold can be
// called for each event.
func (g *usageGC) hold(calls int) {
	if g == nil || g.set == nil || calls < g.next {
		return
	}
	want := min(usageMemoryBase+int64(calls)*usageMemoryPerCall, usageMemoryLimit)
	if want > g.limit {
		g.limit = want
		g.set(want)
	}
	if want >= usageMemoryLimit {
		g.next = int(^uint(0) >> 1) // at the cap: never again
		return
	}
	g.next = calls + int((want/8)/usageMemoryPerCall)
}
