package jsontext

import (
	"encoding/binary"
	"slices"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Reader reads one JSON text in a single pass, for the decoders' fast
// paths: each byte is looked at once, and values are decoded straight
// into the caller's fields, with no reflection and no copy of sub-trees.
//
// A Reader gives encoding/json's results or none: it accepts a subset of
// JSON that it decodes exactly as json.Unmarshal into the decoders'
// structs would (strings unescaped the same way, invalid UTF-8 and lone
// surrogates replaced by U+FFFD; the last of duplicate keys wins), and it
// fails (Failed reports true) on anything else: a syntax error, a value
// of another type than the field's, a key that only matches a field
// case-insensitively, nesting deeper than maxDepth. The caller then
// decodes the same bytes with encoding/json, which gives the error, its
// message and its position, as before. Failing costs a second pass, only
// on input that is bad or odd.
//
// The methods that read a value return the zero value once the Reader
// has failed, so a decoding function may read on and check Failed at the
// end.
type Reader struct {
	b     []byte
	i     int
	bad   bool
	first bool // the object or array just opened has no member yet
	depth int
	valid bool // the input is valid UTF-8: strings are read by StrValid
	// spaced: white space was read outside strings (Spaced), set where
	// white space is skipped, a path compact JSON never takes.
	spaced bool
	buf    []byte // scratch for unescaped strings
	// strs makes String's strings, if set (SetStrings).
	strs func([]byte) string
}

// maxDepth bounds the nesting the Reader follows; deeper input fails and
// goes to encoding/json.
const maxDepth = 256

// Reset makes the Reader read b. The byte slices it returns are valid
// until the next Reset or string read.
func (r *Reader) Reset(b []byte) {
	r.b, r.i, r.bad, r.first, r.depth, r.valid, r.spaced = b, 0, false, false, 0, false, false
}

// ResetValid is Reset for input the caller knows to be valid UTF-8 as a
// whole (utf8.Valid(b) is true), such as what badutf8.Fix or
// badutf8.Replace returns: Str, String and StringField
// then read strings as StrValid does, without checking the UTF-8 of
// their bytes again. On such input every method gives exactly what it
// gives after Reset. On input that is not valid UTF-8 (the precondition
// broken), strings may hold its invalid bytes where encoding/json would
// have put U+FFFD; the Reader still neither panics nor reads outside b.
func (r *Reader) ResetValid(b []byte) {
	r.Reset(b)
	r.valid = true
}

// Failed reports whether the input is not one the Reader decodes.
func (r *Reader) Failed() bool { return r.bad }

// Fail marks the input as one the Reader does not decode: the caller
// found a value it does not handle.
func (r *Reader) Fail() { r.bad = true }

// Offset returns the offset of the next byte to read.
func (r *Reader) Offset() int { return r.i }

// Rewind goes back to offset off, which Offset returned, and clears a
// failure since: a caller that tried to decode a value as one type may
// skip it instead.
func (r *Reader) Rewind(off, depth int) {
	r.i, r.bad, r.depth = off, false, depth
}

// Since returns the input from offset off, which Offset returned, to
// what was read last.
func (r *Reader) Since(off int) []byte { return r.b[off:r.i] }

// Spaced reports whether the input read since Reset had white space
// outside its strings: after a read of a whole value without failure
// (End true), it is false exactly when the value is compact JSON, which
// json.Compact gives back unchanged. A decoder that read a line so knows,
// at no cost, that every value in it is compact too.
func (r *Reader) Spaced() bool { return r.spaced }

// Depth returns the current nesting, for Rewind.
func (r *Reader) Depth() int { return r.depth }

func (r *Reader) ws() {
	// Most JSON the decoders read is compact: one test, inlined, where
	// the loop made four.
	if r.i < len(r.b) && r.b[r.i] > ' ' {
		return
	}
	r.wsLoop()
}

func (r *Reader) wsLoop() {
	for r.i < len(r.b) {
		switch r.b[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
			r.spaced = true
		default:
			return
		}
	}
}

// End reports whether the whole input was one value, read without
// failure: only white space follows it.
func (r *Reader) End() bool {
	r.ws()
	return !r.bad && r.i == len(r.b)
}

// Peek returns the first byte of the next value (0 at the end or after a
// failure).
func (r *Reader) Peek() byte {
	// Compact JSON has the value right there: one look.
	if i := r.i; i < len(r.b) && r.b[i] > ' ' && !r.bad {
		return r.b[i]
	}
	r.wsLoop()
	if r.bad || r.i >= len(r.b) {
		return 0
	}
	return r.b[r.i]
}

// Object reads the '{' that opens an object, or fails.
func (r *Reader) Object() bool {
	if r.Peek() != '{' || r.depth >= maxDepth {
		r.bad = true
		return false
	}
	r.i++
	r.depth++
	r.first = true
	return true
}

// Key returns the next key of the object being read, with the ':' after
// it read, or false at its closing '}' (which it reads) or on failure.
// Keys with escapes, capitals or non-ASCII bytes fail: encoding/json
// could match them to a field case-insensitively (KeyFold lets capitals
// through).
func (r *Reader) Key() ([]byte, bool) {
	return r.key(false)
}

// KeyFold is Key for an object whose unknown keys are skipped with
// SkipUnknown: it lets ASCII capitals through.
func (r *Reader) KeyFold() ([]byte, bool) {
	return r.key(true)
}

// SkipUnknown skips the value of a key that matched no field exactly. It
// fails when the key, lower-cased, is one for which known reports true:
// encoding/json would have matched it case-insensitively.
func (r *Reader) SkipUnknown(key []byte, known func(string) bool) {
	for i, c := range key {
		if 'A' <= c && c <= 'Z' {
			lower := append(r.buf[:0], key...)
			for j := i; j < len(lower); j++ {
				if c := lower[j]; 'A' <= c && c <= 'Z' {
					lower[j] = c + 'a' - 'A'
				}
			}
			r.buf = lower
			if known(string(lower)) {
				r.bad = true
				return
			}
			break
		}
	}
	r.Skip()
}

func (r *Reader) key(capitals bool) ([]byte, bool) {
	// The common case, read here: compact JSON, the key's quote right
	// after the '{' or the ',', the ':' right after its closing quote,
	// a key shorter than a word (an envelope's type, agent, delta) seen
	// in one look. Everything else goes to keySlow, which starts over.
	// Apart from the rare keyLen call, this path has no call, so the
	// compiler keeps its values in registers, where keySlow's calls made
	// it spill them. The '}' right after the last value (or the '{') is
	// read here too: every object ends so; and ", " between members, as
	// Python's json.dumps writes them.
	if b, i := r.b, r.i; !r.bad {
		if i < len(b) && b[i] == '}' {
			r.i, r.first = i+1, false
			r.depth--
			return nil, false
		}
		sep := r.first
		if !sep && i < len(b) && b[i] == ',' {
			sep = true
			if i++; i < len(b) && b[i] == ' ' {
				i++
				r.spaced = true
			}
		}
		if sep && i+9 <= len(b) && b[i] == '"' {
			w := word(b, i+1)
			m := asciiStops(w)
			if !capitals {
				m |= capitalMask(w)
			}
			end := i + 1 + first(m)
			if m == 0 {
				end = i + 9 + keyLen(b[i+9:], capitals)
			}
			if end+1 < len(b) && b[end] == '"' && b[end+1] == ':' {
				r.first = false
				r.i = end + 2
				return b[i+1 : end], true
			}
		}
	}
	return r.keySlow(capitals)
}

// keySlow is key for any input.
func (r *Reader) keySlow(capitals bool) ([]byte, bool) {
	b, i := r.b, r.i
	// Compact JSON, the common case, has the key's quote right after the
	// '{' or the ',': taken here without next's tests and ws calls.
	switch {
	case r.bad:
		return nil, false
	case r.first && i < len(b) && b[i] == '"':
		r.first = false
	case !r.first && i+1 < len(b) && b[i] == ',' && b[i+1] == '"':
		i++
	default:
		if !r.next('}') {
			return nil, false
		}
		if i = r.i; i >= len(b) || b[i] != '"' {
			r.bad = true
			return nil, false
		}
	}
	start := i + 1
	// Most keys are shorter than a word: the first word is looked at
	// here, saving keyLen's call.
	if start+8 <= len(b) {
		w := word(b, start)
		m := asciiStops(w)
		if !capitals {
			m |= capitalMask(w)
		}
		if m != 0 {
			i = start + first(m)
		} else {
			i = start + 8 + keyLen(b[start+8:], capitals)
		}
	} else {
		i = start + keyLen(b[start:], capitals)
	}
	if i >= len(b) || b[i] != '"' {
		r.bad = true
		return nil, false
	}
	key := b[start:i]
	if i++; i < len(b) && b[i] == ':' {
		r.i = i + 1
		return key, true
	}
	r.i = i
	r.ws()
	if r.i >= len(b) || b[r.i] != ':' {
		r.bad = true
		return nil, false
	}
	r.i++
	return key, true
}

// next reads the separator before the next member or element, or the
// closing byte, reporting whether a member follows.
func (r *Reader) next(closing byte) bool {
	if r.bad {
		return false
	}
	r.ws()
	if r.i >= len(r.b) {
		r.bad = true
		return false
	}
	c := r.b[r.i]
	if c == closing {
		r.i++
		r.depth--
		r.first = false
		return false
	}
	if r.first {
		r.first = false
		if closing == '}' {
			r.ws()
		}
		return true
	}
	if c != ',' {
		r.bad = true
		return false
	}
	r.i++
	r.ws()
	return true
}

// Array reads the '[' that opens an array, or fails.
func (r *Reader) Array() bool {
	if r.Peek() != '[' || r.depth >= maxDepth {
		r.bad = true
		return false
	}
	r.i++
	r.depth++
	r.first = true
	return true
}

// More reports whether the array being read has another element, reading
// the ',' before it or the closing ']'.
func (r *Reader) More() bool { return r.next(']') }

// Null reads a null if one comes next, reporting whether it did.
func (r *Reader) Null() bool {
	if r.Peek() != 'n' {
		return false
	}
	r.literal("null")
	return !r.bad
}

func (r *Reader) literal(lit string) {
	if len(r.b)-r.i < len(lit) || string(r.b[r.i:r.i+len(lit)]) != lit {
		r.bad = true
		return
	}
	r.i += len(lit)
}

// Bool reads true or false.
func (r *Reader) Bool() bool {
	switch r.Peek() {
	case 't':
		r.literal("true")
		return !r.bad
	case 'f':
		r.literal("false")
	default:
		r.bad = true
	}
	return false
}

// Int reads an integer that fits in an int64. A number with a fraction or
// an exponent fails, as encoding/json refuses it for an integer field.
// (The loop works on locals, stored back once: on the Reader's fields the
// compiler stored and loaded them again at each digit.)
func (r *Reader) Int() int64 {
	r.ws()
	b, i := r.b, r.i
	neg := i < len(b) && b[i] == '-'
	if neg {
		i++
	}
	digits := i
	var n uint64
	for ; i < len(b) && b[i]-'0' <= 9; i++ {
		if n > (1<<63)/10 {
			r.bad = true
			return 0
		}
		n = n*10 + uint64(b[i]-'0')
	}
	switch {
	case i == digits, i-digits > 1 && b[digits] == '0', n > 1<<63, !neg && n == 1<<63:
		r.bad = true
		return 0
	}
	if i < len(b) {
		switch b[i] {
		case '.', 'e', 'E':
			r.bad = true
			return 0
		}
	}
	r.i = i
	if neg {
		return -int64(n)
	}
	return int64(n)
}

// Float reads a number as a float64, as encoding/json does
// (strconv.ParseFloat); one out of range fails.
func (r *Reader) Float() float64 {
	r.ws()
	start := r.i
	r.number()
	if r.bad {
		return 0
	}
	f, err := strconv.ParseFloat(string(r.b[start:r.i]), 64)
	if err != nil {
		r.bad = true
	}
	return f
}

// StringField reads a string into a string field: null leaves it as it
// is, as encoding/json does.
func (r *Reader) StringField(s *string) {
	if !r.Null() {
		*s = r.String()
	}
}

// OptIntField reads an integer into a *int64 field: null sets it to nil.
func (r *Reader) OptIntField(n **int64) {
	if r.Null() {
		*n = nil
		return
	}
	v := r.Int()
	*n = &v
}

// String reads a string value as a new Go string ("" for "" with no
// allocation), or as the function SetStrings set makes it.
func (r *Reader) String() string {
	b := r.Str()
	if len(b) == 0 {
		return ""
	}
	if r.strs != nil {
		return r.strs(b)
	}
	return string(b)
}

// Str reads a string value and returns it unescaped, in the input or in
// scratch space valid until the next string read.
func (r *Reader) Str() []byte {
	if r.valid {
		return r.StrValid()
	}
	if r.Peek() != '"' {
		r.bad = true
		return nil
	}
	start := r.i + 1
	// Plain ASCII and valid UTF-8 stand for themselves: such a string is
	// returned as it is in the input. A string of plain ASCII, the most
	// common, is read by one call; utf8Run takes over at the first
	// non-ASCII byte.
	i := start + asciiPlainLen(r.b[start:])
	if i < len(r.b) && r.b[i] >= utf8.RuneSelf {
		i += utf8Run(r.b[i:])
	}
	switch {
	case i >= len(r.b) || r.b[i] < 0x20:
		r.bad = true
		return nil
	case r.b[i] == '"':
		r.i = i + 1
		return r.b[start:i]
	}
	return r.unescape(start, i) // an escape, or invalid UTF-8
}

// plainASCII[c] is 1 for the bytes a JSON string holds as they are and
// that need no other look: printable ASCII but the quote and the
// backslash.
const plainASCII = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// unescape decodes the string that starts at start, plain up to i, as
// encoding/json's unquote does, checking the UTF-8 of its runs and
// replacing invalid bytes (unescapeValid is the loop for valid input).
// A run shorter than a word is found with one inline look at a word and
// copied with one store (appendWord), and \u escapes are decoded inline,
// where plainLen, append's memmove and appendEscapedRune cost a call
// each.
func (r *Reader) unescape(start, i int) []byte {
	b := r.b
	buf := append(r.buf[:0], b[start:i]...)
loop:
	for i < len(b) {
		c := b[i]
		switch {
		case c == '\\':
			e, u, ok := escape(b, i)
			if !ok {
				break loop
			}
			if !u {
				buf = append(buf, e)
				i += 2
				continue
			}
			// A \u escape, as encoding/json's unquote decodes it: a
			// surrogate pair of escapes is one character, a lone
			// surrogate U+FFFD.
			rr := hex4(b[i+2:])
			i += 6
			switch {
			case rr < 0:
				break loop
			case rr < 0x80:
				buf = append(buf, byte(rr))
			case rr < 0x800:
				buf = append(buf, 0xc0|byte(rr>>6), 0x80|byte(rr)&0x3f)
			case !utf16.IsSurrogate(rr):
				buf = append(buf, 0xe0|byte(rr>>12), 0x80|byte(rr>>6)&0x3f, 0x80|byte(rr)&0x3f)
			default:
				var dec rune
				dec, i = surrogate(b, i, rr)
				buf = utf8.AppendRune(buf, dec)
			}
		case c == '"':
			r.i = i + 1
			r.buf = buf
			return buf
		case c < 0x20:
			break loop
		case c < utf8.RuneSelf:
			// A run of plain ASCII and whole UTF-8 characters (c is
			// plain ASCII), copied at once: one shorter than a word,
			// ended by an escape or a quote, in one look.
			j := i
			if i+8 <= len(b) {
				w := word(b, i)
				if m := asciiStops(w); m == 0 {
					j += 8 // a plain word: the run goes on past it
				} else if n := first(m); b[i+n] < utf8.RuneSelf {
					buf = appendWord(buf, w, n)
					i += n
					continue
				}
			}
			j += utf8Run(b[j:])
			buf = appendDoubling(buf, b[i:j])
			i = j
		default:
			rr, size := utf8.DecodeRune(b[i:])
			if rr == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
				i++
				continue
			}
			j := i + utf8Run(b[i:])
			buf = appendDoubling(buf, b[i:j])
			i = j
		}
	}
	r.buf = buf
	r.bad = true
	return nil
}

// appendWord appends the first n bytes of w, a word of the input read by
// word, to buf: with one store of the whole word when buf has room for
// it (the bytes past n are beyond the length), where append of a short
// run calls memmove.
func appendWord(buf []byte, w uint64, n int) []byte {
	l := len(buf)
	if cap(buf)-l < 8 {
		buf = slices.Grow(buf, 8)
	}
	binary.LittleEndian.PutUint64(buf[l:l+8], w)
	return buf[:l+n]
}

// surrogate returns the character of the \u escape of the surrogate rr,
// whose digits end at b[i], as encoding/json's unquote decodes it (with
// the \u escape after it, if that completes a pair, one character; alone,
// U+FFFD), and the index after what it read.
func surrogate(b []byte, i int, rr rune) (rune, int) {
	if len(b)-i >= 6 && b[i] == '\\' && b[i+1] == 'u' {
		if d := utf16.DecodeRune(rr, hex4(b[i+2:])); d != utf8.RuneError {
			return d, i + 6
		}
	}
	return utf8.RuneError, i
}

// appendDoubling is append, growing b to at least twice its length when
// it must grow: append grows a long byte slice by a quarter, which for a
// long string copies and allocates it several times over.
func appendDoubling(b, run []byte) []byte {
	if cap(b)-len(b) < len(run) {
		b = slices.Grow(b, len(b)+len(run))
	}
	return append(b, run...)
}

// hex4 decodes 4 hex digits, or returns -1.
func hex4(b []byte) rune {
	if len(b) < 4 {
		return -1
	}
	// hexValue is 0xff for a byte that is not a hex digit: the or of the
	// four has its high bit set when any is not.
	d0, d1, d2, d3 := hexValue[b[0]], hexValue[b[1]], hexValue[b[2]], hexValue[b[3]]
	if (d0|d1|d2|d3)&0x80 != 0 {
		return -1
	}
	return rune(d0)<<12 | rune(d1)<<8 | rune(d2)<<4 | rune(d3)
}

// hexValue maps a hex digit to its value and every other byte to 0xff.
const hexValue = "\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x00\x01\x02\x03\x04\x05\x06\x07\x08\x09\xff\xff\xff\xff\xff\xff\xff\x0a\x0b\x0c\x0d\x0e\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\x0a\x0b\x0c\x0d\x0e\x0f\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff"

// Skip reads any value, checking its syntax, and returns its text.
func (r *Reader) Skip() []byte {
	c := r.Peek()
	start := r.i
	if (c == '{' || c == '[') && r.skipLoop() {
		return r.b[start:r.i]
	}
	r.skipWalk(c)
	if r.bad {
		return nil
	}
	return r.b[start:r.i]
}

// skipWalk reads the value whose first byte c is next, checking its
// syntax, member by member.
func (r *Reader) skipWalk(c byte) {
	switch {
	case c == '{':
		// The keys of a skipped object match no field: any will do.
		r.Object()
		for r.skipKey() {
			r.skipWalk(r.Peek())
		}
	case c == '[':
		r.Array()
		for r.More() {
			r.skipWalk(r.Peek())
		}
	case c == '"':
		r.skipString()
	case c == 't':
		r.literal("true")
	case c == 'f':
		r.literal("false")
	case c == 'n':
		r.literal("null")
	case c == '-' || ('0' <= c && c <= '9'):
		r.number()
	default:
		r.bad = true
	}
}

// skipLoop reads the object or array next as skipWalk does when it is
// nested at most 64 deep, in one loop whose only calls are StringEnd and
// NumberEnd, and reports whether it did; otherwise (bad syntax, deeper
// nesting) it reads nothing, and skipWalk reads the value. White space
// costs a test only where there is some.
func (r *Reader) skipLoop() bool {
	b, i := r.b, r.i
	var objects uint64 // bit d set: the container d deep in the stack is an object
	depth := 0
	for {
		// A value at i.
		if i >= len(b) {
			return false
		}
		switch c := b[i]; {
		case c == '"':
			i = StringEnd(b, i)
		case c == '{' || c == '[':
			if depth == 64 || r.depth+depth >= maxDepth {
				return false
			}
			depth, i = depth+1, i+1
			objects <<= 1
			if c == '{' {
				objects |= 1
			}
			if i < len(b) && isSpace(b[i]) {
				if j := wsEnd(b, i); j < len(b) && b[j] == c+2 {
					i = j
					r.spaced = true
				}
			}
			if i < len(b) && b[i] == c+2 { // '}' or ']': empty
				i++
				depth--
				objects >>= 1
				break
			}
			if c == '{' {
				if j := keyEnd(b, i); j >= 0 {
					i = j
				} else if i = r.spacedKeyEnd(b, i); i < 0 {
					return false
				}
			}
			continue
		case c == '-' || '0' <= c && c <= '9':
			i = NumberEnd(b, i)
		case c == 't':
			i = literalEnd(b, i, "true")
		case c == 'f':
			i = literalEnd(b, i, "false")
		case c == 'n':
			i = literalEnd(b, i, "null")
		case isSpace(c):
			i = wsEnd(b, i)
			r.spaced = true
			continue
		default:
			return false
		}
		if i < 0 {
			return false
		}
		// After a value: the containers it ends, then a ',' before the
		// next value (and its key).
		for {
			if depth == 0 {
				r.i, r.first = i, false
				return true
			}
			if i >= len(b) {
				return false
			}
			object := objects&1 != 0
			if c := b[i]; c == ',' {
				if i++; object {
					if j := keyEnd(b, i); j >= 0 {
						i = j
					} else if i = r.spacedKeyEnd(b, i); i < 0 {
						return false
					}
				}
				break
			} else if c == '}' && object || c == ']' && !object {
				i++
				depth--
				objects >>= 1
			} else if isSpace(c) {
				i = wsEnd(b, i)
				r.spaced = true
			} else {
				return false
			}
		}
	}
}

// keyEnd returns the index in b after the key at b[i] and its ':', as
// compact JSON writes them, or -1 (then spacedKeyEnd reads them).
func keyEnd(b []byte, i int) int {
	j := StringEnd(b, i)
	if j < 0 || j >= len(b) || b[j] != ':' {
		return -1
	}
	return j + 1
}

// spacedKeyEnd is keyEnd for a key with white space before it or before
// its ':', which it notes (Spaced), or -1: where keyEnd failed, only
// white space makes it succeed.
func (r *Reader) spacedKeyEnd(b []byte, i int) int {
	j := StringEnd(b, wsEnd(b, i))
	if j >= 0 {
		j = wsEnd(b, j)
	}
	if j < 0 || j >= len(b) || b[j] != ':' {
		return -1
	}
	r.spaced = true
	return j + 1
}

// isSpace reports whether c is JSON white space.
func isSpace(c byte) bool { return c == ' ' || c == '\n' || c == '\t' || c == '\r' }

// wsEnd returns the index in b of the first byte from i that is not
// JSON white space.
func wsEnd(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// literalEnd returns the index in b after lit at b[i], or -1.
func literalEnd(b []byte, i int, lit string) int {
	if len(b)-i < len(lit) || string(b[i:i+len(lit)]) != lit {
		return -1
	}
	return i + len(lit)
}

// skipKey reads the next key of an object being skipped, with the ':'
// after it, or reports false at its closing '}' (which it reads) or on
// failure.
func (r *Reader) skipKey() bool {
	if !r.next('}') {
		return false
	}
	if r.i >= len(r.b) || r.b[r.i] != '"' {
		r.bad = true
		return false
	}
	r.skipString()
	r.ws()
	if r.bad || r.i >= len(r.b) || r.b[r.i] != ':' {
		r.bad = true
		return false
	}
	r.i++
	return true
}

// skipString checks a string's syntax without decoding it.
func (r *Reader) skipString() {
	i := StringEnd(r.b, r.i)
	if i < 0 {
		r.bad = true
		return
	}
	r.i = i
}

// StringEnd returns the index in b after the JSON string whose opening
// quote is b[i], or -1 if none is there, checking its syntax as
// encoding/json's scanner does (bytes of invalid UTF-8 pass) without
// decoding it.
func StringEnd(b []byte, i int) int {
	if i >= len(b) || b[i] != '"' {
		return -1
	}
	// t is the rest of b, resliced as it is read: with its length
	// tested, the loads need no bounds checks. The index of t[0] in b
	// is len(b)-len(t).
	t := b[i+1:]
	for len(t) > 0 {
		// The run up to the next stop; one ended within a word (the
		// runs between a JSON text's escapes in a string, between
		// Python's \u escapes) is found here, saving plainLen's call.
		if len(t) >= 8 {
			if m := stops(word(t, 0)); m != 0 {
				t = t[first(m):]
			} else {
				t = t[8+plainLen(t[8:]):]
			}
		} else {
			t = t[plainLen(t):]
		}
		if len(t) == 0 {
			break
		}
		switch c := t[0]; {
		case c == '"':
			return len(b) - len(t) + 1
		case c < 0x20:
			return -1
		}
		// A backslash. A run of escapes is read here, not one per look
		// at a new word: Python's json.dumps writes every character
		// outside ASCII as \uXXXX (the xml and jsonenv producers' meta
		// payloads).
		// The \u escape is tested first, its digits read in place.
		for {
			if len(t) >= 6 && t[1] == 'u' {
				if (hexValue[t[2]]|hexValue[t[3]]|hexValue[t[4]]|hexValue[t[5]])&0x80 != 0 {
					return -1
				}
				t = t[6:]
			} else if len(t) >= 2 && oneLetterEscape[t[1]] != 0 {
				t = t[2:]
			} else {
				return -1
			}
			// A byte that stands for itself between two escapes (the
			// "n" of Python's "\u00dcn\u00ef") is passed here too,
			// where the loop would look at a new word for it.
			if len(t) >= 2 && t[1] == '\\' && plainValidTable[t[0]] == 1 {
				t = t[1:]
			}
			if len(t) == 0 || t[0] != '\\' {
				break
			}
		}
	}
	return -1
}

// oneLetterEscape marks the bytes c of the escapes \c but \u.
var oneLetterEscape = [256]byte{'"': 1, '\\': 1, '/': 1, 'b': 1, 'f': 1, 'n': 1, 'r': 1, 't': 1}

// number checks a number's syntax.
func (r *Reader) number() {
	i := NumberEnd(r.b, r.i)
	if i < 0 {
		r.bad = true
		return
	}
	r.i = i
}

// NumberEnd returns the index in b after the JSON number that starts at
// b[i] (-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?), or -1 if none
// does. What may follow the number is the caller's to check.
func NumberEnd(b []byte, i int) int {
	if i < len(b) && b[i] == '-' {
		i++
	}
	switch {
	case i < len(b) && b[i] == '0':
		i++
	case i < len(b) && '1' <= b[i] && b[i] <= '9':
		i = digitsEnd(b, i+1)
	default:
		return -1
	}
	if i < len(b) && b[i] == '.' {
		j := digitsEnd(b, i+1)
		if j == i+1 {
			return -1
		}
		i = j
	}
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			i++
		}
		j := digitsEnd(b, i)
		if j == i {
			return -1
		}
		i = j
	}
	return i
}

// digitsEnd returns the index after the run of digits at b[i].
func digitsEnd(b []byte, i int) int {
	for i < len(b) && '0' <= b[i] && b[i] <= '9' {
		i++
	}
	return i
}
