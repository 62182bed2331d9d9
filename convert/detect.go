package convert

import (
	"bufio"
	"errors"
	"fmt"
	"io"

	"github.com/agentstream/agentstream/format"
)

// sniffLimit is how much of an input detection looks at, at most.
const sniffLimit = 64 << 10

// ErrUnknownFormat is returned by Detect when no format accepts the input.
var ErrUnknownFormat = errors.New("cannot detect the input format")

// Detect reads the first unit of br (the first SSE message or line, never
// more than it needs, so a live pipe is not held up) and returns the format
// it is in. The bytes stay in br for the decoder. guessed is true when the
// choice is a guess rather than a match: an empty input (read as jsonenv,
// which decodes it to nothing) or a format whose Detect is marked Guess.
func Detect(br *bufio.Reader) (f Format, guessed bool, err error) {
	var h format.Head
	for n := 1; ; n = br.Buffered() + 1 {
		_, err := br.Peek(n)
		prefix, _ := br.Peek(br.Buffered())
		atEOF := err != nil || len(prefix) >= sniffLimit || br.Buffered() == br.Size()
		var ok bool
		h, ok = format.Sniff(prefix, atEOF)
		if ok {
			break
		}
		if err != nil && err != io.EOF {
			return Format{}, false, err
		}
	}
	if h.Payload == nil && !h.SSE {
		return formats[0], true, nil
	}
	for _, f := range formats {
		if f.Detect != nil && f.NewDecoder != nil && f.Detect(h) {
			return f, f.Guess, nil
		}
	}
	return Format{}, false, fmt.Errorf("%w (use --from; one of %v)", ErrUnknownFormat, Names(true))
}
