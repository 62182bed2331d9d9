// Package render writes assembled blocks for people (text) and programs
// (JSON).
package render

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/fatih/color"

	"github.com/agentstream/agentstream/assemble"
)

// Styles are the colours of the text view. Each is enabled or disabled
// explicitly, never through the package-level color.NoColor.
type Styles struct {
	Agent, Thinking, Tool, Result, Error, Dim *color.Color
	// Prompt is the user's prompt; Add and Del are diff lines.
	Prompt, Add, Del *color.Color
}

// NewStyles returns the text view's styles, coloured when enabled.
func NewStyles(enabled bool) *Styles {
	s := &Styles{
		Agent:    color.New(color.Bold, color.FgCyan),
		Thinking: color.New(color.Faint, color.Italic),
		Tool:     color.New(color.FgYellow),
		Result:   color.New(color.FgGreen),
		Error:    color.New(color.Bold, color.FgRed),
		Dim:      color.New(color.Faint),
		Prompt:   color.New(color.Bold),
		Add:      color.New(color.FgGreen),
		Del:      color.New(color.FgRed),
	}
	for _, c := range []*color.Color{s.Agent, s.Thinking, s.Tool, s.Result, s.Error, s.Dim, s.Prompt, s.Add, s.Del} {
		if enabled {
			c.EnableColor()
		} else {
			c.DisableColor()
		}
	}
	return s
}

// Text writes blocks as a readable transcript, with a heading whenever the
// agent changes.
type Text struct {
	w     io.Writer
	s     *Styles
	agent string
	first bool
}

// NewText returns a text block writer.
func NewText(w io.Writer, s *Styles) *Text {
	return &Text{w: w, s: s, first: true}
}

// Block writes one block.
func (t *Text) Block(b *assemble.Block) error {
	var sb strings.Builder
	if t.first || b.Agent != t.agent {
		if !t.first {
			sb.WriteString("\n")
		}
		name := b.Agent
		if name == "" {
			name = "(no agent id)"
		}
		sb.WriteString(t.s.Agent.Sprintf("── agent %s", name) + "\n")
		t.agent, t.first = b.Agent, false
	}
	trunc := ""
	if b.Truncated {
		trunc = t.s.Error.Sprint(" [truncated]")
	}
	switch b.Type {
	case assemble.TypeMetaInit:
		var parts []string
		for _, kv := range [][2]string{
			{"model", b.Model},
			{"session", b.SessionID},
			{"cwd", b.Cwd},
			{"parent", b.ParentAgent},
			{"name", b.Name},
			{"task", b.Description},
		} {
			if kv[1] != "" {
				parts = append(parts, kv[0]+" "+kv[1])
			}
		}
		sb.WriteString(t.s.Dim.Sprint("• start: "+strings.Join(parts, ", ")) + "\n")
		if b.Prompt != "" {
			sb.WriteString(t.s.Dim.Sprint("• prompt: "+oneLine(b.Prompt, 200)) + "\n")
		}
	case assemble.TypeThinking:
		sb.WriteString(t.s.Thinking.Sprint(indent("thinking: "+b.Text, "  ")) + trunc + "\n")
	case assemble.TypeText:
		sb.WriteString(b.Text + trunc + "\n")
		for i, c := range b.Citations {
			src := c.Type
			switch {
			case c.URL != nil:
				src = *c.URL
			case c.DocumentTitle != nil && *c.DocumentTitle != "":
				src = *c.DocumentTitle
			}
			sb.WriteString(t.s.Dim.Sprintf("  [%d] %q (%s)", i+1, oneLine(c.CitedText, 120), src) + "\n")
		}
	case assemble.TypeToolCall, assemble.TypeServerToolCall:
		name := b.Name
		if b.MCPServer != "" {
			name = b.MCPServer + "/" + name
		}
		sb.WriteString(t.s.Tool.Sprintf("→ %s", name) + " " + compactJSON(b.Input) + t.s.Dim.Sprintf("  [%s]", b.ID) + trunc + "\n")
	case assemble.TypeToolResult, assemble.TypeServerToolResult:
		head := t.s.Result.Sprintf("← %s", b.Name)
		if b.IsError {
			head = t.s.Error.Sprintf("✗ %s", b.Name)
		}
		if b.ExitCode != nil {
			head += t.s.Dim.Sprintf(" (exit %d)", *b.ExitCode)
		}
		sb.WriteString(head + trunc + "\n")
		if b.Content != nil && *b.Content != "" {
			sb.WriteString(indent(*b.Content, "  ") + "\n")
		}
		for _, img := range b.Images {
			sb.WriteString(t.s.Dim.Sprintf("  [image: %s, %d bytes]", img.MediaType, len(img.Src)) + "\n")
		}
	case assemble.TypeAwaitingTools:
		var names []string
		for _, p := range b.Pending {
			names = append(names, p.Name)
		}
		sb.WriteString(t.s.Tool.Sprint("⏸ awaiting frontend tools: "+strings.Join(names, ", ")) + "\n")
	case assemble.TypeMetaFiles:
		for _, f := range b.Files {
			sb.WriteString(t.s.Dim.Sprintf("• file %s (%s) %s", f.Name, f.ID, f.Location) + "\n")
		}
	case assemble.TypeFileChange:
		for _, c := range b.Changes {
			sb.WriteString(t.s.Tool.Sprintf("± %s %s", c.Kind, c.Path) + "\n")
		}
	case assemble.TypeTodoList:
		for _, td := range b.Todos {
			mark := "[ ]"
			switch td.Status {
			case "completed":
				mark = "[x]"
			case "in_progress":
				mark = "[~]"
			}
			sb.WriteString(mark + " " + td.Text + "\n")
		}
	case assemble.TypeError:
		msg := b.Text
		if b.Kind != "" {
			msg = b.Kind + ": " + msg
		}
		sb.WriteString(t.s.Error.Sprint("✗ error: "+msg) + "\n")
	case assemble.TypeNotice:
		sb.WriteString(t.s.Dim.Sprintf("• %s: %s", b.Kind, b.Text) + "\n")
	case assemble.TypeTurnEnd:
		if b.IsError {
			sb.WriteString(t.s.Error.Sprint("✗ turn failed: "+b.Text) + "\n")
		}
	case assemble.TypeMetaFinal:
		sb.WriteString(t.s.Dim.Sprint("■ "+summary(b)) + "\n")
	case assemble.TypeUnknown:
		sb.WriteString(t.s.Dim.Sprintf("• unknown %s %s: %s", b.Name, b.Kind, oneLine(string(b.Raw), 120)) + "\n")
	default:
		sb.WriteString(t.s.Dim.Sprintf("• %s", b.Type) + "\n")
	}
	_, err := io.WriteString(t.w, sb.String())
	return err
}

func summary(b *assemble.Block) string {
	parts := []string{}
	if b.StopReason != "" {
		parts = append(parts, b.StopReason)
	}
	if b.IsError {
		parts = append(parts, "error")
	}
	if b.Turns > 0 {
		parts = append(parts, fmt.Sprintf("%d turns", b.Turns))
	}
	if b.DurationMS > 0 {
		parts = append(parts, fmt.Sprintf("%.1fs", float64(b.DurationMS)/1000))
	}
	if b.Usage != nil {
		parts = append(parts, fmt.Sprintf("%d in / %d out tokens", b.Usage.InputTokens, b.Usage.OutputTokens))
	}
	if b.CostUSD != nil {
		parts = append(parts, fmt.Sprintf("$%.4f", *b.CostUSD))
	}
	for _, e := range b.Errors {
		parts = append(parts, "error: "+e)
	}
	if len(parts) == 0 {
		return "end"
	}
	return "end: " + strings.Join(parts, " · ")
}

func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

func compactJSON(raw json.RawMessage) string {
	if len(raw) == 0 {
		return "{}"
	}
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return string(raw)
	}
	return buf.String()
}
