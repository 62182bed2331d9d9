package opencode

import (
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/format"
	wire "github.com/agentstream/agentstream/internal/wire/opencode"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// The format's validate rules (docs/validate.md), from what run.ts writes.
const (
	ruleLine  = "OPC001"
	ruleStep  = "OPC002"
	ruleTool  = "OPC003"
	ruleSteps = "OPC004"
)

func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleLine, Name: "line-fields", Doc: "every line has a numeric timestamp and the session's sessionID (one per run, also on its part); a part line's part has the part type of its line type, an error line an error with a name"},
		{ID: ruleStep, Name: "step-lifecycle", Doc: "step_start opens a step that step_finish closes; text, reasoning and tool_use lines come inside a step, and no step starts inside another"},
		{ID: ruleTool, Name: "tool-state", Doc: "a tool_use line has its tool, callID and a finished state: completed with an output, or error with an error"},
		{ID: ruleSteps, Name: "step-finish", Doc: "step_finish has a reason (stop, tool-calls, length, ...) and its tokens"},
	}
}

// partTypes is the part type each line type carries.
var partTypes = map[string]string{
	wire.TypeStepStart: wire.PartStepStart, wire.TypeText: wire.PartText, wire.TypeReasoning: wire.PartReasoning,
	wire.TypeToolUse: wire.PartTool, wire.TypeStepFinish: wire.PartStepFinish,
}

// check checks the rules of opencode run --format json output.
func check(r io.Reader, cfg *format.CheckConfig, rep format.Reporter) {
	v := &wirecheck.Checker{Rep: rep, Cfg: cfg}
	var session string
	var step *wirecheck.Pos
	for line, p := range v.Lines(r) {
		var l wire.Line
		if json.Unmarshal(line, &l) != nil || !lineTypes[l.Type] {
			continue // the decoder reports it, or keeps it as unknown
		}
		if l.Timestamp == nil {
			v.Report(ruleLine, p, "%s line without a numeric timestamp", l.Type)
		}
		switch {
		case l.SessionID == "":
			v.Report(ruleLine, p, "%s line without a sessionID", l.Type)
		case session == "":
			session = l.SessionID
		case l.SessionID != session:
			v.Report(ruleLine, p, "sessionID %q is not the run's, %q", l.SessionID, session)
		}
		if l.Type == wire.TypeError {
			if l.Error == nil || l.Error.Name == "" {
				v.Report(ruleLine, p, "error line without an error name")
			}
			step = nil // the error ended the run
			continue
		}
		part := l.Part
		if part == nil {
			continue // the decoder reports it
		}
		if part.Type != partTypes[l.Type] {
			v.Report(ruleLine, p, "%s line whose part type is %q, not %q", l.Type, part.Type, partTypes[l.Type])
		}
		if part.SessionID != "" && l.SessionID != "" && part.SessionID != l.SessionID {
			v.Report(ruleLine, p, "part sessionID %q is not the line's, %q", part.SessionID, l.SessionID)
		}
		switch l.Type {
		case wire.TypeStepStart:
			if step != nil {
				v.Report(ruleStep, p, "step_start inside the step started at line %d", step.Line)
			}
			q := p
			step = &q
		case wire.TypeStepFinish:
			if step == nil {
				v.Report(ruleStep, p, "step_finish without a step_start")
			}
			step = nil
			if part.Reason == "" {
				v.Report(ruleSteps, p, "step_finish without a reason")
			}
			if part.Tokens == nil {
				v.Report(ruleSteps, p, "step_finish without tokens")
			}
		default:
			if step == nil {
				v.Report(ruleStep, p, "%s line outside a step", l.Type)
			}
		}
		if l.Type != wire.TypeToolUse {
			continue
		}
		if part.Tool == "" || part.CallID == "" {
			v.Report(ruleTool, p, "tool_use without its tool or callID")
		}
		switch s := part.State; {
		case s == nil:
			// the decoder reports it
		case s.Status == wire.StatusCompleted && s.Output == nil:
			v.Report(ruleTool, p, "completed tool_use %q without an output", part.CallID)
		case s.Status == wire.StatusError && s.Error == nil:
			v.Report(ruleTool, p, "failed tool_use %q without an error", part.CallID)
		case s.Status != wire.StatusCompleted && s.Status != wire.StatusError:
			v.Report(ruleTool, p, "tool_use %q in state %q: run.ts writes completed and error only", part.CallID, s.Status)
		}
	}
}
