package xmlstream

import (
	"bytes"
	"encoding/binary"
	"math/bits"
	"strconv"
	"strings"
	"unicode/utf8"
)

// tag is a parsed start, end or empty-element tag.
type tag struct {
	name      string
	close     bool // </name>
	selfClose bool // <name/>
	attrs     []attr
}

// attr is an attribute, its value entity-decoded. The data attribute (a
// meta element's payload: a whole run's result in meta_final) is kept as
// bytes, which agentmeta keeps as they are: string(data) would be one
// more copy of it.
type attr struct {
	name, value string
	data        []byte // the value of the data attribute, which has no value
}

func (t *tag) attr(name string) (string, bool) {
	for _, a := range t.attrs {
		if a.name == name {
			if a.name == attrData {
				return string(a.data), true
			}
			return a.value, true
		}
	}
	return "", false
}

// dataAttr returns the value of the data attribute, owned by the caller.
func (t *tag) dataAttr() []byte {
	for _, a := range t.attrs {
		if a.name == attrData {
			return a.data
		}
	}
	return nil
}

// attrData is the name of the attribute parseAttrs keeps as bytes.
const attrData = "data"

// knownName returns b as a string: one of the tag and attribute names the
// producer writes without allocating, any other name as a copy.
func knownName(b []byte) string {
	switch string(b) {
	case TagMetaInit:
		return TagMetaInit
	case TagMetaFinal:
		return TagMetaFinal
	case TagThinking:
		return TagThinking
	case TagText:
		return TagText
	case TagToolCall:
		return TagToolCall
	case TagToolResult:
		return TagToolResult
	case attrData:
		return attrData
	case "id":
		return "id"
	case "name":
		return "name"
	case "arguments":
		return "arguments"
	}
	return string(b)
}

func (t *tag) get(name string) string {
	v, _ := t.attr(name)
	return v
}

// match is the outcome of looking at a prefix of the input.
type match int

const (
	no match = iota
	yes
	more // the input seen so far is a prefix: wait for more
)

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func isNameStart(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

func isNameByte(c byte) bool {
	return isNameStart(c) || c >= '0' && c <= '9' || c == '_' || c == '-' || c == ':' || c == '.'
}

// tagScan is where scanning a long tag stopped, so that a tag arriving in
// many pieces is scanned once.
type tagScan struct {
	pos   int  // bytes of the tag scanned so far (0: not started)
	quote byte // the quote the scan is inside, or 0
	work  int64
	buf   []byte // scratch for entity-decoding attribute values
}

// maxName is the longest tag name looked for: longer names are text.
// With it, a name arriving in many pieces costs a bounded rescan.
const maxName = 256

// scanTag looks for a complete tag at the start of b (b[0] == '<'). It
// reports more when b may be the start of a tag that has not all arrived,
// and no when b does not start a tag (or a tag longer than max), in which
// case the '<' is text. On yes, n is the tag's length. On no, n is the
// length of b when the scan went through all of it without finding the
// tag's end (the input ended, or max was passed): no tag starting inside
// those bytes is looked for again, which keeps the decoder linear
// whatever the input (many unterminated tag starts would otherwise be
// scanned again from each of them).
func scanTag(b []byte, eof bool, max int, sc *tagScan) (t tag, n int, m match) {
	i := 1
	if i < len(b) && b[i] == '/' {
		t.close = true
		i++
	}
	if i >= len(b) {
		return t, 0, moreOrNo(eof)
	}
	if !isNameStart(b[i]) {
		return t, 0, no
	}
	start := i
	for i < len(b) && isNameByte(b[i]) && i-start <= maxName {
		i++
	}
	sc.work += int64(i - start)
	if i-start > maxName {
		return t, 0, no
	}
	if i >= len(b) {
		return t, 0, moreOrNo(eof)
	}
	t.name = knownName(b[start:i])
	nameEnd := i
	if c := b[i]; !isSpace(c) && c != '>' && c != '/' {
		return t, 0, no
	}
	if sc.pos > i {
		i = sc.pos
	}
	quote := sc.quote
	end := -1
	from := i
	for i < len(b) {
		if quote != 0 {
			j := bytes.IndexByte(b[i:], quote)
			if j < 0 {
				i = len(b)
				break
			}
			i += j + 1
			quote = 0
			continue
		}
		j := bytes.IndexAny(b[i:], `"'>`)
		if j < 0 {
			i = len(b)
			break
		}
		i += j
		if b[i] == '>' {
			end = i
			break
		}
		quote = b[i]
		i++
	}
	sc.work += int64(i - from)
	if end < 0 {
		if len(b) > max || eof {
			sc.pos, sc.quote = 0, 0
			return t, len(b), no
		}
		sc.pos, sc.quote = i, quote
		return t, 0, more
	}
	sc.pos, sc.quote = 0, 0
	body := b[nameEnd:end]
	if k := len(bytes.TrimRight(body, " \t\r\n")); k > 0 && body[k-1] == '/' {
		t.selfClose = true
		body = body[:k-1]
	}
	t.attrs = parseAttrs(body, &sc.buf)
	return t, end + 1, yes
}

func moreOrNo(eof bool) match {
	if eof {
		return no
	}
	return more
}

// parseAttrs reads name="v", name='v' and name=v; values are
// entity-decoded once, in scratch.
func parseAttrs(b []byte, scratch *[]byte) []attr {
	var attrs []attr
	for i := 0; i < len(b); {
		for i < len(b) && (isSpace(b[i]) || b[i] == '/') {
			i++
		}
		start := i
		for i < len(b) && !isSpace(b[i]) && b[i] != '=' && b[i] != '/' {
			i++
		}
		if i == start {
			i++
			continue
		}
		name := knownName(b[start:i])
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		if i >= len(b) || b[i] != '=' {
			attrs = appendAttr(attrs, attr{name: name})
			continue
		}
		i++
		for i < len(b) && isSpace(b[i]) {
			i++
		}
		var v []byte
		if i < len(b) && (b[i] == '"' || b[i] == '\'') {
			q := b[i]
			i++
			vs := i
			if j := bytes.IndexByte(b[i:], q); j >= 0 {
				i += j
			} else {
				i = len(b)
			}
			v = b[vs:i]
			i++
		} else {
			vs := i
			for i < len(b) && !isSpace(b[i]) {
				i++
			}
			v = b[vs:i]
		}
		if name == attrData {
			data := make([]byte, len(v))
			n := unescapeTo(data, v)
			attrs = appendAttr(attrs, attr{name: name, data: data[:n:n]})
			continue
		}
		attrs = appendAttr(attrs, attr{name: name, value: unescapeEntities(v, scratch)})
	}
	return attrs
}

// appendAttr is append, starting attrs at the size of the producer's
// tags: one data attribute (the meta elements), or up to four (a tool
// call's id, name and arguments), not growing it from one to four in
// three allocations.
func appendAttr(attrs []attr, a attr) []attr {
	if attrs == nil {
		n := 4
		if a.name == attrData {
			n = 1
		}
		attrs = make([]attr, 0, n)
	}
	return append(attrs, a)
}

// unescapeEntities decodes the five XML entities and numeric character
// references, once: "&amp;#60;" is the text "&#60;". Anything else after
// '&' is kept as it is.
func unescapeEntities(b []byte, scratch *[]byte) string {
	if bytes.IndexByte(b, '&') < 0 {
		return string(b)
	}
	if cap(*scratch) < len(b) {
		*scratch = make([]byte, len(b))
	}
	out := (*scratch)[:len(b)]
	return string(out[:unescapeTo(out, b)])
}

// unescapeTo writes b with its entities decoded, as unescapeEntities
// returns it, to out (len(out) >= len(b): decoding never makes a text
// longer) and returns its length. The JSON of a meta element has an
// &quot; every few bytes, and runs of thousands of bytes without one (a
// run's result text): after an entity the next 16 bytes are looked at
// eight at a time, copied whole and searched without a call, and only
// a longer run goes to IndexByte and copy, not one IndexByte and one
// memmove per entity; appendUnescaped, that loop, is the tests' reference.
func unescapeTo(out, b []byte) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	out = out[:len(b)]
	size := len(out)
	// b is what is left to read, out what is left to write (len(out) >=
	// len(b)): moved on, not indexed, so that the compiler drops the
	// bounds checks of the loads and stores.
	for len(b) > 0 {
		// Find the next '&' (or the end), copying what comes before it.
		near := false
		for t := 0; t < 2 && len(b) >= 8 && len(out) >= 8; t++ {
			w := binary.LittleEndian.Uint64(b)
			binary.LittleEndian.PutUint64(out, w)
			// The bytes of x that are zero are the '&' of w; the mask
			// has the high bit of the first of them set (of later ones
			// too, maybe, through a borrow: only the first counts).
			x := w ^ (ones * '&')
			if m := (x - ones) &^ x & highs; m != 0 {
				k := bits.TrailingZeros64(m) >> 3
				b, out = b[k:], out[k:]
				if len(b) >= 8 && binary.LittleEndian.Uint64(b)&(1<<48-1) == quotWord {
					// The commonest entity, decoded here, and the
					// run after it looked at as a new one.
					out[0] = '"'
					b, out = b[6:], out[1:]
					t = -1
					continue
				}
				near = true
				break
			}
			b, out = b[8:], out[8:]
		}
		if !near {
			k := bytes.IndexByte(b, '&')
			if k < 0 {
				return size - len(out) + copy(out, b)
			}
			copy(out, b[:k])
			b, out = b[k:], out[k:]
		}
		// b[0] is '&'; &quot; is tested in one load (entity reads the
		// last bytes of b).
		if len(b) >= 8 && binary.LittleEndian.Uint64(b)&(1<<48-1) == quotWord {
			out[0] = '"'
			b, out = b[6:], out[1:]
			continue
		}
		n, r := entity(b)
		if n == 0 {
			out[0] = '&'
			b, out = b[1:], out[1:]
			continue
		}
		k := copy(out, r) // len(r) < n
		b, out = b[n:], out[k:]
	}
	return size - len(out)
}

// quotWord is "&quot;" read as the low six bytes of a little-endian word.
const quotWord = 0x3b746f757126

func entity(b []byte) (int, string) {
	// The named entities first, without looking for the ';' (the same
	// answers: each has its ';' where the general case finds it).
	if len(b) >= 4 {
		switch {
		case b[1] == 'q' && len(b) >= 6 && string(b[:6]) == "&quot;":
			return 6, `"`
		case b[1] == 'a' && len(b) >= 5 && string(b[:5]) == "&amp;":
			return 5, "&"
		case string(b[:4]) == "&lt;":
			return 4, "<"
		case string(b[:4]) == "&gt;":
			return 4, ">"
		}
	}
	semi := bytes.IndexByte(b, ';')
	if semi < 2 || semi > 12 {
		return 0, ""
	}
	name := string(b[1:semi])
	switch name {
	case "amp":
		return semi + 1, "&"
	case "lt":
		return semi + 1, "<"
	case "gt":
		return semi + 1, ">"
	case "quot":
		return semi + 1, `"`
	case "apos":
		return semi + 1, "'"
	}
	if name[0] != '#' {
		return 0, ""
	}
	var v uint64
	var err error
	if len(name) > 1 && (name[1] == 'x' || name[1] == 'X') {
		v, err = strconv.ParseUint(name[2:], 16, 32)
	} else {
		v, err = strconv.ParseUint(name[1:], 10, 32)
	}
	if err != nil || !utf8.ValidRune(rune(v)) {
		return 0, ""
	}
	return semi + 1, string(rune(v))
}

// matchClose reports whether b starts with the end tag of element name
// ("</", name), optional white space and '>'; n is its length. (Taking
// the name, not "</"+name, saves a concatenation per call.)
func matchClose(b []byte, name string, eof bool) (int, match) {
	start := len("</") + len(name)
	if len(b) < start {
		if !eof && isEndTagPrefix(b, name) {
			return 0, more
		}
		return 0, no
	}
	if !isEndTagPrefix(b[:start], name) {
		return 0, no
	}
	i := start
	for i < len(b) && isSpace(b[i]) && i-start < maxName {
		i++
	}
	if i-start >= maxName {
		return 0, no // so much white space is not an end tag's
	}
	if i >= len(b) {
		return 0, moreOrNo(eof)
	}
	if b[i] != '>' {
		return 0, no
	}
	return i + 1, yes
}

// isEndTagPrefix reports whether b, at most len("</"+name) bytes, is a
// prefix of "</"+name.
func isEndTagPrefix(b []byte, name string) bool {
	switch len(b) {
	case 0:
		return true
	case 1:
		return b[0] == '<'
	}
	return b[0] == '<' && b[1] == '/' && string(b[2:]) == name[:len(b)-2]
}

// hasPrefixOrMore is matchClose for a fixed string.
func hasPrefixOrMore(b []byte, s string, eof bool) match {
	if len(b) < len(s) {
		if !eof && string(b) == s[:len(b)] {
			return more
		}
		return no
	}
	if string(b[:len(s)]) == s {
		return yes
	}
	return no
}

// tagNameAt returns the name of the tag b starts with (b[0] == '<'),
// without waiting for the whole tag.
func tagNameAt(b []byte, eof bool) (string, match) {
	i := 1
	if i >= len(b) {
		return "", moreOrNo(eof)
	}
	if !isNameStart(b[i]) {
		return "", no
	}
	for i < len(b) && isNameByte(b[i]) && i <= maxName {
		i++
	}
	if i > maxName {
		return "", no
	}
	if i >= len(b) && !eof {
		return "", more
	}
	if i < len(b) && !isSpace(b[i]) && b[i] != '>' && b[i] != '/' {
		return "", no
	}
	return string(b[1:i]), yes
}

// isResultTag reports whether name is a tool result element: the client
// and server result tags and the compatibility *_tool_result tags.
func isResultTag(name string) bool {
	return name == TagToolResult || name == TagServerToolResult || strings.HasSuffix(name, resultSuffix)
}

// isTopTag reports whether name starts a top-level element.
func isTopTag(name string) bool {
	switch name {
	case TagText, TagThinking, TagToolCall, TagServerToolCall, TagError, TagMetaFiles,
		TagMetaInit, TagMetaFinal, TagAwaitingTools, TagCitations:
		return true
	}
	return isResultTag(name)
}

// knownTopAt reports whether b starts with the start tag of a top-level
// element: what may follow a block's real end tag.
func knownTopAt(b []byte, eof bool) match {
	name, m := tagNameAt(b, eof)
	if m != yes {
		return m
	}
	if isTopTag(name) {
		return yes
	}
	return no
}

// startsTopTag reports whether name is, or begins, the name of a top-level
// element.
func startsTopTag(name string) bool {
	if isTopTag(name) || strings.HasPrefix(name, blockPrefix) || strings.HasPrefix(blockPrefix, name) {
		return true
	}
	for _, t := range []string{TagMetaInit, TagMetaFinal, TagAwaitingTools, TagCitations} {
		if strings.HasPrefix(t, name) {
			return true
		}
	}
	return false
}
