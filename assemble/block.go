package assemble

import (
	"bytes"
	"encoding/json"

	"github.com/agentstream/agentstream/event"
)

// Block types. The first thirteen are the JSON envelope's type names (a
// tool_result block carries its images, so tool_result_image never appears
// as a block, and citation appears only inside text blocks); the rest are
// what other formats add. docs/blocks.md is the schema.
const (
	TypeMetaInit         = "meta_init"
	TypeThinking         = "thinking"
	TypeText             = "text"
	TypeToolCall         = "tool_call"
	TypeServerToolCall   = "server_tool_call"
	TypeToolResult       = "tool_result"
	TypeServerToolResult = "server_tool_result"
	TypeAwaitingTools    = "awaiting_frontend_tools"
	TypeMetaFiles        = "meta_files"
	TypeError            = "error"
	TypeMetaFinal        = "meta_final"
	TypeTurnEnd          = "turn_end"
	TypeNotice           = "notice"
	TypeFileChange       = "file_change"
	TypeTodoList         = "todo_list"
	TypeUnknown          = "unknown"
)

// Block is one assembled block: a whole text or thinking block, a tool call,
// a tool result, a piece of metadata. Which fields are set depends on Type;
// docs/blocks.md lists them. The JSON form is what `assemble -o json` writes.
type Block struct {
	Agent string `json:"agent"`
	Type  string `json:"type"`

	// text, thinking; the message of error and notice blocks
	Text      string     `json:"text,omitempty"`
	Signature string     `json:"signature,omitempty"`
	Citations []Citation `json:"citations,omitempty"`

	// tool_call, server_tool_call, tool_result, server_tool_result,
	// file_change, todo_list
	ID        string          `json:"id,omitempty"`
	Name      string          `json:"name,omitempty"`
	Input     json.RawMessage `json:"input,omitempty"`
	MCPServer string          `json:"mcp_server,omitempty"`

	// tool_result, server_tool_result: Content is the text parts joined
	// with "\n"; Parts keeps them in order when there are several or images.
	Content    *string         `json:"content,omitempty"`
	Images     []Image         `json:"images,omitempty"`
	IsError    bool            `json:"is_error,omitempty"`
	ExitCode   *int            `json:"exit_code,omitempty"`
	Status     string          `json:"status,omitempty"`
	Structured json.RawMessage `json:"structured,omitempty"`

	// meta_init
	SessionID    string   `json:"session_id,omitempty"`
	ParentAgent  string   `json:"parent_agent,omitempty"`
	ParentToolID string   `json:"parent_tool_id,omitempty"`
	Model        string   `json:"model,omitempty"`
	Tools        []string `json:"tools,omitempty"`
	Cwd          string   `json:"cwd,omitempty"`
	Prompt       string   `json:"prompt,omitempty"`
	Description  string   `json:"description,omitempty"`

	// awaiting_frontend_tools
	Pending []Pending `json:"pending,omitempty"`
	// meta_files
	Files []File `json:"files,omitempty"`
	// file_change
	Changes []Change `json:"changes,omitempty"`
	// todo_list
	Todos []Todo `json:"todos,omitempty"`

	// error, notice, unknown: the producer's kind or type name
	Kind  string `json:"kind,omitempty"`
	Fatal bool   `json:"fatal,omitempty"`

	// turn_end, meta_final
	MessageID  string   `json:"message_id,omitempty"`
	StopReason string   `json:"stop_reason,omitempty"`
	Turns      int      `json:"turns,omitempty"`
	DurationMS int64    `json:"duration_ms,omitempty"`
	CostUSD    *float64 `json:"cost_usd,omitempty"`
	Usage      *Usage   `json:"usage,omitempty"`
	Errors     []string `json:"errors,omitempty"`
	Result     string   `json:"result,omitempty"`

	// Raw is the producer's payload, verbatim: the meta_init and
	// meta_final objects, an error payload, an unknown item.
	Raw json.RawMessage `json:"raw,omitempty"`

	// Truncated marks a block the stream ended inside of.
	Truncated bool `json:"truncated,omitempty"`

	// Checked notes what is known of the block's payload: what the
	// event's decoder noted of it, or, for an unknown event's Raw, that
	// the Assembler checked and compacted it. AppendPayload then copies
	// it instead of checking it again. Bookkeeping, not content: never
	// written, equal to any other, void once the field is set to another
	// slice (event.Checked).
	Checked event.Checked `json:"-"`
}

// AppendPayload appends p, one of b's JSON payloads (Input, Structured,
// Raw, a Pending's Input), as encoding/json writes a json.RawMessage that
// it does not escape HTML in: with the white space between its tokens
// removed. It reports false, with dst holding part of p, when it cannot
// vouch for p as one valid JSON value (encoding/json is then the judge):
// p is not JSON, or nests deeper than it follows. A payload b.Checked
// notes as compact, or as valid and holding no white space byte at all,
// is copied as it is.
func (b *Block) AppendPayload(dst []byte, p json.RawMessage) ([]byte, bool) {
	if b.Checked.Compact(p) || b.Checked.Valid(p) && !hasSpace(p) {
		return append(dst, p...), true
	}
	return appendCompact(dst, p)
}

// hasSpace reports whether p holds a byte of JSON white space anywhere:
// valid JSON without one is compact (with one, it may be too: a string
// may hold spaces).
func hasSpace(p []byte) bool {
	return bytes.IndexByte(p, ' ') >= 0 || bytes.IndexByte(p, '\n') >= 0 ||
		bytes.IndexByte(p, '\t') >= 0 || bytes.IndexByte(p, '\r') >= 0
}

// setRaw sets Raw to raw, or to raw as a JSON string when raw is not
// JSON (an event is not written after it is handed out, so raw is not
// copied), and Checked to note, what the event's decoder noted of raw.
// A raw it does not note is checked once, by appendCompact: Checked
// notes a Raw that is valid JSON without white space.
func (b *Block) setRaw(raw []byte, note event.Checked) {
	if len(raw) == 0 {
		return
	}
	if note.Valid(raw) {
		b.Raw, b.Checked = raw, note
		return
	}
	c, ok := appendCompact(nil, raw)
	switch {
	case ok && len(c) == len(raw):
	case ok || json.Valid(raw): // white space, or deeper than appendCompact follows
		b.Raw = raw
		return
	default:
		c, _ = json.Marshal(string(raw))
	}
	b.Raw, b.Checked = c, event.CompactJSON(c)
}

// Citation is one citation of a text block.
type Citation struct {
	Type            string  `json:"type"`
	CitedText       string  `json:"cited_text"`
	DocumentIndex   *int64  `json:"document_index,omitempty"`
	DocumentTitle   *string `json:"document_title,omitempty"`
	StartCharIndex  *int64  `json:"start_char_index,omitempty"`
	EndCharIndex    *int64  `json:"end_char_index,omitempty"`
	StartPageNumber *int64  `json:"start_page_number,omitempty"`
	EndPageNumber   *int64  `json:"end_page_number,omitempty"`
	URL             *string `json:"url,omitempty"`
	Title           *string `json:"title,omitempty"`
}

// Image is one image of a tool result.
type Image struct {
	Src       string `json:"src"`
	MediaType string `json:"media_type"`
}

// Pending is one tool the client must run.
type Pending struct {
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input,omitempty"`
}

// File is one generated file.
type File struct {
	ID       string `json:"file_id"`
	Name     string `json:"filename"`
	Location string `json:"storage_location"`
}

// Change is one edited path.
type Change struct {
	Path string `json:"path"`
	Kind string `json:"kind"`
}

// Todo is one task of a todo list.
type Todo struct {
	Text   string `json:"text"`
	Status string `json:"status"`
}

// Usage counts tokens. An input or output count the source did not give
// is nil, written null (never a made-up 0).
type Usage struct {
	InputTokens      *int64 `json:"input_tokens"`
	OutputTokens     *int64 `json:"output_tokens"`
	CacheReadTokens  int64  `json:"cache_read_tokens,omitempty"`
	CacheWriteTokens int64  `json:"cache_write_tokens,omitempty"`
	ReasoningTokens  int64  `json:"reasoning_tokens,omitempty"`
}
