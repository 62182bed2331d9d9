package codexsession

import wire "github.com/agentstream/agentstream/internal/wire/codex"

// The rollout vocabulary this package reads, declared in
// internal/wire/codex.
const (
	typeSessionMeta      = wire.LineSessionMeta
	typeTurnContext      = wire.LineTurnContext
	typeResponseItem     = wire.LineResponseItem
	typeEventMsg         = wire.LineEventMsg
	typeWorldState       = wire.LineWorldState
	typeTokenUsageRecord = wire.LineTokenUsageRecord
	typeCompacted        = wire.LineCompacted

	itemMessage            = wire.ResponseMessage
	itemReasoning          = wire.ResponseReasoning
	itemFunctionCall       = wire.ResponseFunctionCall
	itemFunctionCallOutput = wire.ResponseFunctionCallOutput
	itemCustomToolCall     = wire.ResponseCustomToolCall
	itemCustomToolOutput   = wire.ResponseCustomToolOutput
	itemLocalShellCall     = wire.ResponseLocalShellCall
	itemWebSearchCall      = wire.ResponseWebSearchCall
	itemToolSearchCall     = wire.ResponseToolSearchCall
	itemToolSearchOutput   = wire.ResponseToolSearchOutput

	msgTaskStarted   = wire.MsgTaskStarted
	msgTaskComplete  = wire.MsgTaskComplete
	msgTurnAborted   = wire.MsgTurnAborted
	msgTokenCount    = wire.MsgTokenCount
	msgItemCompleted = wire.MsgItemCompleted
	msgError         = wire.MsgError

	evItemCommandExecution = wire.CompletedCommandExecution
)

// toolSearchTool is the tool name of a tool_search_call item (as the
// Responses reader names it).
const toolSearchTool = "tool_search"

// metaKind is the event.SessionStart.MetaKind of metadata read from this
// format: Meta holds the session_meta payload, verbatim.
const metaKind = "codex-session"

// The wire types, as this package names them.
type (
	line           = wire.RolloutLine
	payload        = wire.Payload
	parts          = wire.Parts
	completedItem  = wire.CompletedItem
	functionOutput = wire.FunctionOutput
)
