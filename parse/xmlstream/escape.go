package xmlstream

import (
	"bytes"
	"encoding/json"
)

// escaper undoes the producer's per-message escaping, detecting its
// generation unless one is forced.
type escaper struct {
	gen    escaping // the generation in use
	forced bool
	sure   bool // auto: strong evidence decided gen

	oldMeta bool // a meta_init without parent_agent_uuid was seen
	notFull bool // evidence against the current generation
	doubt   bool // JSON read as full could have been meant otherwise
	warned  bool // the doubt was reported
	last    msgClass
	buf     []byte // the last unescaped message, reused
}

// msgClass is a message's origin in the producer, which decides its
// escaping.
type msgClass int

const (
	clsFormatter  msgClass = iota // formatters.py: tags, deltas, citations
	clsJSON                       // formatter chunks whose payload is JSON: tool calls, server results, errors
	clsToolResult                 // agent.py tool results: only LF escaped
	clsAgent                      // agent.py meta_init, meta_final, awaiting_frontend_tools, meta_files: not escaped
)

func classOf(data []byte) msgClass {
	switch {
	case bytes.HasPrefix(data, []byte("<"+TagToolResult)):
		return clsToolResult
	case bytes.HasPrefix(data, []byte("<"+TagMetaInit)), bytes.HasPrefix(data, []byte("<"+TagMetaFinal)),
		bytes.HasPrefix(data, []byte("<"+TagAwaitingTools)), bytes.HasPrefix(data, []byte("<"+TagMetaFiles)):
		return clsAgent
	case bytes.HasPrefix(data, []byte("<"+TagToolCall)), bytes.HasPrefix(data, []byte("<"+TagServerToolCall)),
		bytes.HasPrefix(data, []byte("<"+TagServerToolResult)), bytes.HasPrefix(data, []byte("<"+TagError)):
		return clsJSON
	}
	return clsFormatter
}

// unescape returns m's data as XML. Continuations of broken framing
// belong to the message they continue; a message that arrives inside a
// text or thinking block is a delta, whatever it starts with.
func (e *escaper) unescape(m message, inText bool) []byte {
	cls := e.last
	if !m.cont {
		cls = clsFormatter
		if !inText {
			cls = classOf(m.data)
		}
		e.last = cls
	}
	if !e.forced && !e.sure {
		e.detect(m, cls)
	}
	if m.cont || bytes.IndexByte(m.data, '\\') < 0 {
		return m.data
	}
	if !e.forced && !e.sure && e.gen == escFull && cls == clsJSON {
		full := e.full(m.data)
		if e.checkJSON(m.data, full) {
			return full
		}
		return m.data // an older generation: JSON chunks are left as they are
	}
	switch e.gen {
	case escFull:
		switch cls {
		case clsFormatter, clsJSON:
			return e.full(m.data)
		case clsToolResult:
			return e.newline(m.data)
		}
	case escNewline:
		// This generation escaped LF only, and wrote tool results raw.
		// JSON payloads never hold a raw LF, so their \n is JSON's own.
		if cls == clsFormatter {
			return e.newline(m.data)
		}
	}
	return m.data
}

// text is unescape(m, true) for a message m (data b) of the open block
// once the generation is known (sure or forced), as textDelta has it:
// without unescape's tests of what such a message is not.
func (e *escaper) text(b []byte) []byte {
	e.last = clsFormatter
	if bytes.IndexByte(b, '\\') < 0 {
		return b
	}
	switch e.gen {
	case escFull:
		return e.full(b)
	case escNewline:
		return e.newline(b)
	}
	return b
}

// detect updates the generation from what m shows. Only messages with a
// backslash decode differently across generations, so a late decision
// costs nothing before the first of them.
func (e *escaper) detect(m message, cls msgClass) {
	if e.sure {
		return
	}
	switch {
	case m.cont && cls == clsToolResult:
		e.notFull = true // raw newlines in a tool result: none or newline
	case m.cont:
		e.gen, e.sure = escNone, true
		return
	case cls == clsAgent && bytes.HasPrefix(m.data, []byte("<"+TagMetaInit)):
		if bytes.Contains(m.data, []byte("parent_agent_uuid")) {
			e.gen, e.sure = escFull, true
			return
		}
		e.oldMeta = true
	case cls == clsFormatter || cls == clsJSON:
		if badEscape(m.data) {
			e.notFull = true
		}
	}
	e.decide()
}

// decide sets the generation from the evidence so far.
func (e *escaper) decide() {
	switch {
	case !e.notFull:
		e.gen = escFull
	case e.oldMeta:
		e.gen = escNewline // the second generation wrote a meta_init, the first none
	default:
		e.gen = escNone
	}
}

// checkJSON weighs the JSON of a tool call, server result or error message
// (its arguments attribute or its CDATA) under the full generation and
// under the older ones, which leave it as it is: a generation that makes
// the stream's own JSON unparsable is not the stream's. It reports whether
// full stands. When both read as JSON but differently in a stream whose
// meta_init is of the older kind, nothing tells them apart yet: full is
// kept and the doubt noted, to be reported once.
func (e *escaper) checkJSON(raw, full []byte) bool {
	rawJSON, ok := payloadJSON(raw)
	if !ok {
		return true
	}
	fullJSON, _ := payloadJSON(full)
	fullOK, rawOK := json.Valid(fullJSON), json.Valid(rawJSON)
	switch {
	case !fullOK && rawOK:
		e.notFull = true
		e.decide()
		return false
	case fullOK && rawOK && !bytes.Equal(fullJSON, rawJSON) && e.oldMeta:
		// An old meta_init: the second generation is as likely.
		e.doubt = true
	}
	return true
}

// payloadJSON returns the JSON a tool call, server result or error message
// carries: the arguments attribute, entity-decoded, or the CDATA body.
func payloadJSON(data []byte) ([]byte, bool) {
	if bytes.HasPrefix(data, []byte("<"+TagToolCall)) || bytes.HasPrefix(data, []byte("<"+TagServerToolCall)) {
		var sc tagScan
		t, _, m := scanTag(data, true, len(data), &sc)
		if m != yes {
			return nil, false
		}
		v, ok := t.attr("arguments")
		return []byte(v), ok && v != ""
	}
	start := bytes.Index(data, []byte("<![CDATA["))
	end := bytes.LastIndex(data, []byte("]]>"))
	if start < 0 || end < start+len("<![CDATA[") {
		return nil, false
	}
	return data[start+len("<![CDATA[") : end], true
}

// badEscape reports a backslash the full generation cannot have written:
// one not followed by a backslash, n or r.
func badEscape(b []byte) bool {
	for i := bytes.IndexByte(b, '\\'); i >= 0; {
		if i+1 >= len(b) {
			return true
		}
		switch b[i+1] {
		case '\\', 'n', 'r':
		default:
			return true
		}
		j := bytes.IndexByte(b[i+2:], '\\')
		if j < 0 {
			return false
		}
		i += 2 + j
	}
	return false
}

// unescapeFull is the exact inverse of the current producer's formatter
// escaping: one left-to-right scan turning \\ into \ and \n into LF. \r
// becomes CR too (agentstream's encoder writes CR so; the producer never
// writes a single backslash before r). Any other \x stays.
// It appends to out.
func unescapeFull(out, b []byte) []byte {
	for {
		i := bytes.IndexByte(b, '\\')
		if i < 0 || i+1 == len(b) {
			return append(out, b...)
		}
		out = append(out, b[:i]...)
		switch b[i+1] {
		case '\\':
			out = append(out, '\\')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		default:
			// Not an escape: the backslash is itself, and what follows
			// it is read on its own (it may start an escape).
			out = append(out, '\\')
			b = b[i+1:]
			continue
		}
		b = b[i+2:]
	}
}

// unescapeNewline turns \n into LF (the tool result escaping, and the
// second generation's), appending to out.
func unescapeNewline(out, b []byte) []byte {
	for {
		i := bytes.Index(b, []byte(`\n`))
		if i < 0 {
			return append(out, b...)
		}
		out = append(append(out, b[:i]...), '\n')
		b = b[i+2:]
	}
}

// full and newline unescape b into e.buf, valid until the next call:
// the caller copies what it keeps.
func (e *escaper) full(b []byte) []byte {
	e.buf = unescapeFull(e.reuse(), b)
	return e.buf
}

func (e *escaper) newline(b []byte) []byte {
	e.buf = unescapeNewline(e.reuse(), b)
	return e.buf
}

func (e *escaper) reuse() []byte {
	if cap(e.buf) > keepBuffer {
		return nil // a large message's buffer is not held for the rest of the input
	}
	return e.buf[:0]
}

// keepBuffer is the largest scratch buffer kept between messages.
const keepBuffer = 1 << 20
