package openaichat

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	wire "github.com/agentstream/agentstream/internal/openai/chatwire"
	"github.com/agentstream/agentstream/internal/openset"

	"github.com/agentstream/agentstream/internal/openai"
)

// Rule ids of the format's own validate rules.
const (
	ruleOrder = "OAC001"
	ruleIndex = "OAC002"
	ruleDone  = "OAC003"
	ruleID    = "OAC004"
)

// rules returns the format's validate rules, in report order.
func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleOrder, Name: "chunk-order", Doc: "a choice has no chunk after its finish_reason, and the usage chunk comes after every choice's finish_reason"},
		{ID: ruleIndex, Name: "tool-call-index", Doc: "a choice's tool call indexes start at 0 and each new one is the next; its first delta carries the id, type function and the name"},
		{ID: ruleDone, Name: "done", Doc: "each completion ends with data: [DONE] (or an error object), and [DONE] follows a completion"},
		{ID: ruleID, Name: "chunk-id", Doc: "every chunk is a chat.completion.chunk and the chunks of a completion share its id"},
	}
}

// check checks a Chat Completions body against rules. Chunks that are
// not JSON are skipped (the decoder reports them). Each message's data is
// the framer's, borrowed until the next: the chunk reader keeps the one
// copy of it the rules read (a large chunk's choices one at a time).
func check(r io.Reader, c *format.CheckConfig, rep format.Reporter) {
	var k checkState
	openai.Messages(r, c, func(m frame.RawMessage) { k.message(m, rep) })
	if k.open {
		rep.Report(ruleDone, k.line, 1, "the body ends without data: [DONE]")
	}
}

type checkState struct {
	open    bool // a completion has begun and no [DONE] has followed
	line    int
	id      string
	choices openset.Map[int, *choiceCheck]
	capped  bool // a choice of this completion was let go of
	usage   bool
	// finished says a choice of the completion has its finish_reason.
	finished bool

	cr    wire.Reader // reads each chunk in one pass, a large one's choices one at a time
	chunk wire.Chunk
	one   wire.Choice
}

// choiceCheck is what the rules keep of one choice of the completion
// being checked: at most openset.DefaultMax of them (checkState.choices).
type choiceCheck struct {
	finished bool
	tools    int  // tool call indexes seen
	again    bool // first seen after one was let go of: it may be one
}

// choice returns the state of choice i. Beyond openset.DefaultMax
// choices the oldest is let go of, reported once (later chunks of it are
// checked as a new choice's: what it did before is forgotten).
func (k *checkState) choice(i, line int, rep format.Reporter) *choiceCheck {
	if c, _ := k.choices.Get(i); c != nil {
		return c
	}
	c := &choiceCheck{again: k.capped}
	if old, out := k.choices.Put(i, c); out {
		if !k.capped {
			rep.Report(ruleOrder, line, 1, fmt.Sprintf("more than %d choices in completion %s; forgot the oldest, choice %d: its order and tool call indexes are no longer checked (later ones are not reported)", k.choices.Max(), quote(k.id), old))
		}
		k.capped, c.again = true, true
	}
	return c
}

// reset forgets the choices of the completion that ended.
func (k *checkState) reset() {
	k.choices.Clear()
	k.capped, k.usage, k.finished = false, false, false
}

func (k *checkState) message(m frame.RawMessage, rep format.Reporter) {
	data := bytes.TrimSpace(m.Data)
	if len(data) == 0 {
		return
	}
	k.line = m.Line
	if string(data) == wire.Done {
		if !k.open {
			rep.Report(ruleDone, m.Line, 1, "[DONE] without a completion before it")
		}
		k.open, k.id = false, ""
		k.reset()
		return
	}
	c := &k.chunk
	if k.cr.Decode(data, c) != nil {
		return
	}
	if c.Error != nil {
		// An error object ends the completion it interrupts.
		k.open = false
		return
	}
	if c.Object != wire.ObjectChunk {
		rep.Report(ruleID, m.Line, 1, "object is "+quote(c.Object)+", not chat.completion.chunk")
	}
	if k.open && c.ID != k.id {
		rep.Report(ruleDone, m.Line, 1, "completion "+quote(c.ID)+" begins before [DONE] ended completion "+quote(k.id))
		k.reset()
	}
	if !k.open || c.ID != k.id {
		k.open, k.id = true, c.ID
		k.reset()
	}
	for i := range c.Choices {
		k.checkChoice(&c.Choices[i], m.Line, rep)
	}
	if c.Lazy() > 0 {
		for k.cr.NextChoice(&k.one) {
			k.checkChoice(&k.one, m.Line, rep)
		}
		k.one = wire.Choice{}
	}
	if c.Usage != nil && len(c.Choices) == 0 && c.Lazy() == 0 {
		if !k.finished {
			rep.Report(ruleOrder, m.Line, 1, "usage chunk before the finish_reason chunk")
		}
		k.usage = true
	}
}

// checkChoice checks one choice of a chunk.
func (k *checkState) checkChoice(ch *wire.Choice, line int, rep format.Reporter) {
	st := k.choice(ch.Index, line, rep)
	if st.finished {
		rep.Report(ruleOrder, line, 1, "choice "+strconv.Itoa(ch.Index)+" has a chunk after its finish_reason")
	}
	if k.usage {
		rep.Report(ruleOrder, line, 1, "choice chunk after the usage chunk")
	}
	for _, tc := range ch.Delta.ToolCalls {
		n := st.tools
		switch {
		case tc.Index == n:
			st.tools = n + 1
			if tc.ID == "" || tc.Function.Name == "" || tc.Type != wire.TypeFunc {
				rep.Report(ruleIndex, line, 1, "the first delta of tool call "+strconv.Itoa(tc.Index)+" lacks its id, type function or name")
			}
		case st.again && n == 0 && tc.Index > 0:
			st.tools = tc.Index + 1 // perhaps a choice let go of: its calls are not known
		case tc.Index > n || tc.Index < 0:
			rep.Report(ruleIndex, line, 1, "tool call index "+strconv.Itoa(tc.Index)+" skips index "+strconv.Itoa(n))
			st.tools = tc.Index + 1
		}
	}
	if ch.FinishReason != nil {
		st.finished, k.finished = true, true
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }
