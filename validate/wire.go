package validate

import (
	"errors"
	"io"

	"github.com/agentstream/agentstream/event"
)

// wireCheckers holds, per format, the checker of the format's wire rules
// that runs beside the GEN rules on the decoder's events. It reads the
// input as the decoder does and reports through its checker. The JSON
// envelope is checked at the wire level alone (checker.jsonenv).
var wireCheckers = map[string]func(v *checker, r io.Reader){
	"anthropic": (*checker).anthropic,
	"claude":    (*checker).claude,
	"codex":     (*checker).codex,
	"xml":       (*checker).xml,
}

// isParseError reports whether err is a positioned problem in the input,
// which the decoder reports too, rather than a failure to read.
func isParseError(err error) bool {
	var perr *event.ParseError
	return errors.As(err, &perr)
}
