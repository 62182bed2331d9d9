package render

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/fatih/color"
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

// oneLine folds s onto one line (runs of white space become one space)
// and cuts it to max runes.
func oneLine(s string, max int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > max {
		return string(r[:max]) + "…"
	}
	return s
}

// compactJSON returns raw without insignificant white space.
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
