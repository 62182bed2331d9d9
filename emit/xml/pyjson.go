package xml

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"math/bits"
	"strings"
	"unicode/utf8"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// pyJSON rewrites valid JSON text the way Python's json.dumps writes it with
// its defaults: ", " and ": " separators, ensure_ascii (every character
// outside printable ASCII as \uXXXX, surrogate pairs above U+FFFF). Key
// order and number spelling are kept. Text that is not valid JSON is
// written as a JSON string, as the producer does with input it cannot
// parse.
func pyJSON(raw []byte) []byte {
	return reformat(raw, ", ", ": ")
}

// compactASCII is json.dumps with separators=(",", ":"): compact, ASCII.
func compactASCII(raw []byte) []byte {
	return reformat(raw, ",", ":")
}

func reformat(raw []byte, comma, colon string) []byte {
	return appendReformat(make([]byte, 0, len(raw)+len(raw)/8), raw, comma, colon, &pyJSONOnly)
}

// appendReformat appends reformat(raw, comma, colon) to out, its strings
// spelled as sp says (and so the whole text: what is outside strings
// holds nothing that HTML or the formatter escapes).
func appendReformat(out, raw []byte, comma, colon string, sp *pySpell) []byte {
	if !validJSON(raw) {
		s, _ := json.Marshal(string(raw))
		raw = s
	}
	for i := 0; i < len(raw); {
		c := raw[i]
		switch c {
		case ' ', '\t', '\n', '\r':
			i++
		case ',':
			out = append(out, comma...)
			i++
		case ':':
			out = append(out, colon...)
			i++
		case '"':
			if end := plainStringEnd(raw, i); end > 0 {
				// Written as it is, but for what HTML escapes.
				if sp.html {
					out = appendASCIIData(out, raw[i:end])
				} else {
					out = append(out, raw[i:end]...)
				}
				i = end
				continue
			}
			end := stringEnd(raw, i)
			out = appendPyString(out, raw[i:end], sp)
			i = end
		default:
			out = append(out, c)
			i++
		}
	}
	return out
}

// stringEnd returns the index after the JSON string starting at raw[i].
func stringEnd(raw []byte, i int) int {
	for j := i + 1; j < len(raw); j++ {
		switch raw[j] {
		case '\\':
			j++
		case '"':
			return j + 1
		}
	}
	return len(raw)
}

// plainStringEnd returns the index after the JSON string whose opening
// quote is raw[i] when the string holds only printable ASCII but the
// backslash (Python writes it as it is), else -1. It looks at eight
// bytes at a time.
func plainStringEnd(raw []byte, i int) int {
	for j := i + 1; ; j++ {
		for j+8 <= len(raw) {
			w := load8(raw, j)
			q, bs := w^(ones8*'"'), w^(ones8*'\\')
			// The lowest mark is exact (see pyStops).
			if m := ((q - ones8) | (bs - ones8) | (w - ones8*0x20) | w | (w + ones8)) & highs8; m != 0 {
				j += bits.TrailingZeros64(m) >> 3
				break
			}
			j += 8
		}
		if j >= len(raw) {
			return -1
		}
		switch c := raw[j]; {
		case c == '"':
			return j + 1
		case c == '\\' || c < 0x20 || c >= 0x7f:
			return -1
		}
	}
}

// appendPyString appends the JSON string token tok as Python writes it,
// spelled as sp says.
func appendPyString(out, tok []byte, sp *pySpell) []byte {
	plain := true
	for _, c := range tok[1 : len(tok)-1] {
		if c == '\\' || c < 0x20 || c >= 0x7f {
			plain = false
			break
		}
	}
	if plain {
		if sp.html {
			return appendHTML(out, tok)
		}
		return append(out, tok...)
	}
	// jsontext reads the token as json.Unmarshal would, in a fraction of
	// its instructions (a tool input's long strings are full of escapes);
	// what it declines goes to encoding/json.
	var r jsontext.Reader
	r.Reset(tok)
	if b := r.Str(); !r.Failed() && r.End() {
		return appendPy(out, string(b), sp)
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		// The token as it is, spelled as sp says (not for a token of
		// valid JSON, which is all appendReformat gives).
		switch {
		case sp.bs != `\` && sp.html:
			return appendHTMLFormatted(out, string(tok))
		case sp.bs != `\`:
			return appendFormatted(out, tok)
		case sp.html:
			return appendHTML(out, tok)
		}
		return append(out, tok...)
	}
	return appendPy(out, s, sp)
}

// appendMetaData appends JSON text as the data attribute of a meta
// element holds it: kept as it is but for non-ASCII characters, which
// become \u escapes as json.dumps's ensure_ascii writes them (they can
// only sit inside strings), and line breaks between tokens, which are
// removed; then HTML-escaped (htmlEscape). It is how the producer's
// metadata looks, applied to metadata that came from the envelope. Text
// that is not JSON is written as a JSON string.
//
// One pass over the payload and no allocation (the payload is a whole
// meta_final, result included): it did the same in four passes and five
// copies, with an allocation per non-ASCII character.
func appendMetaData(b, raw []byte) []byte {
	if out, ok := appendMetaOnePass(b, raw); ok {
		return out
	}
	// What appendMetaOnePass wrote past len(b) is written over.
	return appendMetaDataPasses(b, raw)
}

// appendMetaDataPasses is appendMetaData in passes: any raw.
func appendMetaDataPasses(b, raw []byte) []byte {
	if !validJSON(raw) {
		s, _ := json.Marshal(string(raw))
		raw = s
	}
	if bytes.IndexByte(raw, '\n') >= 0 || bytes.IndexByte(raw, '\r') >= 0 {
		var buf bytes.Buffer
		json.Compact(&buf, raw)
		raw = buf.Bytes()
	}
	return appendASCIIData(b, raw)
}

// appendASCIIData is appendMetaData for one line of valid JSON text, such
// as marshal writes.
func appendASCIIData(b, raw []byte) []byte {
	for i := 0; i < len(raw); {
		j := i + metaPlainLen(raw[i:])
		b = append(b, raw[i:j]...)
		if j == len(raw) {
			break
		}
		if c := raw[j]; c < utf8.RuneSelf {
			b = append(b, htmlEntity(c)...)
			i = j + 1
			continue
		}
		r, n := utf8.DecodeRune(raw[j:])
		b = appendU(b, r)
		i = j + n
	}
	return b
}

// metaPlainLen returns the length of b's prefix of bytes metaPlain marks
// plain, looking at eight bytes at a time (a payload is mostly plain
// runs). appendASCIIData runs it for the payloads built by marshal and
// for those appendMetaOnePass declines.
func metaPlainLen(b []byte) int {
	const (
		ones  = 0x0101010101010101
		highs = 0x8080808080808080
	)
	i := 0
	for ; i+8 <= len(b); i += 8 {
		w := binary.LittleEndian.Uint64(b[i:])
		// A byte of x is zero where w has that special byte; (x-ones)&^x
		// has its high bit set if any byte of x is zero. w's own high
		// bits are the bytes outside ASCII.
		amp, lt, gt := w^(ones*'&'), w^(ones*'<'), w^(ones*'>')
		quot, apos := w^(ones*'"'), w^(ones*'\'')
		if ((amp-ones)&^amp|(lt-ones)&^lt|(gt-ones)&^gt|(quot-ones)&^quot|(apos-ones)&^apos|w)&highs != 0 {
			break
		}
	}
	for i < len(b) && metaPlain[b[i]] == 0 {
		i++
	}
	return i
}

// metaPlain marks the bytes appendMetaData copies as they are: ASCII but
// what htmlEscape escapes (checked by TestByteSets).
var metaPlain = func() (t [256]byte) {
	for c := range 256 {
		if c >= utf8.RuneSelf || htmlSpecial[c] == 1 {
			t[c] = 1
		}
	}
	return t
}()

// appendU appends the \u escape of r, a surrogate pair above U+FFFF, as
// json.dumps writes a character outside ASCII.
func appendU(out []byte, r rune) []byte { return appendUPrefix(out, r, `\`) }

// appendUPrefix is appendU with bs, one backslash or two, before each u.
func appendUPrefix(out []byte, r rune, bs string) []byte {
	u := func(out []byte, r rune) []byte {
		return append(append(out, bs...), 'u', hexLower[r>>12&0xf], hexLower[r>>8&0xf], hexLower[r>>4&0xf], hexLower[r&0xf])
	}
	if r > 0xffff {
		r -= 0x10000
		out = u(out, 0xd800+(r>>10))
		return u(out, 0xdc00+(r&0x3ff))
	}
	return u(out, r)
}

// validJSON is json.Valid, in one pass with jsontext.Reader when it
// reads raw (it reads a subset of JSON), else with encoding/json.
func validJSON(raw []byte) bool {
	var r jsontext.Reader
	return jsontext.Valid(&r, raw)
}

// htmlEscape is Python's html.escape(s, quote=True): s itself when it
// holds nothing to escape.
func htmlEscape(s string) string {
	i := indexHTML(s)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/8 + 8)
	for i >= 0 {
		b.WriteString(s[:i])
		b.WriteString(htmlEntity(s[i]))
		s = s[i+1:]
		i = indexHTML(s)
	}
	b.WriteString(s)
	return b.String()
}

// appendHTML appends htmlEscape(s).
func appendHTML[T string | []byte](b []byte, s T) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		if c := s[i]; htmlSpecial[c] == 1 {
			b = append(append(b, s[start:i]...), htmlEntity(c)...)
			start = i + 1
		}
	}
	return append(b, s[start:]...)
}

// appendHTMLFormatted appends formatter's escaping of htmlEscape(s): the
// bytes of both sets escaped in one pass (neither escaping writes a byte
// the other escapes).
func appendHTMLFormatted(b []byte, s string) []byte {
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if htmlSpecial[c] == 0 && formatterSpecial[c] == 0 {
			continue
		}
		b = append(b, s[start:i]...)
		start = i + 1
		if formatterSpecial[c] != 0 {
			b = appendFormatterEscape(b, c)
		} else {
			b = append(b, htmlEntity(c)...)
		}
	}
	return append(b, s[start:]...)
}

// htmlEntity returns what htmlEscape writes for c, one of the bytes it
// escapes.
func htmlEntity(c byte) string {
	switch c {
	case '&':
		return "&amp;"
	case '<':
		return "&lt;"
	case '>':
		return "&gt;"
	case '"':
		return "&quot;"
	case '\'':
		return "&#x27;"
	}
	return string(rune(c))
}

// indexHTML returns the index of the first byte of s that htmlEscape
// escapes, or -1.
func indexHTML(s string) int { return indexIn(s, htmlSpecial) }

// indexIn returns the index of the first byte c of s with set[c] == 1, or
// -1.
func indexIn[T string | []byte](s T, set string) int {
	for i := 0; i < len(s); i++ {
		if set[s[i]] == 1 {
			return i
		}
	}
	return -1
}

// indexFormatter is indexIn(s, formatterSpecial), the formatter's
// search of every delta, looking at eight bytes at a time (a delta's
// text is mostly free of backslashes and line breaks). The last bytes
// of an s of eight or more are looked at in its last word, which
// overlaps the bytes already looked at: none of those is marked, nor
// does one carry a mark into the bytes after it, so the lowest mark
// is the first byte to find.
func indexFormatter[T string | []byte](s T) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		if m := formatterStops(load8(s, i)); m != 0 {
			return i + bits.TrailingZeros64(m)>>3
		}
	}
	if i == len(s) {
		return -1
	}
	if i >= 8 {
		if m := formatterStops(load8(s, len(s)-8)); m != 0 {
			return len(s) - 8 + bits.TrailingZeros64(m)>>3
		}
		return -1
	}
	if j := indexIn(s[i:], formatterSpecial); j >= 0 {
		return i + j
	}
	return -1
}

// formatterStops marks the high bit of each byte of w, eight bytes, that
// is a backslash, LF or CR: a byte of bs, lf or cr is zero where w has
// that byte. The lowest mark is exact, those above it may not be (a
// borrow carries into the byte above).
func formatterStops(w uint64) uint64 {
	bs, lf, cr := w^(ones8*'\\'), w^(ones8*'\n'), w^(ones8*'\r')
	return ((bs-ones8)&^bs | (lf-ones8)&^lf | (cr-ones8)&^cr) & highs8
}

// htmlSpecial and formatterSpecial are byte sets for indexIn (checked
// by TestByteSets): & < > " ' for htmlEscape, and the backslash, LF and
// CR for the formatter's escaping.
const (
	htmlSpecial      = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
	formatterSpecial = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
)

// marshal is json.Marshal without HTML escaping, rewritten as Python's
// json.dumps.
func marshal(v any) []byte {
	b, _ := jsontext.AppendMarshal(nil, v, false)
	return pyJSON(b)
}
