package render

import "github.com/agentstream/agentstream/internal/jsontext"

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

// space skips whitespace, leaving it out of dst. Most tokens have none
// before them: one comparison tells (whitespace is at most ' ').
func (c *compactor) space() {
	j := c.i
	for j < len(c.src) && c.src[j] <= ' ' && (c.src[j] == ' ' || c.src[j] == '\n' || c.src[j] == '\r' || c.src[j] == '\t') {
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
	i := jsontext.StringEnd(c.src, c.i)
	if i < 0 {
		return false
	}
	c.i = i
	return true
}

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
