package cmd

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
)

// reporter prints problems and warnings on stderr, once each, and counts
// problems for the exit code. A problem or warning that repeats with other
// ids, numbers or positions (one for each of a million open tool calls, a
// BOM on every line) is printed maxAlike times; the rest are counted, and
// result says how many there were.
type reporter struct {
	mu       sync.Mutex
	w        io.Writer
	strict   bool
	problems int
	cuts     int // problems that say an input was cut off (event.ErrTruncated)
	warned   map[string]bool
	alike    map[string]*int // lines printed or held back, by likeness
	order    []string        // likenesses held back, in the order first seen
	like     []byte          // a likeness being made, reused
}

// maxAlike is how many problems or warnings of one likeness are printed.
const maxAlike = 10

func newReporter(w io.Writer, strict bool) *reporter {
	return &reporter{w: w, strict: strict, warned: map[string]bool{}, alike: map[string]*int{}}
}

// show reports whether a line of message msg is printed: it counts msg's
// likeness, and says once that lines like it are held back. Called with
// r.mu held.
func (r *reporter) show(msg string) bool {
	r.like = appendLikeness(r.like[:0], msg)
	n := r.alike[string(r.like)] // (a lookup that does not allocate)
	if n == nil {
		n = new(int)
		r.alike[string(r.like)] = n
	}
	*n++
	switch {
	case *n <= maxAlike:
		return true
	case *n == maxAlike+1:
		k := string(r.like)
		r.order = append(r.order, k)
		fmt.Fprintf(r.w, "agentstream: more like %q follow; they are counted, not shown\n", bounded(k))
	}
	return false
}

// appendLikeness appends msg's likeness to dst: msg's words (as
// strings.Fields splits them), one space between them, every word that
// holds a digit or a quote (the position, ids, numbers, quoted names)
// replaced by *, so that one problem met many times has one likeness.
func appendLikeness(dst []byte, msg string) []byte {
	start := len(dst)
	for i := 0; i < len(msg); {
		if k := likeClass[msg[i]]; k&likeSpace != 0 {
			i++
			continue
		} else if k&likeMulti != 0 {
			if r, size := utf8.DecodeRuneInString(msg[i:]); unicode.IsSpace(r) {
				i += size
				continue
			}
		}
		j, varies := i, false // the word msg[i:j]
	word:
		for j < len(msg) {
			switch k := likeClass[msg[j]]; {
			case k == 0:
				j++
			case k&likeSpace != 0:
				break word
			case k&likeVaries != 0:
				varies = true
				j++
			default: // likeMulti
				r, size := utf8.DecodeRuneInString(msg[j:])
				if unicode.IsSpace(r) {
					break word
				}
				j += size
			}
		}
		if len(dst) > start {
			dst = append(dst, ' ')
		}
		if varies {
			dst = append(dst, '*')
		} else {
			dst = append(dst, msg[i:j]...)
		}
		i = j
	}
	return dst
}

// The classes of bytes in a likeness: white space, a digit or a quote
// (a word holding one varies), a byte of a character of two bytes or
// more.
const (
	likeSpace = 1 << iota
	likeVaries
	likeMulti
)

var likeClass = func() (c [256]uint8) {
	for _, b := range []byte(" \t\n\v\f\r") {
		c[b] = likeSpace // unicode.IsSpace's ASCII spaces
	}
	for _, b := range []byte("0123456789\"'`") {
		c[b] = likeVaries
	}
	for b := utf8.RuneSelf; b < 256; b++ {
		c[b] = likeMulti
	}
	return c
}()

// summary prints, for each likeness that was held back, how many lines
// like it were not shown. Called with r.mu held.
func (r *reporter) summary() {
	for _, k := range r.order {
		fmt.Fprintf(r.w, "agentstream: and %d more like %q\n", *r.alike[k]-maxAlike, bounded(k))
	}
	r.order = nil
}

// problem reports bad input; it returns false when the command must stop
// (--strict). A decoder's warning (a *event.ParseError wrapping
// event.ErrWarning: invalid UTF-8 replaced, an escaping guessed) is
// printed as a warning and is not a problem: the events are complete.
func (r *reporter) problem(err error) bool {
	if isWarning(err) {
		r.warn(err)
		return true
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.problems++
	if errors.Is(err, event.ErrTruncated) {
		r.cuts++
	}
	if msg := flagText(err.Error()); r.show(msg) {
		fmt.Fprintf(r.w, "agentstream: %s\n", bounded(msg))
	}
	return !r.strict
}

// cutCount returns how many problems said an input was cut off.
func (r *reporter) cutCount() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.cuts
}

// warn reports what an encoder could not carry, or a decoder's warning,
// once per message.
func (r *reporter) warn(err error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	msg := flagText(err.Error())
	if isWarning(err) {
		// The cause says "warning: " after the position; the line
		// says it first.
		msg = strings.Replace(msg, ": warning: ", ": ", 1)
	}
	if r.warned[msg] || !r.show("warning: "+msg) {
		return
	}
	r.warned[msg] = true
	fmt.Fprintf(r.w, "agentstream: warning: %s\n", bounded(msg))
}

// note prints an informational line.
func (r *reporter) note(format string, args ...any) {
	r.mu.Lock()
	defer r.mu.Unlock()
	fmt.Fprintf(r.w, "agentstream: %s\n", bounded(fmt.Sprintf(format, args...)))
}

// isWarning reports whether err is a decoder's positioned warning.
func isWarning(err error) bool {
	perr, ok := err.(*event.ParseError) // (a bad line costs no errors.As)
	if !ok && !errors.As(err, &perr) {
		return false
	}
	return errors.Is(perr, event.ErrWarning)
}

// maxMessage caps one line on stderr. A message can name what the input
// holds (the blocks a cut-off stream left open, for every agent): a
// hostile input must not turn it into megabytes of stderr.
const maxMessage = 4 << 10

// bounded cuts msg to maxMessage bytes, at a character boundary, saying
// how much was left out.
func bounded(msg string) string {
	if len(msg) <= maxMessage {
		return msg
	}
	cut := maxMessage
	for cut > 0 && !utf8.RuneStart(msg[cut]) {
		cut--
	}
	return fmt.Sprintf("%s... (%d bytes more)", msg[:cut], len(msg)-cut)
}

// count returns the number of problems reported so far.
func (r *reporter) count() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.problems
}

// result is the error a command returns after its work: nil when no
// problem was reported, errNo otherwise. It first says how many problems
// and warnings were held back.
func (r *reporter) result() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.summary()
	if r.problems > 0 {
		return errNo
	}
	return nil
}

// optionFlagNames maps the option names library errors give (the fields of
// format.Options) to the flags that set them.
var optionFlagNames = strings.NewReplacer(
	"MaxEventBytes", "--max-event-bytes",
	"MaxChunkBytes", "--max-chunk-bytes",
	"LateSignatures", "--late-signatures",
)

// flagText says in a library message the flag a command user sets rather
// than the option a Go caller does ("raise the cap, MaxEventBytes" becomes
// "raise the cap, --max-event-bytes").
func flagText(msg string) string {
	for i := 0; i < len(msg); i++ {
		if c := msg[i]; c == 'M' || c == 'L' {
			if s := msg[i:]; strings.HasPrefix(s, "MaxEventBytes") || strings.HasPrefix(s, "MaxChunkBytes") ||
				strings.HasPrefix(s, "LateSignatures") {
				return optionFlagNames.Replace(msg)
			}
		}
	}
	return msg // names no option: not copied
}
