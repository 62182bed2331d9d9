package render

import (
	"bytes"
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/assemble"
)

// JSON writes blocks as NDJSON, one object per block (docs/blocks.md).
type JSON struct {
	w   io.Writer
	buf bytes.Buffer
	enc *json.Encoder
}

// NewJSON returns a JSON block writer.
func NewJSON(w io.Writer) *JSON {
	j := &JSON{w: w}
	j.enc = json.NewEncoder(&j.buf)
	j.enc.SetEscapeHTML(false)
	return j
}

// Block writes one block.
func (j *JSON) Block(b *assemble.Block) error {
	j.buf.Reset()
	if err := j.enc.Encode(b); err != nil {
		return err
	}
	_, err := j.w.Write(j.buf.Bytes())
	return err
}
