package claude

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/format"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// ruleResult is the format's own validate rule; the Messages API stream
// rules it shares with anthropic are wirecheck's.
const ruleResult = "CLA001"

func rules() []format.Rule {
	return append(wirecheck.MessagesRules(), format.Rule{
		ID: ruleResult, Name: "result-present", Doc: "the stream has a result line for the main agent (a run that finished)",
	})
}

// check checks the wire rules of Claude Code stream-json: the order of
// stream_event lines per agent scope, and the result line.
func check(r io.Reader, cfg *format.CheckConfig, rep format.Reporter) {
	v := &wirecheck.Checker{Rep: rep, Cfg: cfg}
	br := bufio.NewReaderSize(r, 64<<10)
	if peekNonBlank(br) == '[' {
		return // --output-format json: one array, no stream events
	}
	order := map[string]*wirecheck.Order{}
	var last wirecheck.Pos
	result := false
	any := false
	for line, p := range v.Lines(br) {
		// The decoder accepts several JSON values on one line; so does this.
		dec := json.NewDecoder(bytes.NewReader(line))
		for dec.More() {
			var l wire.Line
			if dec.Decode(&l) != nil {
				break // the decoder reports it
			}
			any, last = true, p
			switch l.Type {
			case wire.TypeStreamEvent:
				scope := ""
				if l.ParentToolUseID != nil {
					scope = *l.ParentToolUseID
				}
				o := order[scope]
				if o == nil {
					o = &wirecheck.Order{}
					order[scope] = o
				}
				o.Event(v, p, l.Event)
			case wire.TypeResult:
				if l.ParentToolUseID == nil || *l.ParentToolUseID == "" {
					result = true
				}
			}
		}
	}
	if v.Err() == nil && any && !result {
		v.Report(ruleResult, last, "stream has no result line (the run did not finish, or the stream was cut)")
	}
}

// peekNonBlank returns the first byte of br that is not blank space, or 0.
func peekNonBlank(br *bufio.Reader) byte {
	for n := 1; ; n++ {
		b, _ := br.Peek(n)
		if len(b) < n {
			return 0
		}
		switch c := b[n-1]; c {
		case ' ', '\t', '\r', '\n':
			continue
		default:
			return c
		}
	}
}
