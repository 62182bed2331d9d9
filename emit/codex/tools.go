package codex

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/parse/codex"
)

// shellTools are the tool names written as command_execution items when
// their input has a command.
var shellTools = []string{wire.ItemCommandExecution, "Bash", "bash", "shell", "local_shell", "container.exec"}

// webSearchTools are the tool names written as web_search items.
var webSearchTools = []string{wire.ItemWebSearch, "WebSearch", "web_search_preview"}

// todoTools are the tools whose input is a whole todo list, written as
// the turn's todo_list item.
var todoTools = []string{"TodoWrite"}

var null = []byte("null")

func (e *Encoder) toolCall(ev *event.ToolCall) {
	e.openTurn()
	if ev.Server {
		e.warn("the server-tool flag of tool calls")
	}
	in := &e.in
	in.read(ev.Input) // empty unless the input is an object
	c := e.spare
	if c != nil {
		e.spare = nil
	} else {
		c = &call{}
	}
	switch {
	case ev.MCPServer == "" && slices.Contains(shellTools, ev.Name) && in.get("command") != nil:
		if in.len() > 1 {
			e.warn("shell tool inputs other than the command")
		}
		c.kind, c.item, c.command = wire.ItemCommandExecution, e.callID(ev.ID), e.shellCommand(in.get("command"))
		e.item(wire.TypeItemStarted, c.item, c.kind, c.commandFields(e.fields[:0], "", null, wire.StatusInProgress)...)
	case ev.MCPServer != "" || strings.HasPrefix(ev.Name, "mcp__"):
		c.kind, c.item, c.server, c.tool = wire.ItemMCPToolCall, e.callID(ev.ID), ev.MCPServer, ev.Name
		if c.server == "" {
			c.server, c.tool = splitMCP(ev.Name)
		}
		c.arguments = e.compact(ev.Input)
		e.item(wire.TypeItemStarted, c.item, c.kind, c.mcpFields(null, null, wire.StatusInProgress)...)
	case slices.Contains(webSearchTools, ev.Name):
		c.kind, c.item = wire.ItemWebSearch, e.callID(ev.ID)
		if id := in.get("id"); id != nil {
			c.search = append(c.search, raw("id", e.compact(id)))
		}
		query := in.get("query")
		if query == nil {
			query = []byte(`""`)
		}
		c.search = append(c.search, raw("query", e.compact(query)))
		if a := in.get("action"); a != nil {
			c.search = append(c.search, raw("action", e.compact(a)))
		}
		for _, m := range in.members {
			if k := string(m.key); k != "id" && k != "query" && k != "action" {
				e.warn("web search inputs other than query and action")
				break
			}
		}
		e.item(wire.TypeItemStarted, c.item, c.kind, c.search...)
	case slices.Contains(todoTools, ev.Name):
		c.kind = "todo"
		items, inProgress := claudeTodos(in.get("todos"))
		if inProgress {
			e.warn("the in_progress state of todo items")
		}
		e.writeTodo("", items)
	case slices.Contains(wire.CollabTools(), ev.Name):
		// Codex's own collab tools, read from a Codex stream, go back
		// as they came. Other formats' subagent tools (Claude's Agent,
		// Task) take the default branch: collab_tool_call is not among
		// the item types the Codex SDK declares.
		c.kind, c.item, c.tool = wire.ItemCollabToolCall, e.callID(ev.ID), ev.Name
		c.collab.sender = e.threadID
		json.Unmarshal(in.get("sender_thread_id"), &c.collab.sender)
		json.Unmarshal(in.get("receiver_thread_ids"), &c.collab.receivers)
		c.collab.prompt = null
		if p := in.get("prompt"); p != nil {
			c.collab.prompt = e.compact(p)
		}
		e.item(wire.TypeItemStarted, c.item, c.kind, c.collabFields([]byte("{}"), wire.StatusInProgress)...)
	default:
		// No item type of its own: an MCP call with no server, which
		// decodes back to the same name and input.
		c.kind, c.item, c.tool, c.arguments = wire.ItemMCPToolCall, e.callID(ev.ID), ev.Name, e.compact(ev.Input)
		e.item(wire.TypeItemStarted, c.item, c.kind, c.mcpFields(null, null, wire.StatusInProgress)...)
	}
	e.calls[ev.ID] = c
	if old, out := e.callIDs.Add(ev.ID); out {
		e.warn(openLoss)
		delete(e.calls, old)
	}
}

func (e *Encoder) toolResult(ev *event.ToolResult) {
	c := e.calls[ev.ID]
	if c == nil {
		e.warn("tool results without their call")
		return
	}
	delete(e.calls, ev.ID)
	e.callIDs.Remove(ev.ID)
	if c.kind == "todo" {
		if len(ev.Content) > 0 {
			e.warn("results of todo tools")
		}
		return
	}
	e.openTurn()
	status := ev.Status
	if status == "" {
		status = wire.StatusCompleted
		if ev.IsError {
			status = wire.StatusFailed
		}
	}
	if len(ev.Structured) > 0 && c.kind != wire.ItemMCPToolCall && c.kind != wire.ItemCollabToolCall {
		e.warn("structured tool results")
	}
	switch c.kind {
	case wire.ItemCommandExecution:
		e.item(wire.TypeItemCompleted, c.item, c.kind, e.completedCommandFields(c, e.text(ev), ev.ExitCode, status)...)
	case wire.ItemMCPToolCall:
		e.item(wire.TypeItemCompleted, c.item, c.kind, c.completedMCPFields(e, ev, status)...)
	case wire.ItemWebSearch:
		if len(ev.Content) > 0 {
			e.warn("web search results")
		}
		e.item(wire.TypeItemCompleted, c.item, c.kind, c.search...)
	case wire.ItemCollabToolCall:
		if len(c.collab.receivers) == 0 {
			// A subagent that never showed itself: name it by its call.
			c.collab.receivers = []string{ev.ID}
		}
		var states []byte
		if isAgentStates(ev.Structured) {
			states = e.compact(ev.Structured)
		} else {
			if len(ev.Structured) > 0 {
				e.warn("structured tool results")
			}
			states = agentStates(c.collab.receivers, e.text(ev), ev.IsError)
		}
		e.item(wire.TypeItemCompleted, c.item, c.kind, c.collabFields(states, status)...)
	}
	*c = call{}
	e.spare = c // answered: nothing refers to it any more
}

// text joins the text parts of a result, warning about images.
func (e *Encoder) text(ev *event.ToolResult) string {
	if len(ev.Content) == 1 && ev.Content[0].Type != "image" {
		return ev.Content[0].Text // what the loop below gives, with no copy
	}
	var b strings.Builder
	for _, p := range ev.Content {
		if p.Type == "image" {
			e.warn("images in tool results other than MCP results")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// commandFields appends the members of a command_execution to f, code
// its exit code as JSON.
func (c *call) commandFields(f []field, output string, code []byte, status string) []field {
	return append(f, raw("command", c.command), str("aggregated_output", output), raw("exit_code", code), str("status", status))
}

// completedCommandFields are the members of a completed
// command_execution: exit_code only when the source has one (the Codex
// SDK declares it a number, absent while unknown; item.started keeps
// Codex's null).
func (e *Encoder) completedCommandFields(c *call, output string, exit *int, status string) []field {
	if exit == nil {
		f := c.commandFields(e.fields[:0], output, nil, status)
		return slices.DeleteFunc(f, func(f field) bool { return f.key == "exit_code" })
	}
	e.num = strconv.AppendInt(e.num[:0], int64(*exit), 10)
	return c.commandFields(e.fields[:0], output, e.num, status)
}

// completedMCPFields are the members of a completed mcp_tool_call:
// result for a success, error for a failure, never the other one as
// null (the Codex SDK declares both optional objects).
func (c *call) completedMCPFields(e *Encoder, ev *event.ToolResult, status string) []field {
	if ev.IsError {
		errObj := append(append([]byte(`{"message":`), jsontext.AppendString(nil, e.text(ev))...), '}')
		return []field{
			str("server", c.server), str("tool", c.tool), raw("arguments", c.arguments),
			raw("error", errObj), str("status", status),
		}
	}
	return []field{
		str("server", c.server), str("tool", c.tool), raw("arguments", c.arguments),
		raw("result", e.mcpResult(ev)), str("status", status),
	}
}

func (c *call) mcpFields(result, errObj []byte, status string) []field {
	return []field{
		str("server", c.server), str("tool", c.tool), raw("arguments", c.arguments),
		raw("result", result), raw("error", errObj), str("status", status),
	}
}

func (c *call) collabFields(states []byte, status string) []field {
	ids := []byte{'['}
	for i, r := range c.collab.receivers {
		if i > 0 {
			ids = append(ids, ',')
		}
		ids = jsontext.AppendString(ids, r)
	}
	ids = append(ids, ']')
	return []field{
		str("tool", c.tool), str("sender_thread_id", c.collab.sender), raw("receiver_thread_ids", ids),
		raw("prompt", c.collab.prompt), raw("agents_states", states), str("status", status),
	}
}

// mcpResult writes a result's parts as MCP content blocks.
func (e *Encoder) mcpResult(ev *event.ToolResult) []byte {
	b := []byte(`{"content":[`)
	for i, p := range ev.Content {
		if i > 0 {
			b = append(b, ',')
		}
		switch p.Type {
		case "text":
			b = append(b, `{"type":"text","text":`...)
			b = jsontext.AppendString(b, p.Text)
			b = append(b, '}')
		case "image":
			data, ok := strings.CutPrefix(p.Source, "data:")
			mime, payload, base64 := strings.Cut(data, ";base64,")
			if !ok || !base64 {
				e.warn("images by URL in MCP results")
				b = append(b, `{"type":"text","text":`...)
				b = jsontext.AppendString(b, p.Source)
				b = append(b, '}')
				continue
			}
			if p.MediaType != "" {
				mime = p.MediaType
			}
			b = append(b, `{"type":"image","data":`...)
			b = jsontext.AppendString(b, payload)
			b = append(b, `,"mimeType":`...)
			b = jsontext.AppendString(b, mime)
			b = append(b, '}')
		default:
			if strings.HasPrefix(p.Text, "{") && json.Valid([]byte(p.Text)) {
				b = append(b, e.compact([]byte(p.Text))...)
				continue
			}
			b = append(b, `{"type":"text","text":`...)
			b = jsontext.AppendString(b, p.Text)
			b = append(b, '}')
		}
	}
	b = append(b, `],"structured_content":`...)
	if len(ev.Structured) > 0 {
		b = append(b, e.compact(ev.Structured)...)
	} else {
		b = append(b, null...)
	}
	return append(b, '}')
}

// isAgentStates reports whether v is a Codex agents_states object: thread
// ids to {status, message}.
func isAgentStates(v json.RawMessage) bool {
	var states map[string]json.RawMessage
	if len(v) == 0 || json.Unmarshal(v, &states) != nil {
		return false
	}
	for _, s := range states {
		var st wire.AgentState
		if json.Unmarshal(s, &st) != nil || st.Status == "" {
			return false
		}
	}
	return true
}

// agentStates builds agents_states for receivers: the first carries the
// result text.
func agentStates(receivers []string, text string, failed bool) []byte {
	status := "completed"
	if failed {
		status = "errored"
	}
	b := []byte{'{'}
	for i, r := range receivers {
		if i > 0 {
			b = append(b, ',')
		}
		b = jsontext.AppendString(b, r)
		b = append(b, `:{"status":`...)
		b = jsontext.AppendString(b, status)
		b = append(b, `,"message":`...)
		if i == 0 && text != "" {
			b = jsontext.AppendString(b, text)
		} else {
			b = append(b, null...)
		}
		b = append(b, '}')
	}
	return append(b, '}')
}

// shellCommand returns a command as Codex writes it, a string: a JSON
// string as it is, an argv array joined with shell quoting.
func (e *Encoder) shellCommand(v json.RawMessage) []byte {
	if len(v) > 0 && v[0] == '"' {
		return e.compact(v) // a string, which json.Unmarshal below refuses after a pass over it
	}
	var argv []string
	if json.Unmarshal(v, &argv) != nil {
		return e.compact(v)
	}
	quoted := make([]string, len(argv))
	for i, a := range argv {
		quoted[i] = shellQuote(a)
	}
	return jsontext.AppendString(nil, strings.Join(quoted, " "))
}

func shellQuote(s string) string {
	if s != "" && strings.Trim(s, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:,+@%") == "" {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// splitMCP splits Claude's mcp__server__tool name.
func splitMCP(name string) (server, tool string) {
	rest := strings.TrimPrefix(name, "mcp__")
	server, tool, ok := strings.Cut(rest, "__")
	if !ok {
		return "", name
	}
	return server, tool
}

// claudeTodos reads TodoWrite's todos: [{content, status, activeForm}].
func claudeTodos(v json.RawMessage) (items []wire.TodoItem, inProgress bool) {
	var todos []struct {
		Content string `json:"content"`
		Status  string `json:"status"`
	}
	json.Unmarshal(v, &todos)
	items = make([]wire.TodoItem, 0, len(todos))
	for _, t := range todos {
		inProgress = inProgress || t.Status == "in_progress"
		items = append(items, wire.TodoItem{Text: t.Content, Completed: t.Status == "completed"})
	}
	return items, inProgress
}

// input is a tool call's input object as json.Unmarshal reads it into a
// map[string]json.RawMessage, which it replaces on the hot path: members
// in order, values pointing into the input, read in one pass by a
// jsontext.Reader when it can, else by encoding/json.
type input struct {
	r       jsontext.Reader
	members []member
}

type member struct {
	key   []byte // in the input, or a map key's bytes
	value []byte
}

// read reads the object v, or nothing when v is not one.
func (in *input) read(v []byte) {
	in.members = in.members[:0]
	r := &in.r
	r.Reset(v)
	if r.Object() {
		for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
			in.members = append(in.members, member{key, r.Skip()})
		}
		if r.End() {
			return
		}
	}
	in.members = in.members[:0]
	var m map[string]json.RawMessage
	json.Unmarshal(v, &m) // nil unless v is an object; a key with an escape goes here
	for k, v := range m {
		in.members = append(in.members, member{[]byte(k), v})
	}
}

// get returns the value of key, the last one as a map keeps it, or nil.
func (in *input) get(key string) []byte {
	if i := in.last(key); i >= 0 {
		return in.members[i].value
	}
	return nil
}

func (in *input) last(key string) int {
	for i := len(in.members) - 1; i >= 0; i-- {
		if string(in.members[i].key) == key {
			return i
		}
	}
	return -1
}

// len returns how many keys the object has, as a map counts them.
func (in *input) len() int {
	n := 0
	for i, m := range in.members {
		if in.last(string(m.key)) == i {
			n++
		}
	}
	return n
}
