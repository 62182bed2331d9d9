package jsontext

import (
	"bytes"
	"encoding/json"
	"strings"
)

// AppendHTMLString appends s as json.Marshal writes a string: as
// AppendMarshalString, and <, > and & escaped. Splitting s at those
// ASCII bytes splits no character (nor a run of invalid bytes, each of
// which is written on its own).
func AppendHTMLString(b []byte, s string) []byte {
	b = append(b, '"')
	for {
		i := strings.IndexAny(s, "<>&")
		if i < 0 {
			break
		}
		b = AppendMarshalEscaped(b, s[:i])
		switch s[i] {
		case '<':
			b = append(b, `\u003c`...)
		case '>':
			b = append(b, `\u003e`...)
		default:
			b = append(b, `\u0026`...)
		}
		s = s[i+1:]
	}
	b = AppendMarshalEscaped(b, s)
	return append(b, '"')
}

// AppendMarshal appends v as json.Marshal writes it (escapeHTML), or as
// an Encoder with SetEscapeHTML(false) does: what the generated writers
// leave to encoding/json (a value of type any, raw JSON that may need
// compacting). On an error, b is returned as it was.
func AppendMarshal(b []byte, v any, escapeHTML bool) ([]byte, error) {
	if escapeHTML {
		data, err := json.Marshal(v)
		if err != nil {
			return b, err
		}
		return append(b, data...), nil
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return b, err
	}
	return append(b, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...), nil
}
