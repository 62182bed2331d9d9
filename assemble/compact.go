package assemble

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
// than maxRawDepth. Given a nil dst, it returns src itself (not a copy)
// when it has no white space but at its start.
//
// Its position is in locals (src[start:i] is read and not yet copied to
// dst) and its states are labels, and whitespace is looked for with one
// comparison before a call: most raw JSON is compact already.
func appendCompact(dst, src []byte) ([]byte, bool) {
	var object [maxRawDepth]bool // object[d]: the container at depth d+1 is an object
	depth, i, start := 0, 0, 0
	if i < len(src) && src[i] <= ' ' {
		dst, i, start = skipSpace(dst, src, i, start)
	}
value: // a value starts at i
	if i >= len(src) {
		return dst, false
	}
	switch src[i] {
	case '{', '[':
		if depth == maxRawDepth {
			return dst, false
		}
		closer := src[i] + 2 // '{'+2 is '}', '['+2 is ']'
		if i++; i < len(src) && src[i] <= ' ' {
			dst, i, start = skipSpace(dst, src, i, start)
		}
		if i < len(src) && src[i] == closer {
			i++
			break
		}
		object[depth] = closer == '}'
		depth++
		if closer == ']' {
			goto value
		}
		goto key
	case '"':
		if i = stringEnd(src, i); i < 0 {
			return dst, false
		}
	case 't':
		if !hasLiteral(src, i, "true") {
			return dst, false
		}
		i += len("true")
	case 'f':
		if !hasLiteral(src, i, "false") {
			return dst, false
		}
		i += len("false")
	case 'n':
		if !hasLiteral(src, i, "null") {
			return dst, false
		}
		i += len("null")
	default:
		// An integer without a sign is read here; any other number,
		// or what is not one, is NumberEnd's.
		j := i
		if c := src[i]; c == '0' {
			j++
		} else if c-'1' < 9 {
			for j++; j < len(src) && src[j]-'0' < 10; j++ {
			}
		}
		if j > i && (j == len(src) || src[j]-'0' >= 10 && src[j] != '.' && src[j]|0x20 != 'e') {
			i = j
		} else if i = jsontext.NumberEnd(src, i); i < 0 {
			return dst, false
		}
	}
ended: // a value ended before i: close containers until one goes on
	if i < len(src) && src[i] <= ' ' {
		dst, i, start = skipSpace(dst, src, i, start)
	}
	if depth == 0 {
		if i != len(src) {
			return dst, false
		}
		if dst == nil {
			return src[start:], true
		}
		return append(dst, src[start:]...), true
	}
	if i >= len(src) {
		return dst, false
	}
	switch c := src[i]; {
	case c == ',':
		if i++; i < len(src) && src[i] <= ' ' {
			dst, i, start = skipSpace(dst, src, i, start)
		}
		if object[depth-1] {
			goto key
		}
		goto value
	case c == '}' && object[depth-1], c == ']' && !object[depth-1]:
		i++
		depth--
		goto ended
	}
	return dst, false
key: // an object's key starts at i
	if i >= len(src) || src[i] != '"' {
		return dst, false
	}
	if i = stringEnd(src, i); i < 0 {
		return dst, false
	}
	if i < len(src) && src[i] <= ' ' {
		dst, i, start = skipSpace(dst, src, i, start)
	}
	if i >= len(src) || src[i] != ':' {
		return dst, false
	}
	if i++; i < len(src) && src[i] <= ' ' {
		dst, i, start = skipSpace(dst, src, i, start)
	}
	goto value
}

// skipSpace skips the whitespace at src[i:], leaving it out of dst: what
// was read before it, src[start:i], is copied first.
func skipSpace(dst, src []byte, i, start int) ([]byte, int, int) {
	j := i
	for j < len(src) && (src[j] == ' ' || src[j] == '\n' || src[j] == '\r' || src[j] == '\t') {
		j++
	}
	if j == i {
		return dst, i, start
	}
	return append(dst, src[start:i]...), j, j
}

// hasLiteral reports whether src[i:] starts with lit (true, false or
// null).
func hasLiteral(src []byte, i int, lit string) bool {
	return len(src)-i >= len(lit) && string(src[i:i+len(lit)]) == lit
}

// stringEnd returns the index after the string that starts at src[i], a
// quote, or -1, as jsontext.StringEnd does. One without escapes is read
// here: a word at a time (the subtractions flag no byte before the first
// quote, backslash or control byte), then its last bytes one by one; an
// escape is StringEnd's.
func stringEnd(src []byte, i int) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	j := i + 1
	for ; j+8 <= len(src); j += 8 {
		w := binary.LittleEndian.Uint64(src[j:])
		q, bs := w^(ones*'"'), w^(ones*'\\')
		if m := ((q - ones) | (bs - ones) | (w - ones*0x20)) &^ w & highs; m != 0 {
			j += bits.TrailingZeros64(m) >> 3
			goto stop
		}
	}
	for j < len(src) && src[j] >= 0x20 && src[j] != '"' && src[j] != '\\' {
		j++
	}
stop:
	if j < len(src) && src[j] == '"' {
		return j + 1
	}
	return jsontext.StringEnd(src, i)
}
