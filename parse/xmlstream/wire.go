package xmlstream

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/agentmeta"
)

// The element names of the legacy XML stream: the wire vocabulary of this
// format, shared with package emit/xml.
const (
	TagMetaInit         = "meta_init"
	TagMetaFinal        = "meta_final"
	TagAwaitingTools    = "awaiting_frontend_tools"
	TagThinking         = "content-block-thinking"
	TagText             = "content-block-text"
	TagToolCall         = "content-block-tool_call"
	TagServerToolCall   = "content-block-server_tool_call"
	TagToolResult       = "content-block-tool_result"
	TagServerToolResult = "content-block-server_tool_result"
	TagError            = "content-block-error"
	TagMetaFiles        = "content-block-meta_files"
	TagCitations        = "citations"
	TagCitation         = "citation"
	TagResultText       = "text"  // inside a multimodal tool result
	TagResultImage      = "image" // inside a multimodal tool result
)

const (
	// blockPrefix starts the names of the content blocks.
	blockPrefix = "content-block-"
	// resultSuffix ends the names of the compatibility server result tags
	// (content-block-web_search_tool_result, bash_code_execution_tool_result).
	resultSuffix = "_tool_result"
	// serverToolPrefix starts the ids of server tool calls, which old
	// streams sent as content-block-tool_call.
	serverToolPrefix = "srvtoolu_"
)

// MetaKind is the event.SessionStart.MetaKind (and RunEnd.MetaKind) of the
// anthropic_agent producer's meta_init and meta_final payloads. The xml and
// jsonenv formats share them; the value is the one package parse/jsonenv
// uses, repeated here because format packages do not import each other.
const MetaKind = agentmeta.Kind

// escaping is one of the producer's generations of per-message escaping.
type escaping string

const (
	// escAuto detects the generation from the stream (the default).
	escAuto escaping = "auto"
	// escNone: the oldest producer, no escaping; raw newlines break
	// the SSE framing.
	escNone escaping = "none"
	// escNewline: LF written as the two characters \n, backslashes
	// not doubled; tool results written raw.
	escNewline escaping = "newline"
	// escFull: the current producer. Formatter messages double every
	// backslash and write LF as \n; tool results write LF as \n only;
	// meta_init, meta_final, awaiting_frontend_tools and meta_files are
	// not escaped.
	escFull escaping = "full"
)

// PendingTool is one element of the awaiting_frontend_tools payload.
type PendingTool struct {
	ToolUseID string          `json:"tool_use_id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

type metaFiles struct {
	Files []struct {
		FileID          string `json:"file_id"`
		Filename        string `json:"filename"`
		StorageLocation string `json:"storage_location"`
	} `json:"files"`
}

type errorPayload struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// serverError is what the producer's server sends instead of XML when the
// run raises: {"error": class, "message": str, "traceback": str}.
type serverError struct {
	Error     *string `json:"error"`
	Message   string  `json:"message"`
	Traceback *string `json:"traceback"`
}
