// Package modeltext is what the encoders of the model text protocols
// (emit/inlinexml, emit/xmltools) share: they write one agent's text, and
// warn once of each kind of content they cannot carry.
package modeltext

import "github.com/agentstream/agentstream/event"

// Losses reports what a protocol cannot carry and keeps the encoder to
// the first agent's events. The zero value (but for its fields) is ready
// to use.
type Losses struct {
	Format string      // the protocol's name, in the warnings
	Warn   func(error) // receives the warnings; nil discards them

	seen  event.Losses
	agent *string // the agent whose events are written
}

// Report warns that the protocol cannot carry what, once per what.
func (l *Losses) Report(what string) { l.seen.Report(l.Warn, l.Format, what) }

// OtherAgent reports whether ev belongs to another agent than the first
// event's, and warns of it: the protocol writes one agent's text.
func (l *Losses) OtherAgent(ev event.Event) bool {
	if l.agent == nil {
		a := ev.AgentID()
		l.agent = &a
	}
	if ev.AgentID() != *l.agent {
		l.Report("the events of other agents (only the first agent's are written)")
		return true
	}
	return false
}

// Unwritten warns of ev when it is an event the text protocols write
// nothing of (turns, citations, file lists and changes, todo lists,
// errors, unknown items), and reports whether it was.
func (l *Losses) Unwritten(ev event.Event) bool {
	var what string
	switch ev.(type) {
	case *event.TurnStart, *event.TurnEnd:
		what = "turn boundaries and usage"
	case *event.Citations:
		what = "citations"
	case *event.Files:
		what = "generated file lists"
	case *event.FileChange:
		what = "file change reports"
	case *event.TodoList:
		what = "todo lists"
	case *event.Error:
		what = "error events"
	case *event.Unknown:
		what = "unknown items"
	default:
		return false
	}
	l.Report(what)
	return true
}
