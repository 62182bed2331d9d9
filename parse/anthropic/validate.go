package anthropic

import (
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// ruleEventName is the format's own validate rule; the Messages API
// stream rules it shares with claude are wirecheck's.
const ruleEventName = "MSG003"

func rules() []format.Rule {
	return append(wirecheck.MessagesRules(), format.Rule{
		ID: ruleEventName, Name: "event-name", Doc: "an SSE message's event: field names the type of its data",
	})
}

// check checks the wire rules of a Messages API SSE body.
func check(r io.Reader, cfg *format.CheckConfig, rep format.Reporter) {
	v := &wirecheck.Checker{Rep: rep, Cfg: cfg}
	var o wirecheck.Order
	// Messages skips those over the cap or cut: the decoder reports them.
	for m := range frame.NewSSE(r, cfg.Source, v.MaxBytes()).Messages() {
		p := wirecheck.Pos{Line: m.Line, Col: 1}
		if m.Type == anthropic.EventPing || len(m.Data) == 0 {
			continue
		}
		var t struct {
			Type string `json:"type"`
		}
		if json.Unmarshal(m.Data, &t) != nil {
			continue // the decoder reports it
		}
		if m.Type != "" && t.Type != m.Type {
			v.Report(ruleEventName, p, "event: %s carries data of type %s", m.Type, t.Type)
		}
		o.Event(v, p, m.Data)
	}
}
