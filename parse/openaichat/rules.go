package openaichat

import (
	"encoding/json"
	"io"
	"strings"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/openai"
	wire "github.com/agentstream/agentstream/internal/openai/chatwire"
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
// not JSON are skipped (the decoder reports them).
func check(r io.Reader, c *format.CheckConfig, rep format.Reporter) {
	var k checkState
	openai.Messages(r, c, func(m frame.Message) { k.message(m, rep) })
	if k.open {
		rep.Report(ruleDone, k.line, 1, "the body ends without data: [DONE]")
	}
}

type checkState struct {
	open     bool // a completion has begun and no [DONE] has followed
	line     int
	id       string
	finished map[int]bool
	tools    map[int]int // choice -> tool call indexes seen
	usage    bool
}

func (k *checkState) message(m frame.Message, rep format.Reporter) {
	data := strings.TrimSpace(m.Data)
	if data == "" {
		return
	}
	k.line = m.Line
	if data == wire.Done {
		if !k.open {
			rep.Report(ruleDone, m.Line, 1, "[DONE] without a completion before it")
		}
		k.open = false
		k.id, k.finished, k.tools, k.usage = "", nil, nil, false
		return
	}
	var c wire.Chunk
	if json.Unmarshal([]byte(data), &c) != nil {
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
		k.finished, k.tools, k.usage = nil, nil, false
	}
	if !k.open || c.ID != k.id {
		k.open, k.id = true, c.ID
		k.finished, k.tools = map[int]bool{}, map[int]int{}
	}
	for _, ch := range c.Choices {
		if k.finished[ch.Index] {
			rep.Report(ruleOrder, m.Line, 1, "choice "+itoa(ch.Index)+" has a chunk after its finish_reason")
		}
		if k.usage {
			rep.Report(ruleOrder, m.Line, 1, "choice chunk after the usage chunk")
		}
		for _, tc := range ch.Delta.ToolCalls {
			n := k.tools[ch.Index]
			switch {
			case tc.Index == n:
				k.tools[ch.Index] = n + 1
				if tc.ID == "" || tc.Function.Name == "" || tc.Type != wire.TypeFunc {
					rep.Report(ruleIndex, m.Line, 1, "the first delta of tool call "+itoa(tc.Index)+" lacks its id, type function or name")
				}
			case tc.Index > n || tc.Index < 0:
				rep.Report(ruleIndex, m.Line, 1, "tool call index "+itoa(tc.Index)+" skips index "+itoa(n))
				k.tools[ch.Index] = tc.Index + 1
			}
		}
		if ch.FinishReason != nil {
			k.finished[ch.Index] = true
		}
	}
	if c.Usage != nil && len(c.Choices) == 0 {
		if len(k.finished) == 0 {
			rep.Report(ruleOrder, m.Line, 1, "usage chunk before the finish_reason chunk")
		}
		k.usage = true
	}
}

func quote(s string) string { b, _ := json.Marshal(s); return string(b) }

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }
