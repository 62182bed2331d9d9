package assemble

import (
	"fmt"

	"github.com/agentstream/agentstream/event"
)

// FromEvent returns the block a complete (non-streamed) event makes, or
// nil for events that make none (BlockStart, Delta, BlockEnd, Citations and
// TurnStart, which Assembler handles or which carry nothing to show).
func FromEvent(ev event.Event) *Block {
	agent := ev.AgentID()
	switch ev := ev.(type) {
	case *event.SessionStart:
		return &Block{
			Agent: agent, Type: TypeMetaInit, SessionID: ev.SessionID, ParentAgent: ev.ParentAgent,
			ParentToolID: ev.ParentToolID, Model: ev.Model, Tools: ev.Tools, Cwd: ev.Cwd, Prompt: ev.Prompt,
			Name: ev.Name, Description: ev.Description, Raw: ev.Meta,
		}
	case *event.ToolCall:
		t := TypeToolCall
		if ev.Server {
			t = TypeServerToolCall
		}
		return &Block{Agent: agent, Type: t, ID: ev.ID, Name: ev.Name, Input: ev.Input, MCPServer: ev.MCPServer, Truncated: ev.Truncated}
	case *event.ToolResult:
		t := TypeToolResult
		if ev.Server {
			t = TypeServerToolResult
		}
		b := &Block{
			Agent: agent, Type: t, ID: ev.ID, Name: ev.Name, IsError: ev.IsError, ExitCode: ev.ExitCode,
			Status: ev.Status, Structured: ev.Structured,
		}
		text, images := "", []Image(nil)
		n := 0
		for _, p := range ev.Content {
			if p.Type == "image" {
				images = append(images, Image{Src: p.Source, MediaType: p.MediaType})
				continue
			}
			if n > 0 {
				text += "\n"
			}
			text += p.Text
			n++
		}
		b.Content, b.Images = &text, images
		return b
	case *event.AwaitingTools:
		b := &Block{Agent: agent, Type: TypeAwaitingTools}
		for _, t := range ev.Tools {
			b.Pending = append(b.Pending, Pending{ID: t.ID, Name: t.Name, Input: t.Input})
		}
		return b
	case *event.Files:
		b := &Block{Agent: agent, Type: TypeMetaFiles}
		for _, f := range ev.Files {
			b.Files = append(b.Files, File{ID: f.ID, Name: f.Name, Location: f.Location})
		}
		return b
	case *event.FileChange:
		b := &Block{Agent: agent, Type: TypeFileChange, ID: ev.ID, Status: ev.Status}
		for _, c := range ev.Changes {
			b.Changes = append(b.Changes, Change{Path: c.Path, Kind: c.Kind})
		}
		return b
	case *event.TodoList:
		b := &Block{Agent: agent, Type: TypeTodoList, ID: ev.ID}
		for _, t := range ev.Items {
			b.Todos = append(b.Todos, Todo{Text: t.Text, Status: t.Status})
		}
		return b
	case *event.Error:
		return &Block{Agent: agent, Type: TypeError, Text: ev.Message, Kind: ev.Type, Fatal: ev.Fatal, Raw: ev.Raw}
	case *event.TurnEnd:
		return &Block{
			Agent: agent, Type: TypeTurnEnd, MessageID: ev.MessageID, StopReason: ev.StopReason,
			Usage: usage(ev.Usage), CostUSD: ev.CostUSD, Text: ev.Error, IsError: ev.Error != "",
		}
	case *event.RunEnd:
		return &Block{
			Agent: agent, Type: TypeMetaFinal, StopReason: ev.StopReason, Turns: ev.Turns,
			DurationMS: ev.DurationMS, CostUSD: ev.CostUSD, Usage: usage(ev.Usage), IsError: ev.IsError,
			Errors: ev.Errors, Result: ev.Result, Raw: ev.Meta,
		}
	case *event.Notice:
		return &Block{Agent: agent, Type: TypeNotice, Kind: ev.Kind, Text: ev.Message, Raw: ev.Raw}
	case *event.Unknown:
		return &Block{Agent: agent, Type: TypeUnknown, Kind: ev.Type, Name: ev.Format, Raw: rawJSON(ev.Raw)}
	case *event.BlockStart, *event.Delta, *event.BlockEnd, *event.Citations, *event.TurnStart:
		return nil
	}
	return &Block{Agent: agent, Type: TypeUnknown, Kind: fmt.Sprintf("%T", ev)}
}

func usage(u *event.Usage) *Usage {
	if u == nil {
		return nil
	}
	b := &Usage{CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens, ReasoningTokens: u.ReasoningTokens}
	if u.Has&event.HasInput != 0 {
		in := u.InputTokens // a copy: the event may be reused
		b.InputTokens = &in
	}
	if u.Has&event.HasOutput != 0 {
		out := u.OutputTokens
		b.OutputTokens = &out
	}
	return b
}
