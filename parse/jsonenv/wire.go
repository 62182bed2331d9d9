package jsonenv

import (
	"encoding/json"

	"github.com/agentstream/agentstream/internal/agentmeta"
)

// The envelope's type strings: the wire vocabulary of this format, shared
// with package emit/jsonenv.
const (
	TypeMetaInit         = "meta_init"
	TypeThinking         = "thinking"
	TypeText             = "text"
	TypeCitation         = "citation"
	TypeToolCall         = "tool_call"
	TypeServerToolCall   = "server_tool_call"
	TypeToolResult       = "tool_result"
	TypeToolResultImage  = "tool_result_image"
	TypeServerToolResult = "server_tool_result"
	TypeAwaitingTools    = "awaiting_frontend_tools"
	TypeMetaFiles        = "meta_files"
	TypeError            = "error"
	TypeMetaFinal        = "meta_final"
)

// MetaKind is the event.SessionStart.MetaKind (and RunEnd.MetaKind) of
// metadata written by the anthropic_agent producer, whose meta_init and
// meta_final payloads the xml and jsonenv formats share.
const MetaKind = agentmeta.Kind

// Envelope is one message as it appears on the wire. Optional extras are
// pointers so that absent and zero differ.
type Envelope struct {
	Type  string `json:"type"`
	Agent string `json:"agent"`
	Final bool   `json:"final"`
	Delta string `json:"delta"`

	ID        *string `json:"id,omitempty"`
	Name      *string `json:"name,omitempty"`
	Src       *string `json:"src,omitempty"`
	MediaType *string `json:"media_type,omitempty"`

	CitationType    *string `json:"citation_type,omitempty"`
	DocumentIndex   *int64  `json:"document_index,omitempty"`
	DocumentTitle   *string `json:"document_title,omitempty"`
	StartCharIndex  *int64  `json:"start_char_index,omitempty"`
	EndCharIndex    *int64  `json:"end_char_index,omitempty"`
	StartPageNumber *int64  `json:"start_page_number,omitempty"`
	EndPageNumber   *int64  `json:"end_page_number,omitempty"`
	URL             *string `json:"url,omitempty"`
	Title           *string `json:"title,omitempty"`
}

// MetaInit, MetaFinal and Usage are the meta_init and meta_final payloads,
// which the xml format shares (package internal/agentmeta).
type (
	MetaInit  = agentmeta.Init
	MetaFinal = agentmeta.Final
	Usage     = agentmeta.Usage
)

// PendingTool is one element of the awaiting_frontend_tools payload.
type PendingTool struct {
	ToolUseID string          `json:"tool_use_id"`
	Name      string          `json:"name"`
	Input     json.RawMessage `json:"input"`
}

// MetaFiles is the meta_files payload.
type MetaFiles struct {
	Files []FileMeta `json:"files"`
}

// FileMeta is one file of meta_files.
type FileMeta struct {
	FileID          string `json:"file_id"`
	Filename        string `json:"filename"`
	StorageLocation string `json:"storage_location"`
}

// ErrorPayload is the error payload: an Anthropic error object.
type ErrorPayload struct {
	Type    string `json:"type"`
	Message string `json:"message"`
}

// ServerError is what the producer's server sends instead of an envelope
// when the run raises: {"error": class, "message": str, "traceback": str}.
type ServerError struct {
	Error     string `json:"error"`
	Message   string `json:"message"`
	Traceback string `json:"traceback"`
}
