package openairesp

import (
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	wire "github.com/agentstream/agentstream/internal/wire/openai/respwire"
)

// Name is the format's name, and the event.Unknown.Format of its items.
const Name = wire.Name

// Progress event types of the built-in tools.
const (
	prefixWebSearch    = "response.web_search_call."
	prefixFileSearch   = "response.file_search_call."
	prefixCodeInterp   = "response.code_interpreter_call."
	prefixImageGen     = "response.image_generation_call."
	prefixMCPCall      = "response.mcp_call."
	prefixMCPListTools = "response.mcp_list_tools."
)

// Format describes the Responses API streaming body to the rest of
// agentstream.
func Format() format.Format {
	return format.Format{
		Name:        Name,
		ContentType: format.ContentSSE,
		Description: "OpenAI Responses API streaming SSE body (event: response.* + data:), one or more responses",
		Detect:      Detect,
		NewDecoder:  newDecoder,
		// docs/formats/openai-responses.md: one response body per turn:
		// no session metadata, client tool results or run summary.
		Lacks: []format.Content{
			format.CitationExtras, format.ExitCode, format.Images,
			format.MetaInit, format.ToolResult, format.MetaFinal, format.AwaitingTools, format.MetaFiles,
			format.FileChange, format.TodoList,
			format.Subagents,
		},
		Rules: rules(),
		Check: check,
		// One model response: its tool results go in the next request
		// (GEN007). A custom_tool_call's input is free text: OAR005
		// checks the arguments of the calls that take JSON (GEN008).
		Skips: []string{"GEN007", "GEN008"},
	}
}

// isProgress reports whether an event type only reports a built-in
// tool's progress (its item's output_item.done carries the result).
func isProgress(typ string) bool {
	for _, p := range []string{prefixWebSearch, prefixFileSearch, prefixCodeInterp, prefixImageGen, prefixMCPCall, prefixMCPListTools} {
		if strings.HasPrefix(typ, p) {
			return true
		}
	}
	return typ == wire.EvCodeDelta || typ == wire.EvCodeDone
}

// newDecoder is the format's decoder, configured by the format options.
func newDecoder(r io.Reader, o *format.Options) event.Decoder {
	return NewDecoder(r, &Config{Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent})
}
