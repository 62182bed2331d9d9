package render

import (
	"io"
	"strings"
	"unicode/utf8"

	"github.com/fatih/color"
)

// piece is one rendered block of the transcript: complete lines (no
// trailing newline), each styled on its own so a gutter can go in front.
type piece struct {
	agent *agent
	lines []string
	// tight: no blank line between this piece and the one before it when
	// both belong to the same agent (a result under its call, footnotes
	// under their text).
	tight bool
	// callID is set on a tool call's header; result pieces name the call
	// they belong to in result, and carry ref, a line naming the call, to
	// print first when the call is not the piece just written.
	callID string
	result string
	ref    string
}

// lineWriter writes pieces and streamed text, each line behind the gutter
// of its agent's nesting depth, with a label line whenever the agent
// changes to a subagent (or another top-level agent). It is the only
// thing that writes to the output.
type lineWriter struct {
	w   io.Writer
	md  bool
	st  *Styles
	err error

	show  func(*agent) bool
	depth func(*agent) int
	main  func(*agent) bool

	wrote    bool   // anything written yet
	last     *agent // agent of the last write
	lastCall string // the call whose header was written last, if nothing came after it

	// The streamed block owning the current line, if a line is open.
	lineOwner any
	col       int  // bytes written on the open line after its gutter
	pendingNL int  // newlines of the open stream not written yet
	fresh     bool // the open stream has written no text yet
	contPref  string
	contStyle *color.Color
}

// write writes s, made valid UTF-8 and, for Markdown, without CR: decoders keep event text valid, but
// raw bytes (an Unknown event's line, a tool input kept verbatim) may not
// be. Every write holds whole characters (deltas never split one), so
// each is made valid on its own.
func (lw *lineWriter) write(s string) {
	if lw.err != nil || s == "" {
		return
	}
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\uFFFD")
	}
	if lw.md && strings.Contains(s, "\r") {
		// A CR means nothing in Markdown (CRLF line ends become LF): no
		// raw CR is written. The terminal view shows it as ^M instead.
		s = strings.ReplaceAll(s, "\r", "")
	}
	_, lw.err = io.WriteString(lw.w, s)
	lw.wrote = true
}

// gutter returns the prefix of a line of agent a; blank is for empty lines.
func (lw *lineWriter) gutter(a *agent, blank bool) string {
	return lw.gutterAt(lw.depth(a), blank)
}

func (lw *lineWriter) gutterAt(d int, blank bool) string {
	if d <= 0 {
		return ""
	}
	if lw.md {
		g := strings.Repeat("> ", d)
		if blank {
			g = strings.TrimRight(g, " ")
		}
		return g
	}
	g := strings.Repeat("│ ", d)
	if blank {
		g = strings.TrimRight(g, " ")
	}
	return lw.st.Dim.Sprint(g)
}

// breakLine ends an open streamed line.
// The newlines a streamed block ends with so far are held back
// (pendingNL): written when more text follows, dropped when the block ends,
// so that a block's trailing blank lines do not add to the blank line
// between pieces (piped mode trims them too).
func (lw *lineWriter) breakLine() {
	if lw.lineOwner != nil && lw.col > 0 {
		lw.write("\n")
	}
	lw.col, lw.pendingNL = 0, 0
}

// flushNL writes the held newlines of the open stream of agent a; those a
// block starts with are dropped (piped mode trims them too).
func (lw *lineWriter) flushNL(a *agent) {
	if lw.fresh {
		lw.pendingNL, lw.fresh = 0, false
	}
	for ; lw.pendingNL > 0; lw.pendingNL-- {
		if lw.col == 0 {
			if p := strings.TrimRight(lw.contPref, " "); p != "" {
				lw.write(lw.gutter(a, false) + lw.st.Dim.Sprint(p))
			} else {
				lw.write(lw.gutter(a, true))
			}
		}
		lw.write("\n")
		lw.col = 0
	}
}

// enter prepares for output of agent a: ends another agent's open line,
// writes a label when the agent changes, and a blank line between pieces
// unless tight.
func (lw *lineWriter) enter(a *agent, owner any, tight bool) {
	if owner == nil || owner != lw.lineOwner {
		lw.breakLine()
	}
	if a != lw.last {
		prev := lw.last
		lw.last = a
		if label := lw.label(a, prev); label != "" {
			if lw.wrote {
				lw.write(lw.gutterAt(lw.depth(a)-1, true) + "\n")
			}
			lw.write(label + "\n")
			return
		}
		tight = false
	}
	if lw.wrote && !tight {
		lw.write(lw.gutter(a, true) + "\n")
	}
}

// label returns the line announcing agent a after prev, or "".
func (lw *lineWriter) label(a, prev *agent) string {
	d := lw.depth(a)
	if d == 0 && (lw.main(a) || prev == nil) {
		return ""
	}
	text := "▸ " + a.label()
	if d == 0 {
		text = "── " + a.label()
	}
	if lw.md {
		return strings.Repeat("> ", max(d-1, 0)) + "**" + mdEscape(text) + "**"
	}
	g := ""
	if d > 1 {
		g = lw.st.Dim.Sprint(strings.Repeat("│ ", d-1))
	}
	return g + lw.st.Agent.Sprint(text)
}

// piece writes a whole rendered piece.
func (lw *lineWriter) piece(p *piece) {
	if !lw.show(p.agent) {
		return
	}
	lines, tight := p.lines, p.tight && lw.last == p.agent && !lw.md
	if p.result != "" && p.result != lw.lastCall && p.ref != "" {
		ref := []string{p.ref}
		if lw.md {
			ref = append(ref, "")
		}
		lines, tight = append(ref, lines...), false
	}
	lw.enter(p.agent, nil, tight)
	lw.lineOwner = nil
	for _, l := range lines {
		lw.write(lw.gutter(p.agent, l == "") + l + "\n")
	}
	lw.lastCall = p.callID
}

// streamStart opens a streamed block of agent a: header lines, then text
// whose lines start with pref in style st.
func (lw *lineWriter) streamStart(owner any, a *agent, header []string, pref string, st *color.Color) {
	if !lw.show(a) {
		return
	}
	lw.enter(a, nil, false)
	for _, l := range header {
		lw.write(lw.gutter(a, l == "") + l + "\n")
	}
	lw.lineOwner, lw.col, lw.contPref, lw.contStyle = owner, 0, pref, st
	lw.pendingNL, lw.fresh = 0, true
	lw.lastCall = ""
}

// streamText writes text of the block streamed by a as it arrives.
func (lw *lineWriter) streamText(owner any, a *agent, s string, pref string, st *color.Color) {
	if !lw.show(a) || s == "" {
		return
	}
	if lw.lineOwner != owner {
		// Something else was written in between: carry on, on a line
		// of our own.
		lw.enter(a, nil, true)
		lw.lineOwner, lw.col, lw.contPref, lw.contStyle = owner, 0, pref, st
	}
	for s != "" {
		line, rest, nl := strings.Cut(s, "\n")
		if line != "" {
			lw.flushNL(a)
			if lw.col == 0 {
				lw.write(lw.gutter(a, false) + styled(lw.st.Dim, lw.contPref))
			}
			lw.write(styled(lw.contStyle, line))
			lw.col += len(line)
		}
		if nl {
			lw.pendingNL++
		}
		s = rest
	}
	lw.lastCall = ""
}

// streamEnd closes the block streamed by a; trailer lines follow it.
// inline is written at the end of the block's last line when that line
// is still open, else as a line of its own.
func (lw *lineWriter) streamEnd(owner any, a *agent, inline string, trailer []string) {
	if !lw.show(a) {
		return
	}
	if inline != "" {
		if lw.lineOwner == owner && lw.col > 0 {
			lw.write(" " + inline)
		} else {
			trailer = append([]string{inline}, trailer...)
		}
	}
	if lw.lineOwner == owner {
		lw.breakLine()
		lw.lineOwner = nil
	}
	if len(trailer) > 0 {
		lw.enter(a, nil, !lw.md)
		for _, l := range trailer {
			lw.write(lw.gutter(a, l == "") + l + "\n")
		}
	}
	lw.lastCall = ""
}

func styled(c *color.Color, s string) string {
	if c == nil || s == "" {
		return s
	}
	return c.Sprint(s)
}
