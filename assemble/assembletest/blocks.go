package assembletest

import (
	"errors"
	"io"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
)

// Blocks drains dec through an assembler and returns the blocks it
// assembled, skipping the decoder's problems (*event.ParseError). Any
// other error fails the test.
func Blocks(t testing.TB, dec event.Decoder) []*assemble.Block {
	t.Helper()
	asm := assemble.New(0)
	var blocks []*assemble.Block
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if errors.As(err, &perr) {
				continue
			}
			t.Fatal(err)
		}
		bs, _ := asm.Add(ev)
		blocks = append(blocks, bs...)
	}
	return append(blocks, asm.Flush()...)
}
