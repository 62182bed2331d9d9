package format

// Content names one kind of content a format may be unable to carry: a
// field of a content block or a whole block type, in the vocabulary of
// verify's report and of assemble's block schema (docs/verify.md,
// docs/blocks.md).
type Content string

// Block fields.
const (
	IsError        Content = "is_error"
	ExitCode       Content = "exit_code"
	Status         Content = "status"
	Structured     Content = "structured"
	Signature      Content = "signature"
	Citations      Content = "citations"
	CitationExtras Content = "citation_extras" // citation fields beyond its type's own
	Images         Content = "images"
	MCPServer      Content = "mcp_server"
	Kind           Content = "kind" // an error's type
	Server         Content = "server"
	StopReason     Content = "stop_reason"
	Usage          Content = "usage"
	Cost           Content = "cost"
	AgentID        Content = "agent_id"
	Model          Content = "model"
	Prompt         Content = "prompt"
	// SubagentText is the text and thinking of an agent other than the
	// main one (Claude Code's stream-json forwards a subagent's tool
	// calls and results, and its answer only inside the parent's tool
	// result).
	SubagentText Content = "subagent_text"
	// TextEdges is the white space at either end of a text block (Gemini
	// CLI's session log keeps each answer trimmed).
	TextEdges Content = "text_edges"
	// SubagentOutcome is the stop reason, usage and cost of an agent
	// other than the main one (Claude Code's stream-json closes only the
	// main agent's run).
	SubagentOutcome Content = "subagent_outcome"
	// Subagents are the agents other than the main one, whole: one model
	// response (an API body) or one agent's model text has none.
	Subagents Content = "subagents"
	// ID is the ids of tool calls and results as the source wrote them
	// (codex exec numbers its items item_0, item_1, ... itself).
	ID Content = "id"
)

// Block types.
const (
	Thinking         Content = "thinking"
	MetaInit         Content = "meta_init"
	MetaFinal        Content = "meta_final"
	TurnEnd          Content = "turn_end"
	ToolResult       Content = "tool_result"
	AwaitingTools    Content = "awaiting_frontend_tools"
	MetaFiles        Content = "meta_files"
	FileChange       Content = "file_change"
	TodoList         Content = "todo_list"
	ServerToolCall   Content = "server_tool_call"
	ServerToolResult Content = "server_tool_result"
	ErrorBlock       Content = "error"
)

// AllContent returns every Content value, fields first, in declaration
// order.
func AllContent() []Content {
	return []Content{
		IsError, ExitCode, Status, Structured, Signature, Citations, CitationExtras, Images, MCPServer,
		Kind, Server, StopReason, Usage, Cost, AgentID, Model, Prompt, SubagentText, TextEdges, SubagentOutcome,
		Subagents, ID, Thinking, MetaInit, MetaFinal, TurnEnd, ToolResult, AwaitingTools, MetaFiles, FileChange,
		TodoList, ServerToolCall, ServerToolResult, ErrorBlock,
	}
}
