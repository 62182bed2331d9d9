package serve

import (
	"net/http"

	"github.com/agentstream/agentstream/recording"
)

// Media is how a format's output is served: its Content-Type, and the
// headers its clients require beside it.
type Media struct {
	// ContentType is the Content-Type header; "" for the formats framed
	// as SSE or NDJSON as asked (jsonenv), whose type follows the framing.
	ContentType string
	// Header holds the other headers the format's clients require.
	Header http.Header
}

// Content types of the served formats.
const (
	TypeSSE    = "text/event-stream"
	TypeNDJSON = "application/x-ndjson"
	TypeText   = "text/plain; charset=utf-8"
)

// media is what Lookup answers, by format name. A format that is written
// is served with the entry of its name; a test checks that every format
// the convert table writes has one. Entries may name formats the table
// does not hold yet: they take effect when it does.
var media = map[string]Media{
	"jsonenv":          {},
	"xml":              {ContentType: TypeSSE},
	"codex":            {ContentType: TypeNDJSON},
	"claude":           {ContentType: TypeNDJSON},
	"anthropic":        {ContentType: TypeSSE},
	"openai-responses": {ContentType: TypeSSE},
	"openai-chat":      {ContentType: TypeSSE},
	"xmltools":         {ContentType: TypeText},
	"inlinexml":        {ContentType: TypeText},
	// The AI SDK's UI message stream: useChat's DefaultChatTransport
	// reads a response as one only with this header.
	"aisdk": {ContentType: TypeSSE, Header: http.Header{"X-Vercel-Ai-Ui-Message-Stream": {"v1"}}},
	"agui":  {ContentType: TypeSSE},
}

// LookupMedia returns how the output of the format name is served, framed
// as framing says (SSE or Lines of package recording, for the formats
// whose type follows the framing). ok is false for a format the table
// does not know; its type then follows the framing.
func LookupMedia(name, framing string) (m Media, ok bool) {
	m, ok = media[name]
	if m.ContentType == "" {
		m.ContentType = TypeSSE
		if framing == recording.Lines || framing == "ndjson" {
			m.ContentType = TypeNDJSON
		}
	}
	return m, ok
}
