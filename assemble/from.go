package assemble

import (
	"fmt"

	"github.com/agentstream/agentstream/event"
)

// FromEvent returns the block a complete (non-streamed) event makes, or
// nil for events that make none (BlockStart, Delta, BlockEnd, Citations and
// TurnStart, which Assembler handles or which carry nothing to show).
func FromEvent(ev event.Event) *Block {
	it := new(item)
	if !it.from(ev) {
		return nil
	}
	return &it.Block
}

// from returns the block ev makes, in an item of a's, or nil.
func (a *Assembler) from(ev event.Event) *item {
	switch ev.(type) {
	case *event.BlockStart, *event.Delta, *event.BlockEnd, *event.Citations, *event.TurnStart:
		return nil
	}
	it := a.item()
	it.from(ev)
	return it
}

// from fills the empty it with the block ev makes. Only the fields the
// block has are written (it is zero), not a whole Block.
func (it *item) from(ev event.Event) bool {
	b := &it.Block
	b.Agent = ev.AgentID()
	switch ev := ev.(type) {
	case *event.SessionStart:
		b.Type, b.SessionID, b.ParentAgent, b.ParentToolID = TypeMetaInit, ev.SessionID, ev.ParentAgent, ev.ParentToolID
		b.Model, b.Tools, b.Cwd, b.Prompt = ev.Model, ev.Tools, ev.Cwd, ev.Prompt
		b.Name, b.Description, b.Raw, b.Checked = ev.Name, ev.Description, ev.Meta, ev.Checked
	case *event.ToolCall:
		b.Type = TypeToolCall
		if ev.Server {
			b.Type = TypeServerToolCall
		}
		b.ID, b.Name, b.Input, b.MCPServer, b.Truncated, b.Checked = ev.ID, ev.Name, ev.Input, ev.MCPServer, ev.Truncated, ev.Checked
	case *event.ToolResult:
		b.Type = TypeToolResult
		if ev.Server {
			b.Type = TypeServerToolResult
		}
		b.ID, b.Name, b.IsError, b.ExitCode, b.Status = ev.ID, ev.Name, ev.IsError, ev.ExitCode, ev.Status
		b.Structured, b.Checked = ev.Structured, ev.Checked
		n := 0
		for _, p := range ev.Content {
			if p.Type == "image" {
				b.Images = append(b.Images, Image{Src: p.Source, MediaType: p.MediaType})
				continue
			}
			if n > 0 {
				it.content += "\n"
			}
			it.content += p.Text
			n++
		}
		b.Content = &it.content
	case *event.AwaitingTools:
		b.Type = TypeAwaitingTools
		for _, t := range ev.Tools {
			b.Pending = append(b.Pending, Pending{ID: t.ID, Name: t.Name, Input: t.Input})
		}
	case *event.Files:
		b.Type = TypeMetaFiles
		for _, f := range ev.Files {
			b.Files = append(b.Files, File{ID: f.ID, Name: f.Name, Location: f.Location})
		}
	case *event.FileChange:
		b.Type, b.ID, b.Status = TypeFileChange, ev.ID, ev.Status
		for _, c := range ev.Changes {
			b.Changes = append(b.Changes, Change{Path: c.Path, Kind: c.Kind})
		}
	case *event.TodoList:
		b.Type, b.ID = TypeTodoList, ev.ID
		for _, t := range ev.Items {
			b.Todos = append(b.Todos, Todo{Text: t.Text, Status: t.Status})
		}
	case *event.Error:
		b.Type, b.Text, b.Kind, b.Fatal, b.Raw, b.Checked = TypeError, ev.Message, ev.Type, ev.Fatal, ev.Raw, ev.Checked
	case *event.TurnEnd:
		b.Type, b.MessageID, b.StopReason, b.CostUSD = TypeTurnEnd, ev.MessageID, ev.StopReason, ev.CostUSD
		b.Text, b.IsError = ev.Error, ev.Error != ""
		it.setUsage(ev.Usage)
	case *event.RunEnd:
		b.Type, b.StopReason, b.Turns, b.DurationMS, b.CostUSD = TypeMetaFinal, ev.StopReason, ev.Turns, ev.DurationMS, ev.CostUSD
		b.IsError, b.Errors, b.Result, b.Raw, b.Checked = ev.IsError, ev.Errors, ev.Result, ev.Meta, ev.Checked
		it.setUsage(ev.Usage)
	case *event.Notice:
		b.Type, b.Kind, b.Text, b.Raw, b.Checked = TypeNotice, ev.Kind, ev.Message, ev.Raw, ev.Checked
	case *event.Unknown:
		b.Type, b.Kind, b.Name = TypeUnknown, ev.Type, ev.Format
		b.setRaw(ev.Raw, ev.Checked)
	case *event.BlockStart, *event.Delta, *event.BlockEnd, *event.Citations, *event.TurnStart:
		b.Agent = ""
		return false
	default:
		b.Type, b.Kind = TypeUnknown, fmt.Sprintf("%T", ev)
	}
	return true
}

// setUsage points the block's Usage at a copy of u (the event may be
// reused) in it, unless u is nil.
func (it *item) setUsage(u *event.Usage) {
	if u == nil {
		return
	}
	it.usage = Usage{CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens, ReasoningTokens: u.ReasoningTokens}
	if u.Has&event.HasInput != 0 {
		it.in = u.InputTokens
		it.usage.InputTokens = &it.in
	}
	if u.Has&event.HasOutput != 0 {
		it.out = u.OutputTokens
		it.usage.OutputTokens = &it.out
	}
	it.Usage = &it.usage
}
