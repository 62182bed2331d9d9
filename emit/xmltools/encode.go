package xmltools

import (
	"bytes"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"io"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/emit/internal/modeltext"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/parse/xmltools"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// Nonce is written in every tag ("abcd1234" or "ai-agent-abcd1234").
	// Empty: the nonce of the first tool call id that has the
	// transport's shape (a stream decoded from this format), else eight
	// hex digits of an FNV-1a hash of the session id or the first call id.
	Nonce string
	// Format is the FINAL report's format attribute when the run end
	// does not carry one ("markdown" if empty).
	Format string
	// Warn receives what the transport cannot carry. Nil discards it.
	Warn func(error)
}

// Encoder writes canonical events as XML tool transport text: tool calls
// in numbered slots, results as XML-PAST entries, the final answer in
// FINAL, progress and meta notices in their slots.
type Encoder struct {
	w      io.Writer
	cfg    Config
	nonce  string
	seed   string                     // what the nonce is hashed from
	next   int                        // last slot number given
	calls  openset.Map[string, *slot] // the calls waiting for their result
	losses modeltext.Losses           // what was warned about, and the agent written
	buf    []byte
	err    error

	last     byte // last byte written, 0 at the start
	tagEnd   int  // len(buf) just after a close tag's layout newline, or -1
	nl       bool // a close tag's layout newline is held until more follows
	thinking bool
	held     []byte          // the last text block, held until we know it is not the final report
	heldText strings.Builder // its text without META tags
	holding  bool            // held is a complete block
	textOpen bool

	body    []byte // scratch: a slot's payload
	closing []byte // scratch: a slot's close tag, but its '>'
}

type slot struct {
	name  string // nonce-0001
	tool  string
	input json.RawMessage
}

// maxCallsLoss is the loss reported once past the cap on calls kept for
// their results.
const maxCallsLoss = "results of tool calls more than 1024 calls before them (written in a slot of their own, without their request)"

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{w: w}
	if cfg != nil {
		e.cfg = *cfg
	}
	e.losses.Format, e.losses.Warn = "xmltools", e.cfg.Warn
	e.nonce = strings.TrimPrefix(e.cfg.Nonce, xmltools.Prefix)
	if e.cfg.Format == "" {
		e.cfg.Format = "markdown"
	}
	return e
}

// maxHeld caps the text block held back for FINAL.
const maxHeld = 1 << 20

func (e *Encoder) warn(what string) { e.losses.Report(what) }

// Encode writes the transport text for ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	if e.losses.OtherAgent(ev) {
		return nil
	}
	e.buf, e.tagEnd = e.buf[:0], -1
	switch ev := ev.(type) {
	case *event.SessionStart:
		if e.seed == "" {
			e.seed = ev.SessionID
		}
		e.warn("session metadata")
	case *event.BlockStart:
		if ev.Kind == event.Thinking {
			e.release()
			e.openThinking()
		} else {
			e.closeThinking()
			e.release()
			e.textOpen = true
		}
	case *event.Delta:
		if ev.Kind == event.Thinking {
			if !e.thinking {
				e.release()
				e.openThinking()
			}
			e.buf = append(e.buf, ev.Text...)
			break
		}
		e.closeThinking()
		if e.holding {
			e.release()
		}
		e.textOpen = true
		e.held = append(e.held, ev.Text...)
		e.heldText.WriteString(ev.Text)
		if len(e.held) > maxHeld {
			e.release()
		}
	case *event.BlockEnd:
		if ev.Kind == event.Thinking {
			e.closeThinking()
			if ev.Signature != "" {
				e.warn("thinking signatures")
			}
		} else {
			e.textOpen = false
			e.holding = len(e.held) > 0
		}
	case *event.ToolCall:
		e.closeThinking()
		e.release()
		e.call(ev)
	case *event.ToolResult:
		e.closeThinking()
		e.release()
		e.result(ev)
	case *event.RunEnd:
		e.final(ev)
	case *event.Notice:
		switch ev.Kind {
		case "meta":
			if e.textOpen || e.holding {
				// inside what may be FINAL's report: keep it there
				e.held = append(e.held, e.metaTag(ev)...)
				break
			}
			e.closeThinking()
			e.newline()
			e.buf = append(e.buf, e.metaTag(ev)...)
			e.buf = append(e.buf, '\n')
			e.tagEnd = len(e.buf)
		case "progress":
			e.closeThinking()
			e.release()
			e.notice(ev)
		default:
			e.warn("notices")
		}
	case *event.AwaitingTools:
	default:
		e.losses.Unwritten(ev)
	}
	return e.flush()
}

// flush writes buf. The newline after a close tag is layout (the decoder
// drops one): when buf ends with one it is held, and written only when
// more follows, so that a stream that ended at a close tag ends there
// again.
func (e *Encoder) flush() error {
	if len(e.buf) == 0 {
		return e.err
	}
	e.last = e.buf[len(e.buf)-1]
	if e.nl {
		if _, e.err = e.w.Write([]byte{'\n'}); e.err != nil {
			return e.err
		}
		e.nl = false
	}
	out := e.buf
	if e.tagEnd == len(e.buf) {
		out, e.nl = out[:len(out)-1], true
	}
	_, e.err = e.w.Write(out)
	return e.err
}

// release writes the held text block.
func (e *Encoder) release() {
	e.buf = append(e.buf, e.held...)
	e.held, e.holding = e.held[:0], false
	e.heldText.Reset()
}

func (e *Encoder) openThinking() {
	if !e.thinking {
		e.buf = append(e.buf, "<think>"...)
		e.thinking = true
	}
}

func (e *Encoder) closeThinking() {
	if e.thinking {
		e.buf = append(e.buf, "</think>\n"...)
		e.thinking = false
	}
}

// nonceFor fixes the nonce at the first tag.
func (e *Encoder) nonceFor(id string) string {
	if e.nonce == "" {
		if n, _, ok := strings.Cut(id, "-"); ok && len(n) == 8 && isHex(n) {
			e.nonce = n
		} else {
			seed := e.seed
			if seed == "" {
				seed = id
			}
			h := fnv.New32a()
			h.Write([]byte(seed))
			e.nonce = fmt.Sprintf("%08x", h.Sum32())
		}
	}
	return e.nonce
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f') {
			return false
		}
	}
	return true
}

// slotFor returns the slot of a call id: the id's own number when the id
// is a slot of this nonce, else the next number.
func (e *Encoder) slotFor(id string) string {
	nonce := e.nonceFor(id)
	if rest, ok := strings.CutPrefix(id, nonce+"-"); ok && len(rest) >= 4 {
		if n, err := strconv.Atoi(rest); err == nil && n > 0 {
			e.next = max(e.next, n)
			return id
		}
	}
	e.next++
	return fmt.Sprintf("%s-%04d", nonce, e.next)
}

func (e *Encoder) call(c *event.ToolCall) {
	s := &slot{name: e.slotFor(c.ID), tool: c.Name, input: c.Input}
	if _, out := e.calls.Put(c.ID, s); out {
		// The oldest call's result, if it ever comes, gets a slot of
		// its own and no request.
		e.warn(maxCallsLoss)
	}
	if strings.ContainsAny(c.Name, "\"<>&") {
		e.warn("tool names that cannot be an attribute value")
	}
	if c.Server || c.MCPServer != "" {
		e.warn("server and MCP tool markers")
	}
	in := bytes.TrimSpace(c.Input)
	if len(in) == 0 {
		in = []byte("{}")
	}
	e.tag(s.name, in, `tool="`, c.Name, `"`)
}

// tag writes the slot name holding payload, its attributes the
// concatenation of attrs.
func (e *Encoder) tag(name string, payload []byte, attrs ...string) {
	e.closing = append(append(append(e.closing[:0], "</"...), xmltools.Prefix...), name...)
	if bytes.Contains(payload, e.closing) {
		e.warn("payloads holding their own close tag")
	}
	e.newline()
	e.buf = append(e.buf, '<')
	e.buf = append(e.buf, xmltools.Prefix...)
	e.buf = append(e.buf, name...)
	e.buf = append(e.buf, ' ')
	for _, a := range attrs {
		e.buf = append(e.buf, a...)
	}
	e.buf = append(e.buf, '>')
	e.buf = append(e.buf, payload...)
	e.buf = append(e.buf, e.closing...)
	e.buf = append(e.buf, ">\n"...)
	e.tagEnd = len(e.buf)
}

// newline puts a tag at the start of a line.
func (e *Encoder) newline() {
	last := e.last
	if n := len(e.buf); n > 0 {
		last = e.buf[n-1]
	}
	if last != 0 && last != '\n' {
		e.buf = append(e.buf, '\n')
	}
}

// result writes an XML-PAST entry.
func (e *Encoder) result(r *event.ToolResult) {
	s, _ := e.calls.Get(r.ID)
	if s == nil {
		s = &slot{name: e.slotFor(r.ID), tool: r.Name}
	}
	status := "ok"
	if r.IsError {
		status = "failed"
	}
	b := append(e.body[:0], '\n')
	if s.input != nil {
		b = append(b, "<request>\n"...)
		b = append(b, bytes.TrimSpace(s.input)...)
		b = append(b, "\n</request>\n"...)
	}
	b = append(b, "<response>\n"...)
	resp := len(b)
	for _, p := range r.Content {
		if p.Type != "text" {
			e.warn("tool result images")
			continue
		}
		if len(b) > resp {
			b = append(b, '\n')
		}
		b = append(b, p.Text...)
	}
	b = append(b, "\n</response>\n"...)
	e.body = b
	if len(r.Structured) > 0 || r.ExitCode != nil {
		e.warn("structured tool output and exit codes")
	}
	e.tag(s.name, b, `tool="`, s.tool, `" status="`, status, `"`)
}

// final writes the run's result in FINAL. A text block just before it
// that holds the same answer becomes FINAL's content.
func (e *Encoder) final(r *event.RunEnd) {
	if r.Result == "" {
		e.release()
		return
	}
	status, format := "", e.cfg.Format
	ours := r.MetaKind == "xmltools"
	if ours {
		// The FINAL tag as read: its status only when it had one.
		var m struct{ Status, Format, Slot string }
		_ = json.Unmarshal(r.Meta, &m)
		e.nonceFor(m.Slot)
		status = m.Status
		if m.Format != "" {
			format = m.Format
		}
	} else {
		switch r.StopReason {
		case "success", "failure", "partial":
			status = r.StopReason
		default:
			status = "success"
			if r.IsError {
				status = "failure"
			}
		}
	}
	content := append(append(append(e.body[:0], '\n'), r.Result...), '\n')
	e.closeThinking()
	if e.holding && strings.TrimSpace(e.heldText.String()) == strings.TrimSpace(r.Result) {
		content = append(e.body[:0], e.held...)
		e.held, e.holding = e.held[:0], false
		e.heldText.Reset()
	}
	e.body = content
	e.release()
	if r.Usage != nil || r.CostUSD != nil || len(r.Errors) > 0 {
		e.warn("run statistics and errors")
	}
	name := e.nonceFor("") + "-FINAL"
	if ours && status != "" || !ours && status != "success" {
		e.tag(name, content, `status="`, status, `" format="`, format, `"`)
		return
	}
	e.tag(name, content, `format="`, format, `"`)
}

func (e *Encoder) notice(n *event.Notice) {
	if n.Kind == "progress" {
		payload := string(n.Raw)
		var s string
		if json.Unmarshal(n.Raw, &s) == nil {
			payload = s
		}
		if payload == "" {
			payload = n.Message
		}
		e.body = append(e.body[:0], payload...)
		e.tag(e.nonceFor("")+"-PROGRESS", e.body, `tool="`, xmltools.ProgressReport, `"`)
	}
}

// metaTag returns a META slot holding a meta notice.
func (e *Encoder) metaTag(n *event.Notice) string {
	name := xmltools.Prefix + e.nonceFor("") + "-META"
	return "<" + name + ` plugin="` + n.Message + `">` + string(n.Raw) + "</" + name + ">"
}

// Close writes the held text and reports a block left open.
// Cut ends a stream whose input was cut off (event.Cutter): as Close,
// which writes no end marker, reporting the cut.
func (e *Encoder) Cut() error {
	if err := e.Close(); err != nil {
		return err
	}
	return fmt.Errorf("xmltools: %w: the input was cut off", event.ErrTruncated)
}

func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	e.buf, e.tagEnd = e.buf[:0], -1
	open := e.thinking || e.textOpen
	e.closeThinking()
	e.release()
	if e.flush() != nil {
		return e.err
	}
	if open {
		return fmt.Errorf("xmltools: %w: block left open", event.ErrTruncated)
	}
	return nil
}
