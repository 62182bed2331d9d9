package jsonenv

import "encoding/json"

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
const MetaKind = "anthropic_agent"

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

// MetaInit is the meta_init payload. The producer writes format,
// user_query, agent_uuid, parent_agent_uuid, model and message_history;
// agentstream adds session_id, tools, cwd, name and description when the
// source carries them.
type MetaInit struct {
	Format          string          `json:"format,omitempty"`
	UserQuery       json.RawMessage `json:"user_query,omitempty"`
	AgentUUID       string          `json:"agent_uuid,omitempty"`
	ParentAgentUUID *string         `json:"parent_agent_uuid"`
	Model           string          `json:"model,omitempty"`
	SessionID       string          `json:"session_id,omitempty"`
	Tools           []string        `json:"tools,omitempty"`
	Cwd             string          `json:"cwd,omitempty"`
	ParentToolID    string          `json:"parent_tool_use_id,omitempty"`
	Name            string          `json:"name,omitempty"`
	Description     string          `json:"description,omitempty"`
}

// MetaFinal is the meta_final payload. The producer writes
// conversation_history, stop_reason, total_steps, generated_files, cost and
// cumulative_usage; agentstream adds the rest when the source carries them.
type MetaFinal struct {
	StopReason      string   `json:"stop_reason"`
	TotalSteps      int      `json:"total_steps"`
	GeneratedFiles  any      `json:"generated_files"`
	Cost            any      `json:"cost"`
	CumulativeUsage *Usage   `json:"cumulative_usage,omitempty"`
	TotalCostUSD    *float64 `json:"total_cost_usd,omitempty"`
	DurationMS      int64    `json:"duration_ms,omitempty"`
	IsError         bool     `json:"is_error,omitempty"`
	Errors          []string `json:"errors,omitempty"`
	Result          string   `json:"result,omitempty"`
}

// Usage is the cumulative_usage object.
type Usage struct {
	InputTokens              int64 `json:"input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens,omitempty"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens,omitempty"`
	ReasoningOutputTokens    int64 `json:"reasoning_output_tokens,omitempty"`
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
