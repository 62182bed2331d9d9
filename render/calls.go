package render

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
)

func (t *Transcript) toolCall(a *agent, e *event.ToolCall) {
	if len(a.held) > 0 {
		// Notices that came before the call (a prompt) show before it.
		t.flushNotices(a)
	}
	c := &call{ev: e, agent: a, view: describeCall(e.Name, e.MCPServer, e.Input)}
	c.head = &piece{agent: a, lines: t.callLines(a, c.view), callID: e.ID}
	if e.ID != "" {
		t.calls[e.ID] = c
	}
	a.pending = append(a.pending, c)
	if t.o.Live {
		if old, out := t.live.Add(c); out {
			if t.calls[old.ev.ID] == old {
				delete(t.calls, old.ev.ID)
			}
			t.letGo(old)
		}
		t.lw.piece(c.head)
		return
	}
	t.waiting++
	t.enqueue(a, &qitem{call: c})
	if t.waiting > MaxOpenCalls {
		// Let go of what waits: written now as the end of the stream
		// would write it, each call's result where it comes.
		t.drainRoots(true)
	}
}

// MaxOpenCalls caps the tool calls the transcript holds waiting for their
// result, and, in the piped (not live) mode, the output it holds behind
// them: past it, what waits is written at once as if the stream ended
// there, and the calls waiting are let go of (a result that comes later is
// written where it comes, under its call's reference line, and a call let
// go of gets no "no result in the stream" line). Reported once, wrapping
// ErrTooManyCalls.
const MaxOpenCalls = 1024

// ErrTooManyCalls is wrapped by the error Event returns the first time the
// transcript lets go of calls waiting for their result (MaxOpenCalls).
var ErrTooManyCalls = errors.New("too many tool calls waiting for their result")

// letGo forgets call c, which waits for its result, and reports it once.
func (t *Transcript) letGo(c *call) {
	if p := c.agent.pending; len(p) > 0 && p[0] == c {
		p[0] = nil
		c.agent.pending = p[1:] // the oldest, as a rule: O(1)
	} else {
		c.agent.pending = slices.DeleteFunc(p, func(x *call) bool { return x == c })
	}
	if !t.capped {
		t.capped = true
		t.forgot = fmt.Errorf("%w: more than %d; let go of the oldest, %s of agent %q, whose result will be written where it comes (later ones are not reported)", ErrTooManyCalls, MaxOpenCalls, cmp.Or(c.ev.ID, c.ev.Name), c.agent.id)
	}
}

func (t *Transcript) toolResult(a *agent, e *event.ToolResult) {
	c := t.calls[e.ID]
	var view callView
	if c != nil {
		view = c.view
		t.live.Remove(c)
		c.agent.pending = slices.DeleteFunc(c.agent.pending, func(x *call) bool { return x == c })
	} else {
		view = callView{title: e.Name}
	}
	p := &piece{agent: a, lines: t.resultLines(a, e), tight: true, result: e.ID, ref: t.refLine(a, view)}
	if e.ID == "" {
		p.result = "\x00" // never adjacent to a call: always show the ref
	}
	if c == nil || c.done || t.o.Live {
		if c != nil {
			c.done = true
			for _, ch := range c.children {
				t.endRun(ch)
			}
			if t.o.Live {
				delete(t.calls, e.ID) // written: nothing more to pair
			}
		}
		t.put(a, p)
		return
	}
	c.result, c.done = p, true
	// The subagents' last text goes under the call, before the result.
	for _, ch := range c.children {
		t.endRun(ch)
	}
	t.drainRoots(false)
}

func (t *Transcript) avail(a *agent, used int) int {
	return max(t.o.Width-2*t.depth(a)-used, 20)
}

// cutWidth cuts a line of the text view to n runes, unless --full.
func (t *Transcript) cutWidth(s string, n int) string {
	if t.o.Full || t.o.Markdown || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n-1]) + "…"
}

func (t *Transcript) callLines(a *agent, v callView) []string {
	if t.o.Markdown {
		head := "**→ " + mdEscape(v.title) + "**"
		if v.summary != "" {
			head += " " + inlineCode(oneLine(v.summary, 1<<20))
		}
		if v.note != "" {
			head += " — " + mdEscape(v.note)
		}
		lines := []string{head}
		if v.command != "" {
			cmd, _ := t.cutN(splitLines(v.command), t.o.MaxOutputLines)
			lines = append(lines, "")
			lines = append(lines, fence("sh", cmd)...)
		}
		if len(v.diff) > 0 {
			d, _ := t.cutN(v.diff, 4*t.o.MaxOutputLines)
			lines = append(lines, "")
			lines = append(lines, fence("diff", d)...)
		}
		if len(v.todos) > 0 {
			lines = append(lines, "")
			lines = append(lines, t.checklist(v.todos)...)
		}
		return lines
	}
	title := "→ " + v.title
	head := t.st.Tool.Sprint(title)
	used := utf8.RuneCountInString(title) + 1
	cmd := splitLines(v.command)
	summary := v.summary
	if len(cmd) == 1 {
		summary, cmd = "$ "+cmd[0], nil
	}
	if summary != "" {
		s := t.cutWidth(sanitize(summary), t.avail(a, used))
		head += " " + s
		used += utf8.RuneCountInString(s) + 1
	}
	if v.note != "" {
		head += t.st.Dim.Sprint(t.cutWidth("  # "+sanitize(v.note), max(t.avail(a, used), 10)))
	}
	lines := []string{head}
	cmd, note := t.cutN(cmd, t.o.MaxOutputLines)
	for i, l := range cmd {
		p := "    "
		if i == 0 {
			p = "  $ "
		}
		if i == note {
			l = t.st.Dim.Sprint(l)
		} else {
			l = sanitize(l)
		}
		lines = append(lines, p+l)
	}
	d, note := t.cutN(v.diff, 4*t.o.MaxOutputLines)
	for i, l := range d {
		l = t.cutWidth(sanitize(l), t.avail(a, 2))
		switch {
		case i == note:
			l = t.st.Dim.Sprint(l)
		case strings.HasPrefix(l, "@@"):
			l = t.st.Dim.Sprint(l)
		case strings.HasPrefix(l, "+"):
			l = t.st.Add.Sprint(l)
		case strings.HasPrefix(l, "-"):
			l = t.st.Del.Sprint(l)
		}
		lines = append(lines, "  "+l)
	}
	for _, l := range t.checklist(v.todos) {
		lines = append(lines, "  "+l)
	}
	return lines
}

// refLine names the call a result belongs to, for a result that does not
// follow its call.
func (t *Transcript) refLine(a *agent, v callView) string {
	summary := v.summary
	if c := splitLines(v.command); len(c) > 0 {
		summary = "$ " + c[0]
	}
	if t.o.Markdown {
		s := "**← " + mdEscape(v.title) + "**"
		if summary != "" {
			s += " " + inlineCode(oneLine(summary, 200))
		}
		return s
	}
	title := "← " + v.title
	s := t.st.Result.Sprint(title)
	if summary != "" {
		s += " " + t.cutWidth(sanitize(summary), t.avail(a, utf8.RuneCountInString(title)+1))
	}
	return s
}

func (t *Transcript) resultLines(a *agent, e *event.ToolResult) []string {
	b := assemble.FromEvent(e)
	// One status, the most telling: the exit code, else the producer's
	// status (declined, ...), else "error".
	var status []string
	if e.ExitCode != nil {
		status = append(status, fmt.Sprintf("exit %d", *e.ExitCode))
	}
	switch e.Status {
	case "", "completed", "success", "succeeded", "ok":
	case "failed":
		if len(status) == 0 && !e.IsError {
			status = append(status, e.Status)
		}
	default:
		status = append(status, e.Status)
	}
	if e.IsError && len(status) == 0 {
		status = append(status, "error")
	}
	failed := e.IsError || (e.ExitCode != nil && *e.ExitCode != 0) || e.Status == "failed"
	var out []string
	if b.Content != nil {
		out = splitLines(strings.ReplaceAll(*b.Content, "\r\n", "\n"))
	}
	out, note := t.cutN(out, t.o.MaxOutputLines)
	var images []string
	for _, img := range b.Images {
		size := "URL " + img.Src
		if n := dataURISize(img.Src); n >= 0 {
			size = byteSize(n)
		}
		images = append(images, fmt.Sprintf("[image: %s, %s]", cmp.Or(img.MediaType, "unknown type"), size))
	}

	if t.o.Markdown {
		head := "⎿ "
		switch {
		case len(status) > 0 && failed:
			head += "**" + strings.Join(status, " · ") + "**"
		case len(status) > 0:
			head += "*" + strings.Join(status, " · ") + "*"
		case len(out) == 0 && len(images) == 0:
			head += "*(no output)*"
		default:
			head += "*output*"
		}
		lines := []string{head}
		if len(out) > 0 {
			lines = append(lines, "")
			lines = append(lines, fence("", out)...)
		}
		for _, im := range images {
			lines = append(lines, "", mdEscape(im))
		}
		return lines
	}
	var lines []string
	if len(status) > 0 {
		st := t.st.Dim
		if failed {
			st = t.st.Error
		}
		lines = append(lines, "  ⎿ "+st.Sprint(strings.Join(status, " · ")))
	}
	for i, l := range out {
		l = t.cutWidth(sanitize(l), t.avail(a, 4))
		switch {
		case i == note:
			l = t.st.Dim.Sprint(l)
		case failed:
			l = t.st.Error.Sprint(l)
		}
		if len(lines) == 0 {
			lines = append(lines, "  ⎿ "+l)
			continue
		}
		lines = append(lines, "    "+l)
	}
	for _, im := range images {
		im = t.st.Dim.Sprint(im)
		if len(lines) == 0 {
			lines = append(lines, "  ⎿ "+im)
			continue
		}
		lines = append(lines, "    "+im)
	}
	if len(lines) == 0 {
		lines = append(lines, "  ⎿ "+t.st.Dim.Sprint("(no output)"))
	}
	return lines
}

// cutN keeps the first and last halves of n lines when there are more,
// with a line saying how many were cut, unless --full. note is the index
// of that line, or -1.
func (t *Transcript) cutN(lines []string, n int) (out []string, note int) {
	if t.o.Full || len(lines) <= n {
		return lines, -1
	}
	head, tail := (n+1)/2, n/2
	msg := fmt.Sprintf("… %d lines cut (--full shows all) …", len(lines)-head-tail)
	out = append(slices.Clip(lines[:head]), msg)
	return append(out, lines[len(lines)-tail:]...), head
}

func (t *Transcript) cut(lines []string) ([]string, int) {
	return t.cutN(lines, t.o.MaxOutputLines)
}

func (t *Transcript) checklist(items []todoView) []string {
	var lines []string
	for _, it := range items {
		text := oneLine(it.text, 1<<20)
		if t.o.Markdown {
			switch it.status {
			case "completed":
				lines = append(lines, "- [x] "+mdEscape(text))
			case "in_progress":
				lines = append(lines, "- [ ] **"+mdEscape(text)+"** (in progress)")
			default:
				lines = append(lines, "- [ ] "+mdEscape(text))
			}
			continue
		}
		switch it.status {
		case "completed":
			lines = append(lines, t.st.Dim.Sprint("[x] "+text))
		case "in_progress":
			lines = append(lines, t.st.Tool.Sprint("[~] "+text))
		default:
			lines = append(lines, "[ ] "+text)
		}
	}
	return lines
}

func (t *Transcript) fileChange(a *agent, e *event.FileChange) {
	head := "± file changes"
	failed := false
	switch e.Status {
	case "", "completed":
	default:
		head += " (" + e.Status + ")"
		failed = e.Status == "failed" || e.Status == "declined"
	}
	var lines []string
	if t.o.Markdown {
		lines = append(lines, "**"+mdEscape(head)+"**", "")
		for _, c := range e.Changes {
			lines = append(lines, "- "+mdEscape(c.Kind)+" "+inlineCode(c.Path))
		}
	} else {
		st := t.st.Tool
		if failed {
			st = t.st.Error
		}
		lines = append(lines, st.Sprint(head))
		for _, c := range e.Changes {
			lines = append(lines, "  "+c.Kind+" "+sanitize(c.Path))
		}
	}
	t.put(a, &piece{lines: lines})
}

// sanitize shows control characters in caret notation (ESC as ^[), so
// that tool output and model text cannot drive the terminal; tabs and
// newlines are kept.
func sanitize(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == 0x7f:
			b.WriteString("^?")
		case isControl(r):
			b.WriteByte('^')
			b.WriteByte(byte(r) + '@')
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func isControl(r rune) bool {
	return (r < 0x20 && r != '\t' && r != '\n') || r == 0x7f
}

// mdEscape escapes the characters that would start Markdown markup.
func mdEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune("\\`*_[]<>#|", r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// inlineCode returns s as a Markdown code span.
func inlineCode(s string) string {
	ticks := strings.Repeat("`", longestRun(s, '`')+1)
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return ticks + s + ticks
}

// fence returns lines as a fenced code block whose fence is longer than
// any backtick run in them.
func fence(lang string, lines []string) []string {
	n := 3
	for _, l := range lines {
		n = max(n, longestRun(l, '`')+1)
	}
	f := strings.Repeat("`", n)
	out := append([]string{f + lang}, lines...)
	return append(out, f)
}

func longestRun(s string, c byte) int {
	best, run := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			run++
			best = max(best, run)
		} else {
			run = 0
		}
	}
	return best
}
