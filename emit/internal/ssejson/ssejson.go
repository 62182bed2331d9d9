// Package ssejson writes the SSE messages of the JSON event streams
// (emit/agui, emit/aisdk): each message is one data: line holding one JSON
// value, then a blank line.
package ssejson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
)

// Writer writes messages to an io.Writer, each with one Write.
type Writer struct {
	w    io.Writer
	name string // the format's name, before an error of encoding/json
	buf  bytes.Buffer
	je   *json.Encoder
}

// New returns a writer to w; name is the format's, for errors.
func New(w io.Writer, name string) *Writer {
	s := &Writer{w: w, name: name}
	s.je = json.NewEncoder(&s.buf)
	s.je.SetEscapeHTML(false)
	return s
}

// JSON writes v as encoding/json encodes it, without HTML escapes.
func (s *Writer) JSON(v any) error {
	s.buf.Reset()
	s.buf.WriteString("data: ")
	if err := s.je.Encode(v); err != nil {
		return fmt.Errorf("%s: %w", s.name, err)
	}
	s.buf.Truncate(s.buf.Len() - 1) // the Encoder's newline
	return s.end()
}

// Raw writes data, one JSON value, verbatim.
func (s *Writer) Raw(data []byte) error {
	s.buf.Reset()
	s.buf.WriteString("data: ")
	s.buf.Write(data)
	return s.end()
}

func (s *Writer) end() error {
	s.buf.WriteString("\n\n")
	_, err := s.w.Write(s.buf.Bytes())
	return err
}
