package xml

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
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
	if !validJSON(raw) {
		s, _ := json.Marshal(string(raw))
		raw = s
	}
	out := make([]byte, 0, len(raw)+len(raw)/8)
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
			end := stringEnd(raw, i)
			out = appendPyString(out, raw[i:end])
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

// appendPyString appends the JSON string token tok as Python writes it.
func appendPyString(out, tok []byte) []byte {
	plain := true
	for _, c := range tok[1 : len(tok)-1] {
		if c == '\\' || c < 0x20 || c >= 0x7f {
			plain = false
			break
		}
	}
	if plain {
		return append(out, tok...)
	}
	var s string
	if json.Unmarshal(tok, &s) != nil {
		return append(out, tok...)
	}
	return appendPyQuoted(out, s)
}

// appendPyQuoted appends s as a JSON string with ensure_ascii.
func appendPyQuoted(out []byte, s string) []byte {
	const hex = "0123456789abcdef"
	u := func(out []byte, r rune) []byte {
		return append(out, '\\', 'u', hex[r>>12&0xf], hex[r>>8&0xf], hex[r>>4&0xf], hex[r&0xf])
	}
	out = append(out, '"')
	for _, r := range s {
		switch {
		case r == '"':
			out = append(out, '\\', '"')
		case r == '\\':
			out = append(out, '\\', '\\')
		case r == '\n':
			out = append(out, '\\', 'n')
		case r == '\r':
			out = append(out, '\\', 'r')
		case r == '\t':
			out = append(out, '\\', 't')
		case r == '\b':
			out = append(out, '\\', 'b')
		case r == '\f':
			out = append(out, '\\', 'f')
		case r >= 0x20 && r < 0x7f:
			out = append(out, byte(r))
		case r > 0xffff:
			r -= 0x10000
			out = u(out, 0xd800+(r>>10))
			out = u(out, 0xdc00+(r&0x3ff))
		default:
			out = u(out, r)
		}
	}
	return append(out, '"')
}

// asciiJSON keeps JSON text as it is but for non-ASCII characters, which
// become \u escapes (they can only sit inside strings), and line breaks
// between tokens, which are removed. It is how the producer's ensure_ascii
// metadata looks, applied to metadata that came from the envelope.
func asciiJSON(raw []byte) []byte {
	if !validJSON(raw) {
		s, _ := json.Marshal(string(raw))
		raw = s
	}
	if asciiOneLine(raw) {
		return raw
	}
	if bytes.ContainsAny(raw, "\r\n") {
		var buf bytes.Buffer
		json.Compact(&buf, raw)
		raw = buf.Bytes()
	}
	var out []byte
	for i := 0; i < len(raw); {
		c := raw[i]
		if c < utf8.RuneSelf {
			out = append(out, c)
			i++
			continue
		}
		r, n := utf8.DecodeRune(raw[i:])
		q := appendPyQuoted(nil, string(r))
		out = append(out, q[1:len(q)-1]...)
		i += n
	}
	return out
}

// validJSON is json.Valid, in one pass with jsontext.Reader when it
// reads raw (it reads a subset of JSON), else with encoding/json.
func validJSON(raw []byte) bool {
	var r jsontext.Reader
	r.Reset(raw)
	r.Skip()
	return r.End() || json.Valid(raw)
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
		switch s[i] {
		case '&':
			b.WriteString("&amp;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&quot;")
		case '\'':
			b.WriteString("&#x27;")
		}
		s = s[i+1:]
		i = indexHTML(s)
	}
	b.WriteString(s)
	return b.String()
}

// indexHTML returns the index of the first byte of s that htmlEscape
// escapes, or -1.
func indexHTML(s string) int { return indexIn(s, htmlSpecial) }

// indexIn returns the index of the first byte c of s with set[c] == 1, or
// -1.
func indexIn(s, set string) int {
	for i := 0; i < len(s); i++ {
		if set[s[i]] == 1 {
			return i
		}
	}
	return -1
}

// htmlSpecial and formatterSpecial are byte sets for indexIn (checked
// by TestByteSets): & < > " ' for htmlEscape, and the backslash, LF and
// CR for the formatter's escaping.
const (
	htmlSpecial      = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
	formatterSpecial = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"
)

// asciiOneLine reports whether b is all ASCII, with no CR or LF.
func asciiOneLine(b []byte) bool {
	if bytes.IndexByte(b, '\n') >= 0 || bytes.IndexByte(b, '\r') >= 0 {
		return false
	}
	for ; len(b) >= 8; b = b[8:] {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// marshal is json.Marshal without HTML escaping, rewritten as Python's
// json.dumps.
func marshal(v any) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	return pyJSON(bytes.TrimSuffix(buf.Bytes(), []byte("\n")))
}
