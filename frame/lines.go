package frame

import (
	"io"

	"github.com/agentstream/agentstream/frame/ndjson"
)

// Lines reads an input line by line (package ndjson, which NDJSON decoders
// import directly).
type Lines = ndjson.Lines

// NewLines returns ndjson.NewLines(r, source, max).
func NewLines(r io.Reader, source string, max int) *Lines { return ndjson.NewLines(r, source, max) }
