// Package jsonenv is the wire vocabulary of the JSON envelope stream
// (format jsonenv), written once for its decoder (parse/jsonenv) and its
// encoder (emit/jsonenv): the envelope, its type strings, and the payloads
// both sides read or write, the meta_init and meta_final payloads too, which
// the xml format shares (meta.go).
package jsonenv

//go:generate go run ../gen

import "encoding/json"

// The envelope's type strings.
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
	// TypeRollback is the agent_base producer's: what the agent streamed
	// of its open blocks is taken back (its payload a RollbackPayload).
	// agentstream writes it for a message its source gave up and began
	// again (event.NoticeAbandoned), and reads it as one.
	TypeRollback = "rollback"
)

// RollbackPayload is the rollback payload. agent_base also sends code,
// details and collapse_previous_assistant, which agentstream neither
// reads nor writes.
type RollbackPayload struct {
	Message string `json:"message"`
}

// Envelope is one message as it appears on the wire. Optional extras are
// pointers so that absent and zero differ.
type Envelope struct {
	Type  string `json:"type" wire:"intern=Type"`
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
