package validate

import (
	"slices"

	"github.com/agentstream/agentstream/format"
)

// The ids of the rules for every format. Each format's own rules are its
// parse package's (format.Format.Rules).
const (
	Syntax        = "GEN001"
	Truncated     = "GEN002"
	TooLarge      = "GEN003"
	UTF8          = "GEN004"
	MetaInitFirst = "GEN005"
	MetaFinalLast = "GEN006"
	ToolAnswered  = "GEN007"
	ToolInputJSON = "GEN008"
	TurnClosed    = "GEN009"
	Events        = "GEN010"
)

// Rules returns the rules for every format, in report order. A format
// lists those that do not hold for it in format.Format.Skips.
func Rules() []format.Rule {
	return []format.Rule{
		{ID: Syntax, Name: "syntax", Doc: "every unit (line, SSE message, element) follows the format's grammar"},
		{ID: Truncated, Name: "truncated", Doc: "the stream does not end inside a block, a buffered payload or a citation group"},
		{ID: TooLarge, Name: "too-large", Doc: "no line, SSE message or block is over the cap on one unit (--max-event-bytes)"},
		{ID: UTF8, Name: "utf8", Doc: "the input is valid UTF-8"},
		{ID: MetaInitFirst, Name: "meta-init-first", Doc: "an agent's session start (meta_init, system/init, thread.started) comes once, before any other content of that agent"},
		{ID: MetaFinalLast, Name: "meta-final-last", Doc: "nothing of an agent follows its run summary (meta_final, result)"},
		{ID: ToolAnswered, Name: "tool-answered", Doc: "every client tool call is answered by a tool result, or listed as pending in awaiting_frontend_tools, by the end of the stream (not for the formats of one model response, whose tool results go in the next request)"},
		{ID: ToolInputJSON, Name: "tool-input-json", Doc: "a tool call's input is a JSON object"},
		{ID: TurnClosed, Name: "turn-closed", Doc: "every model turn that starts ends (message_stop, turn.completed or turn.failed) before the next starts and before the stream ends"},
		{ID: Events, Name: "has-events", Doc: "the input holds at least one event of its format (an empty input, an HTML error page or another format's stream is not valid)"},
	}
}

// rule returns the rule id of the rules for every format or of f's own,
// and whether it applies to f.
func rule(f *format.Format, id string) (format.Rule, bool) {
	for _, r := range Rules() {
		if r.ID == id {
			return r, !slices.Contains(f.Skips, id)
		}
	}
	for _, r := range f.Rules {
		if r.ID == id {
			return r, true
		}
	}
	return format.Rule{ID: id}, true
}

// WrongFormat is the violation of an input read in a format whose own
// detection rejects it, which looks like another (hint).
func WrongFormat(source, formatName, hint string) Violation {
	return Violation{Rule: Events, Name: "has-events", Source: source, Message: "not " + formatName + " input (" + hint + ")"}
}

// NoEvents is the violation of an input in which no format was found
// (detection saw nothing but white space, say): hint says why.
func NoEvents(source, formatName, hint string) Violation {
	msg := hint
	if formatName != "" {
		msg = "no " + formatName + " event in the input (" + hint + ")"
	}
	return Violation{Rule: Events, Name: "has-events", Source: source, Message: msg}
}
