package render

import (
	"encoding/binary"
	"math/bits"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// maxRawDepth is the deepest nesting appendCompact follows; deeper JSON
// text is left to encoding/json (whose own limit is 10000).
const maxRawDepth = 256

// appendCompact appends the JSON text src to dst with the whitespace
// between its tokens removed, as encoding/json writes a json.RawMessage
// when it does not escape HTML (everything else is copied as it is), and
// reports whether src is one valid JSON value as encoding/json's scanner
// judges it. On false, dst may hold part of src: the caller drops it and
// lets encoding/json report the error. It also gives up on nesting deeper
// than maxRawDepth.
func appendCompact(dst, src []byte) ([]byte, bool) {
	c := compactor{dst: dst, src: src}
	// closers[d] is the byte that closes the container at depth d+1.
	var closers [maxRawDepth]byte
	depth := 0
	c.space()
	for {
		// A value starts at c.i.
		if c.i >= len(src) {
			return c.dst, false
		}
		switch src[c.i] {
		case '{', '[':
			if depth == maxRawDepth {
				return c.dst, false
			}
			closer := src[c.i] + 2 // '{'+2 is '}', '['+2 is ']'
			closers[depth] = closer
			depth++
			c.i++
			c.space()
			if c.i < len(src) && src[c.i] == closer {
				c.i++
				depth--
				break
			}
			if closer == '}' && !c.key() {
				return c.dst, false
			}
			continue
		case '"':
			if !c.str() {
				return c.dst, false
			}
		case 't':
			if !c.literal("true") {
				return c.dst, false
			}
		case 'f':
			if !c.literal("false") {
				return c.dst, false
			}
		case 'n':
			if !c.literal("null") {
				return c.dst, false
			}
		default:
			if !c.number() {
				return c.dst, false
			}
		}
		// A value ended: close containers until one goes on.
		for {
			c.space()
			if depth == 0 {
				if c.i != len(src) {
					return c.dst, false
				}
				return append(c.dst, src[c.start:]...), true
			}
			if c.i >= len(src) {
				return c.dst, false
			}
			if src[c.i] == closers[depth-1] {
				c.i++
				depth--
				continue
			}
			if src[c.i] != ',' {
				return c.dst, false
			}
			c.i++
			c.space()
			if closers[depth-1] == '}' && !c.key() {
				return c.dst, false
			}
			break
		}
	}
}

// compactor is appendCompact's position: src[start:i] is read and not yet
// copied to dst.
type compactor struct {
	dst, src []byte
	i, start int
}

// space skips whitespace, leaving it out of dst.
func (c *compactor) space() {
	j := c.i
	for j < len(c.src) && (c.src[j] == ' ' || c.src[j] == '\n' || c.src[j] == '\r' || c.src[j] == '\t') {
		j++
	}
	if j != c.i {
		c.dst = append(c.dst, c.src[c.start:c.i]...)
		c.i, c.start = j, j
	}
}

// key reads an object's key and its colon, and the whitespace after it.
func (c *compactor) key() bool {
	if c.i >= len(c.src) || c.src[c.i] != '"' || !c.str() {
		return false
	}
	c.space()
	if c.i >= len(c.src) || c.src[c.i] != ':' {
		return false
	}
	c.i++
	c.space()
	return true
}

// str reads a string, its opening quote at c.i.
func (c *compactor) str() bool {
	s := c.src
	i := c.i + 1
	for {
		// Eight bytes at a time to the next byte that needs a look: the
		// quote, the backslash or a control character. encoding/json's
		// scanner checks nothing more (bytes of invalid UTF-8 pass).
		for ; i+8 <= len(s); i += 8 {
			if m := special8(binary.LittleEndian.Uint64(s[i:])); m != 0 {
				// The lowest marked byte is the first special one (see
				// special8): straight to it, where a byte-by-byte look
				// cost a quarter of writing the xml input's raw payloads,
				// dense in \u escapes.
				i += bits.TrailingZeros64(m) / 8
				goto special
			}
		}
		for i < len(s) && s[i] >= 0x20 && s[i] != '"' && s[i] != '\\' {
			i++
		}
		if i >= len(s) {
			return false
		}
	special:
		switch s[i] {
		case '"':
			c.i = i + 1
			return true
		case '\\':
			// A run of escapes is read here, not one per trip through
			// the word loop: Python's json.dumps writes every character
			// outside ASCII as \uXXXX (the xml and jsonenv producers'
			// meta payloads), and the look at a new word per escape
			// made this loop a tenth of assemble -o json on xml input.
			for {
				if i+1 >= len(s) {
					return false
				}
				switch s[i+1] {
				case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
					i += 2
				case 'u':
					if i+6 > len(s) || !hex4(s[i+2:i+6]) {
						return false
					}
					i += 6
				default:
					return false
				}
				if i >= len(s) || s[i] != '\\' {
					break
				}
			}
		default: // a control character
			return false
		}
	}
}

// special8 marks, with the high bit of its byte, the bytes of x that are
// the quote, the backslash or a control character (below 0x20), and
// returns 0 if there is none. For each, a byte of x^pattern is zero, or
// below 0x20, exactly when (v - lows) & ^v has its high bit set, borrows
// aside, which only ever follow a byte that matched: the lowest marked
// byte is always a special one.
func special8(x uint64) uint64 {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	quote := x ^ ('"' * ones)
	backslash := x ^ ('\\' * ones)
	return ((x-0x20*ones)&^x | (quote-ones)&^quote | (backslash-ones)&^backslash) & highs
}

// hex4 reports whether the four bytes of b are hex digits.
func hex4(b []byte) bool {
	_ = b[3]
	return hexDigit[b[0]]&hexDigit[b[1]]&hexDigit[b[2]]&hexDigit[b[3]] != 0
}

// hexDigit is 1 for the bytes that are hex digits: hex4 tests four
// with one branch, where four range tests each took several.
var hexDigit = func() (t [256]byte) {
	for c := range 256 {
		if '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F' {
			t[c] = 1
		}
	}
	return t
}()

// literal reads true, false or null.
func (c *compactor) literal(lit string) bool {
	if len(c.src)-c.i < len(lit) || string(c.src[c.i:c.i+len(lit)]) != lit {
		return false
	}
	c.i += len(lit)
	return true
}

// number reads a number; what may follow it is checked by the caller.
func (c *compactor) number() bool {
	i := jsontext.NumberEnd(c.src, c.i)
	if i < 0 {
		return false
	}
	c.i = i
	return true
}
