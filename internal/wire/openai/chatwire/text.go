package chatwire

import "github.com/agentstream/agentstream/internal/jsontext"

// Most chunks of a completion differ from the one before only in one
// string: the text of their one choice's delta (content, reasoning,
// refusal) or the arguments of its one tool call. The choices of such a
// chunk are read as a template, the text around that string, learnt
// from a chunk decoded the general way, and the string.

// textTemplates is how many templates a Reader keeps: a stream's
// producers write a few (its text, its reasoning, its tool calls'
// arguments, compact or with white space), which alternate.
const textTemplates = 8

// maxTemplate bounds the text of a template (its head and tail): the
// choices of a chunk around its string are a hundred bytes or so, and
// the templates a Reader keeps stay small whatever the chunks.
const maxTemplate = 1 << 10

// textTemplate is the text of a chunk's choices (and what follows them)
// around the one string it holds, and what that string is.
type textTemplate struct {
	head, tail []byte // the text before and after the string
	kind       textKind
	index      int // the choice's index
	tool       int // the tool call's index (kind toolArgs)
}

// textKind is the field of a choice whose value a template's string is.
type textKind int

const (
	noText textKind = iota
	contentText
	refusalText
	reasoningContentText
	reasoningText
	toolArgs
)

// textOf returns the field of ch that is its one string, with the
// string and the index of its tool call, or noText when ch is not a
// choice of one string: that string set and nothing else but its index
// (the tool call's index too).
func textOf(ch *Choice) (kind textKind, text string, tool int) {
	d := &ch.Delta
	if ch.Logprobs != nil || ch.FinishReason != nil || d.Role != "" {
		return noText, "", 0
	}
	strs := []*string{contentText: d.Content, refusalText: d.Refusal, reasoningContentText: d.ReasoningContent, reasoningText: d.Reasoning}
	for k, s := range strs {
		if s == nil {
			continue
		}
		if kind != noText {
			return noText, "", 0
		}
		kind, text = textKind(k), *s
	}
	switch {
	case d.ToolCalls == nil:
	case kind != noText || len(d.ToolCalls) != 1:
		return noText, "", 0
	default:
		tc := &d.ToolCalls[0]
		if tc.ID != "" || tc.Type != "" || tc.Function.Name != "" {
			return noText, "", 0
		}
		kind, text, tool = toolArgs, tc.Function.Arguments, tc.Index
	}
	return kind, text, tool
}

// sameText decodes rest, what follows a chunk's "choices":, when it is
// the text of one of the templates around a string: into the choice the
// template's chunk decoded to, with that string. It reports whether it
// did.
//
// Exact: the same text around a string parses the same, so that the
// string is the value of the same field (learnText checked which).
func (cr *Reader) sameText(rest []byte, c *Chunk) bool {
	for i := range cr.texts {
		t := &cr.texts[i]
		end := len(rest) - len(t.tail)
		if t.kind == noText || end < len(t.head) || !hasPrefix(rest, t.head) || string(rest[end:]) != string(t.tail) {
			continue
		}
		r := &cr.jr
		r.Reset(rest[:end])
		r.Rewind(len(t.head), 0)
		s := r.String()
		if r.Failed() || r.Offset() != end {
			continue
		}
		t.set(c, s)
		return true
	}
	return false
}

// set makes c's choices the template's choice with string s.
func (t *textTemplate) set(c *Chunk, s string) {
	cs := jsontext.Extend(c.choices[:0])
	ch := &cs[0]
	ResetChoice(ch)
	ch.Index = t.index
	d := &ch.Delta
	switch t.kind {
	case contentText:
		*jsontext.EnsureIn(&d.Content, &d.content) = s
	case refusalText:
		*jsontext.EnsureIn(&d.Refusal, &d.refusal) = s
	case reasoningContentText:
		*jsontext.EnsureIn(&d.ReasoningContent, &d.reasoningContent) = s
	case reasoningText:
		*jsontext.EnsureIn(&d.Reasoning, &d.reasoning) = s
	case toolArgs:
		tcs := jsontext.Extend(d.toolCalls[:0])
		tcs[0] = ToolCallDelta{Index: t.tool, Function: Function{Arguments: s}}
		d.toolCalls = tcs
		d.ToolCalls = tcs[:1:1]
	}
	c.choices = cs
	c.Choices = cs[:1:1]
}

// learnText makes a template of rest, what follows the "choices": of a
// chunk decoded into c the general way, when its one choice is one
// string (textOf) and it has no usage: the text around the last string
// value in rest, checked to be that choice's string by decoding it with
// "" for the string. It replaces the older template.
func (cr *Reader) learnText(rest []byte, c *Chunk) {
	if len(c.Choices) != 1 || c.Usage != nil {
		return
	}
	ch := &c.Choices[0]
	kind, text, tool := textOf(ch)
	if kind == noText || text == "" { // "" is the probe's string
		return
	}
	r := &cr.jr
	r.Reset(rest)
	r.Rewind(0, 1)
	start, end := lastString(r)
	if start < 0 || r.Failed() || start+len(rest)-end > maxTemplate {
		return
	}
	cr.probe = append(append(append(cr.probe[:0], rest[:start]...), `""`...), rest[end:]...)
	p := &cr.pc
	ResetChunk(p)
	r.Reset(cr.probe)
	r.Rewind(0, 1)
	if !readRest(r, p) || len(p.Choices) != 1 || p.Usage != nil || p.Choices[0].Index != ch.Index {
		return
	}
	if pkind, ptext, ptool := textOf(&p.Choices[0]); pkind != kind || ptext != "" || ptool != tool {
		return // the string was not the choice's
	}
	t := &cr.texts[cr.older]
	cr.older = (cr.older + 1) % len(cr.texts)
	t.head = append(t.head[:0], rest[:start]...)
	t.tail = append(t.tail[:0], rest[end:]...)
	t.kind, t.index, t.tool = kind, ch.Index, tool
}

// lastString reads the value r is at and returns the offsets of the
// last string value in it (keys are not values), or -1 for none.
func lastString(r *jsontext.Reader) (start, end int) {
	start, end = -1, -1
	switch r.Peek() {
	case '"':
		start = r.Offset()
		r.Skip()
		end = r.Offset()
	case '{':
		r.Object()
		for _, ok := r.Key(); ok; _, ok = r.Key() {
			if s, e := lastString(r); s >= 0 {
				start, end = s, e
			}
		}
	case '[':
		r.Array()
		for r.More() {
			if s, e := lastString(r); s >= 0 {
				start, end = s, e
			}
		}
	default:
		r.Skip()
	}
	return start, end
}
