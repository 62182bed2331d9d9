package serve

import (
	"net/http"

	"github.com/agentstream/agentstream/format"
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

// Content types of the served formats (format's own constants).
const (
	TypeSSE    = format.ContentSSE
	TypeNDJSON = format.ContentNDJSON
	TypeText   = format.ContentText
)

// LookupMedia returns how output in format f is served, framed as framing
// says (SSE or Lines of package recording, for a format whose type follows
// the framing): the Content-Type and headers its format value gives, in a
// header map of its own.
func LookupMedia(f format.Format, framing string) Media {
	m := Media{ContentType: f.ContentType}
	if m.ContentType == "" {
		m.ContentType = TypeSSE
		if framing == recording.Lines || framing == "ndjson" {
			m.ContentType = TypeNDJSON
		}
	}
	for k, v := range f.Headers {
		if m.Header == nil {
			m.Header = http.Header{}
		}
		m.Header.Set(k, v)
	}
	return m
}
