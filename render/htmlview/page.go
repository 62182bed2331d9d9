package htmlview

import (
	"cmp"
	"fmt"
	"io"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/usage"
)

// PageOptions configure a Page.
type PageOptions struct {
	// Title is the page's title.
	Title string
	// Runs is how many runs the page will hold, when known: a page of
	// several has an index of runs at its top and a search box over all
	// of them; 0 or 1 is a page of one run.
	Runs int
}

// Page is one HTML page of one or more runs, written as a stream: the
// head first, then each run's section as it is read (Run), each followed
// by its line of the index, which the page's script moves into the index
// at the top of the page (without script the lines stay under their
// runs). Close ends the page.
type Page struct {
	w     io.Writer
	o     PageOptions
	err   error
	head  bool
	ended bool
	runs  int // runs started
}

// indexEntry is a run's line of the index: its model, cost and a short
// state (ended, no run end, cut off).
type indexEntry struct {
	model, cost, state string
}

// NewPage returns a Page on w.
func NewPage(w io.Writer, o PageOptions) *Page { return &Page{w: w, o: o} }

// Run returns the Writer of the page's next run, whose Close ends the
// run's section; a run starts once the previous one is closed.
func (p *Page) Run(o Options) *Writer {
	p.runs++
	h := &Writer{
		w: p.w, o: o, page: p, run: p.runs, asm: assemble.New(o.MaxBlockBytes), cnt: usage.NewCounter(),
		agents: map[string]*agentInfo{}, calls: map[string]int{},
		seen: openset.New[string](MaxAgents), called: openset.New[string](MaxAgents),
		waiting: openset.New[waiting](MaxAgents),
	}
	if p.o.Runs > 1 {
		h.pre = h.runID() + "-"
	}
	return h
}

// Close ends the page: the head when no run wrote it, and the end of
// the document. It returns a write error.
func (p *Page) Close() error {
	p.end()
	return p.err
}

func (p *Page) printf(format string, args ...any) {
	if p.err != nil {
		return
	}
	_, p.err = fmt.Fprintf(p.w, format, args...)
}

// start writes the head, once: the CSP, the style and script, the search
// box (hidden until the script runs) and, on a page of several runs, the
// index the script fills.
func (p *Page) start() {
	if p.head {
		return
	}
	p.head = true
	title := cmp.Or(p.o.Title, "agent run")
	p.printf(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src %s">
<meta name="generator" content="agentstream assemble -o html">
<title>%s</title>
<style>%s</style>
<script>%s</script>
</head>
<body>
`, scriptHash(), esc(title), style, script)
	if p.o.Runs > 1 {
		p.printf(`<h1>%s</h1>
<nav id="index" hidden><table><thead><tr><th>#</th><th>Run</th><th>Agent</th><th>Project</th><th>Time</th><th>Model</th><th>Cost</th><th>State</th></tr></thead><tbody id="index-rows"></tbody></table></nav>
`, esc(title))
	}
	p.printf(`<div id="search" hidden><input type="search" id="q" placeholder="Filter messages" aria-label="Filter messages"> <span id="qn" class="dim"></span></div>
`)
}

// endRun writes the index line of the run h has just closed, on a page of
// several runs: a table of one row the script moves into the index.
func (p *Page) endRun(h *Writer, e indexEntry) {
	if p.o.Runs <= 1 {
		return
	}
	p.printf(`<table class="index-line"><tbody><tr data-into="index-rows"><td>%d</td><td><a href="#%s">%s</a></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr></tbody></table>`+"\n",
		h.run, h.runID(), esc(cmp.Or(h.o.Title, "agent run")), esc(h.o.Agent), esc(h.cwd), esc(h.o.Time), esc(e.model), esc(e.cost), esc(e.state))
}

// end writes the end of the document, once.
func (p *Page) end() {
	if p.ended {
		return
	}
	p.ended = true
	p.start()
	p.printf("</body>\n</html>\n")
}
