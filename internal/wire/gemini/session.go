package gemini

import "encoding/json"

// The session log (~/.gemini/tmp/<project>/chats/session-*.jsonl) is
// NDJSON: a header line (SessionHeader), then message lines (Record),
// metadata patch lines ({"$set": {...}}) and rewind lines
// ({"$rewindTo": id}). A message line whose id was seen before replaces
// that message (the CLI writes a model message again once its tool calls
// have run).

// The message record types (ConversationRecordExtra).
const (
	RecordUser    = "user"
	RecordGemini  = "gemini"
	RecordInfo    = "info"
	RecordError   = "error"
	RecordWarning = "warning"
)

// Keys of the patch lines.
const (
	KeySet      = "$set"
	KeyRewindTo = "$rewindTo"
)

// SessionHeader is the first line of a session log (PartialMetadataRecord).
type SessionHeader struct {
	SessionID   string   `json:"sessionId"`
	ProjectHash string   `json:"projectHash"`
	StartTime   string   `json:"startTime,omitempty"`
	LastUpdated string   `json:"lastUpdated,omitempty"`
	Summary     string   `json:"summary,omitempty"`
	Directories []string `json:"directories,omitempty"`
	Kind        string   `json:"kind,omitempty"` // main or subagent
}

// Record is one message of the conversation (MessageRecord). Content is a
// PartListUnion: a string, a part, or a list of strings and parts.
type Record struct {
	ID             string          `json:"id"`
	Timestamp      string          `json:"timestamp"`
	Type           string          `json:"type"`
	Content        json.RawMessage `json:"content"`
	DisplayContent json.RawMessage `json:"displayContent,omitempty"`
	// type gemini only
	ToolCalls []ToolCallRecord `json:"toolCalls,omitempty"`
	Thoughts  []Thought        `json:"thoughts,omitempty"`
	Tokens    *TokensSummary   `json:"tokens,omitempty"`
	Model     string           `json:"model,omitempty"`
}

// ToolCallRecord is a tool call of a gemini message and, once it ran, its
// result (Result: the function responses the model was sent;
// ResultDisplay: what the user was shown, a string or an object).
type ToolCallRecord struct {
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Args          json.RawMessage `json:"args"`
	Result        json.RawMessage `json:"result,omitempty"`
	Status        string          `json:"status"`
	Timestamp     string          `json:"timestamp"`
	AgentID       string          `json:"agentId,omitempty"`
	DisplayName   string          `json:"displayName,omitempty"`
	Description   string          `json:"description,omitempty"`
	ResultDisplay json.RawMessage `json:"resultDisplay,omitempty"`
}

// The statuses of a tool call that has ended (the scheduler's Status).
const (
	ToolSuccess   = "success"
	ToolError     = "error"
	ToolCancelled = "cancelled"
)

// Thought is a thought summary of a gemini message.
type Thought struct {
	Subject     string `json:"subject"`
	Description string `json:"description"`
	Timestamp   string `json:"timestamp,omitempty"`
}

// TokensSummary is a gemini message's usage: Input is promptTokenCount
// (cached included), Output candidatesTokenCount (thoughts not included),
// Cached cachedContentTokenCount, Thoughts thoughtsTokenCount, Tool
// toolUsePromptTokenCount.
type TokensSummary struct {
	Input    int64  `json:"input"`
	Output   int64  `json:"output"`
	Cached   int64  `json:"cached"`
	Thoughts *int64 `json:"thoughts,omitempty"`
	Tool     *int64 `json:"tool,omitempty"`
	Total    int64  `json:"total"`
}

// Part is a part of message content (@google/genai Part), the fields the
// session log uses.
type Part struct {
	Text             *string           `json:"text,omitempty"`
	Thought          bool              `json:"thought,omitempty"`
	FunctionCall     *FunctionCall     `json:"functionCall,omitempty"`
	FunctionResponse *FunctionResponse `json:"functionResponse,omitempty"`
}

// FunctionCall is a part calling a function.
type FunctionCall struct {
	ID   string          `json:"id,omitempty"`
	Name string          `json:"name"`
	Args json.RawMessage `json:"args,omitempty"`
}

// FunctionResponse is a part answering a function call: Response is
// {"output": ...} or {"error": ...}.
type FunctionResponse struct {
	ID       string          `json:"id,omitempty"`
	Name     string          `json:"name"`
	Response json.RawMessage `json:"response,omitempty"`
}
