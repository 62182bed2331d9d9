package serve

import (
	"encoding/json"
	"strings"
)

// requestBody is what LastUserMessage reads of a request body: the fields
// in which the common clients send a conversation.
type requestBody struct {
	// OpenAI Chat Completions, Anthropic Messages, AG-UI, AI SDK useChat.
	Messages []message `json:"messages"`
	// OpenAI Responses: a string, or a list of items.
	Input json.RawMessage `json:"input"`
	// Gemini generateContent.
	Contents []message `json:"contents"`
	// Completions, AI SDK useCompletion.
	Prompt json.RawMessage `json:"prompt"`
}

type message struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"` // a string, or a list of parts
	Parts   []part          `json:"parts"`   // AI SDK UI messages, Gemini
}

type part struct {
	Type string  `json:"type"`
	Text *string `json:"text"`
}

// LastUserMessage returns the text of the last user message of a request
// body, and whether the body holds one. See the package documentation for
// the bodies it reads.
func LastUserMessage(body []byte) (string, bool) {
	var b requestBody
	if json.Unmarshal(body, &b) != nil {
		return "", false
	}
	switch {
	case b.Messages != nil:
		return lastUser(b.Messages)
	case b.Input != nil:
		var s string
		if json.Unmarshal(b.Input, &s) == nil {
			return s, true
		}
		var items []message
		if json.Unmarshal(b.Input, &items) != nil {
			return "", false
		}
		return lastUser(items)
	case b.Contents != nil:
		return lastUser(b.Contents)
	case b.Prompt != nil:
		var s string
		if json.Unmarshal(b.Prompt, &s) == nil {
			return s, true
		}
	}
	return "", false
}

// lastUser returns the text of the last message of ms with role user.
func lastUser(ms []message) (string, bool) {
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if m.Role != "user" {
			continue
		}
		if m.Content != nil {
			var s string
			if json.Unmarshal(m.Content, &s) == nil {
				return s, true
			}
			var parts []part
			if json.Unmarshal(m.Content, &parts) == nil {
				return partsText(parts), true
			}
		}
		return partsText(m.Parts), true
	}
	return "", false
}

// partsText joins the text of the text parts with newlines: "text" (AI SDK,
// Anthropic, OpenAI Chat), "input_text" (OpenAI Responses), or no type
// with a text (Gemini).
func partsText(parts []part) string {
	var texts []string
	for _, p := range parts {
		if p.Text != nil && (p.Type == "text" || p.Type == "input_text" || p.Type == "") {
			texts = append(texts, *p.Text)
		}
	}
	return strings.Join(texts, "\n")
}
