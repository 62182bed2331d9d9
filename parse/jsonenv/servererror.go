package jsonenv

import (
	"bytes"
	"encoding/json"

	"github.com/agentstream/agentstream/event"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
)

// serverError makes the event of the producer's fatal error line. The line
// names no agent: the error belongs to the agent whose streamed block it
// interrupted (the last one opened), else to the main agent, the first
// the stream named. Raw keeps the whole line, traceback included.
func (d *Decoder) serverError(se *wire.ServerError, payload []byte) *event.Error {
	d.ended = true // the producer's last line of a run that raised
	agent := d.cfg.Agent
	if k, ok := d.streams.Newest(); ok {
		agent = k.agent
	} else if d.main != "" {
		agent = d.main
	}
	return &event.Error{
		Agent: agent, Message: se.Message, Type: se.Error, Fatal: true,
		Raw: json.RawMessage(bytes.Clone(payload)),
	}
}

// serverErrorPayload reports whether an error envelope's payload is the
// producer's server error object ({"error", "message", "traceback"}), which
// an encoder writes back as the payload of an error envelope: that error
// stopped the run, and ev takes its class as Type. An Anthropic error
// object ({"type", "message"}) does not say.
func serverErrorPayload(ev *event.Error, data string) bool {
	var se struct {
		Error     *string `json:"error"`
		Traceback *string `json:"traceback"`
	}
	if json.Unmarshal([]byte(data), &se) != nil || se.Error == nil || se.Traceback == nil {
		return false
	}
	if ev.Type == "" {
		ev.Type = *se.Error
	}
	return true
}

// foreignProblem describes a line that is no envelope, by the format it
// looks like (k, from Config.Foreign).
func foreignProblem(k string) string {
	if k == "" {
		return "expected a JSON envelope: no agent and final fields; skipped"
	}
	return "expected a JSON envelope: this line looks like " + k + "; skipped"
}
