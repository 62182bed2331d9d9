package eventtest

import "github.com/agentstream/agentstream/event"

// Noted returns the JSON payload ev carries and the decoder's note of it
// (event.Checked), for the events that carry one: a session's and a run
// end's Meta, a tool call's Input, a tool result's Structured, and the Raw
// of an error, a notice and an unknown event. ok is false for any other
// event, and for one whose payload is empty.
func Noted(ev event.Event) (payload []byte, note event.Checked, ok bool) {
	switch e := ev.(type) {
	case *event.SessionStart:
		payload, note = e.Meta, e.Checked
	case *event.RunEnd:
		payload, note = e.Meta, e.Checked
	case *event.ToolCall:
		payload, note = e.Input, e.Checked
	case *event.ToolResult:
		payload, note = e.Structured, e.Checked
	case *event.Error:
		payload, note = e.Raw, e.Checked
	case *event.Notice:
		payload, note = e.Raw, e.Checked
	case *event.Unknown:
		payload, note = e.Raw, e.Checked
	}
	return payload, note, len(payload) > 0
}
