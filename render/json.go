package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// JSON writes blocks as NDJSON, one object per block (docs/blocks.md).
type JSON struct {
	w   io.Writer
	bw  *bufio.Writer // w, when it is one
	buf []byte        // the block being written, reused
	// enc writes the blocks appendBlock leaves to encoding/json, into
	// encBuf; made when first needed.
	enc    *json.Encoder
	encBuf bytes.Buffer
	// agent is the last block's agent and agentJSON its start, up to the
	// agent's id as a JSON string: most blocks are of the agent of the
	// block before.
	agent     string
	agentJSON []byte
}

// maxKeptJSONBuffer is the largest block buffer a JSON keeps for the next
// block: a run's one huge block does not stay in memory after it.
const maxKeptJSONBuffer = 64 << 10

// NewJSON returns a JSON block writer.
func NewJSON(w io.Writer) *JSON {
	j := &JSON{w: w}
	j.bw, _ = w.(*bufio.Writer)
	return j
}

// Block writes one block, in one Write: the bytes a json.Encoder with
// SetEscapeHTML(false) writes for it, or its error (a json.RawMessage field
// that is not JSON, a NaN cost), in which case nothing is written. Blocks
// are written by appendBlock, without reflection; those it does not vouch
// for go through encoding/json. A block that should fit in a bufio.Writer
// w's free space is appended there (AvailableBuffer: Write's copy is then
// onto itself).
func (j *JSON) Block(b *assemble.Block) error {
	buf, in := j.buf[:0], false
	if n := sizeHint(b); j.bw != nil && j.bw.Available() >= n {
		buf, in = j.bw.AvailableBuffer(), true
	} else if cap(buf) < n {
		buf = make([]byte, 0, n)
	}
	if b.Agent != j.agent || j.agentJSON == nil {
		j.agent = b.Agent
		j.agentJSON = jsontext.AppendMarshalString(append(j.agentJSON[:0], `{"agent":`...), b.Agent)
	}
	buf, ok := appendBlockRest(append(buf, j.agentJSON...), b)
	switch {
	case in:
	case cap(buf) <= maxKeptJSONBuffer:
		j.buf = buf[:0]
	default:
		j.buf = nil
	}
	if !ok {
		return j.encode(b)
	}
	_, err := j.w.Write(append(buf, '\n'))
	return err
}

// encode writes b through encoding/json.
func (j *JSON) encode(b *assemble.Block) error {
	if j.enc == nil {
		j.enc = json.NewEncoder(&j.encBuf)
		j.enc.SetEscapeHTML(false)
	}
	j.encBuf.Reset()
	err := j.enc.Encode(b)
	if err == nil {
		_, err = j.w.Write(j.encBuf.Bytes())
	}
	if j.encBuf.Cap() > maxKeptJSONBuffer {
		j.encBuf = bytes.Buffer{}
	}
	return err
}

// sizeHint returns about how many bytes appendBlock writes for b, for one
// allocation where a block outgrows the buffer: its long fields, unescaped,
// and room for the rest.
func sizeHint(b *assemble.Block) int {
	n := 512 + len(b.Text) + len(b.Signature) + len(b.Input) + len(b.Structured) + len(b.Raw) + len(b.Prompt) + len(b.Result)
	if b.Content != nil {
		n += len(*b.Content)
	}
	return n
}
