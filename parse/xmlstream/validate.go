package xmlstream

import (
	"bufio"
	"bytes"
	"io"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// The format's validate rules (docs/validate.md).
const (
	ruleStructure  = "XML001"
	ruleAttributes = "XML002"
	ruleEscaping   = "XML003"
)

func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleStructure, Name: "element-structure", Doc: "outside text and thinking blocks the stream is known elements and white space; close tags match open ones; a text or thinking block is closed before another block opens"},
		{ID: ruleAttributes, Name: "required-attributes", Doc: "elements carry their attributes: id, name and arguments on tool calls; id and name on tool results; data on meta_init, meta_final and awaiting_frontend_tools; type on citation; src and media_type on image"},
		{ID: ruleEscaping, Name: "escaping", Doc: "every line is an SSE field (a raw newline in a chunk breaks the framing); attribute values have no raw < and only known entities after &"},
	}
}

type pos = wirecheck.Pos

// The legacy XML stream's elements, by what they hold.
var (
	// xmlStreamed hold raw text, delta by delta, between an open tag and
	// a close tag that each come as a message of their own.
	xmlStreamed = []string{TagText, TagThinking}
	// xmlWhole come complete: an open tag, content, a close tag.
	xmlWhole = []string{
		TagMetaInit, TagMetaFinal, TagAwaitingTools, TagToolCall,
		TagServerToolCall, TagToolResult, TagServerToolResult, TagError,
		TagMetaFiles, TagCitations,
	}
	// xmlRequired lists the attributes each element must carry.
	xmlRequired = map[string][]string{
		TagMetaInit:         {"data"},
		TagMetaFinal:        {"data"},
		TagAwaitingTools:    {"data"},
		TagToolCall:         {"id", "name", "arguments"},
		TagServerToolCall:   {"id", "name", "arguments"},
		TagToolResult:       {"id", "name"},
		TagServerToolResult: {"id", "name"},
		TagCitation:         {"type"},
		TagResultImage:      {"src", "media_type"},
	}
	// xmlRE holds the checker's patterns, compiled on its first use:
	// every command links this package, and only the checker needs them.
	xmlRE = sync.OnceValue(func() (re struct{ tag, attr, entity, inner *regexp.Regexp }) {
		re.tag = regexp.MustCompile(`^<(/?)([A-Za-z][A-Za-z0-9_:-]*)((?:[^>"]|"[^"]*")*?)(/?)>`)
		re.attr = regexp.MustCompile(`([A-Za-z_][A-Za-z0-9_:-]*)\s*=\s*"([^"]*)"`)
		re.entity = regexp.MustCompile(`^&(?:amp|lt|gt|quot|apos|#x[0-9A-Fa-f]+|#[0-9]+);`)
		re.inner = regexp.MustCompile(`<(citation|image)\b((?:[^>"]|"[^"]*")*)>`)
		return re
	})
)

// xmlKnown reports whether name is an element of the stream's top level.
func xmlKnown(name string) bool {
	return slices.Contains(xmlStreamed, name) || slices.Contains(xmlWhole, name) ||
		strings.HasPrefix(name, blockPrefix) && strings.HasSuffix(name, resultSuffix)
}

// xmlChecker holds the state of the legacy XML checker.
type xmlChecker struct {
	v       *wirecheck.Checker
	block   string // the streamed block open, if any
	closing *pos   // a close tag of block seen; confirmed by what follows
	pending strings.Builder
	pendPos pos
	framing int // framing violations reported
}

// check checks the wire rules of the legacy XML stream: SSE framing (a raw
// newline in a chunk breaks it), element structure, required attributes
// and attribute escaping.
func check(r io.Reader, cfg *format.CheckConfig, rep format.Reporter) {
	v := &wirecheck.Checker{Rep: rep, Cfg: cfg}
	x := &xmlChecker{v: v}
	br := bufio.NewReaderSize(r, 64<<10)
	var data strings.Builder
	has := false
	start, num := 0, 0
	for {
		line, err := br.ReadString('\n')
		if line == "" && err != nil {
			break
		}
		num++
		line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
		if num == 1 {
			line = strings.TrimPrefix(line, "\xef\xbb\xbf")
		}
		switch {
		case line == "":
			if has {
				x.message(data.String(), pos{Line: start, Col: 1})
			}
			data.Reset()
			has = false
		case strings.HasPrefix(line, "data:"):
			if !has {
				start = num
			} else {
				data.WriteByte('\n')
			}
			has = true
			data.WriteString(strings.TrimPrefix(line[len("data:"):], " "))
		case line[0] == ':' || strings.HasPrefix(line, "event:") || strings.HasPrefix(line, "id:") || strings.HasPrefix(line, "retry:"):
		default:
			if x.framing < 5 {
				v.Report(ruleEscaping, pos{Line: num, Col: 1}, "line is not an SSE field: a raw newline in a chunk broke the SSE framing (the oldest producer)")
			}
			x.framing++
		}
		if err != nil {
			break
		}
	}
	if has {
		x.message(data.String(), pos{Line: start, Col: 1})
	}
	x.closing = nil
}

// message checks one SSE message's data.
func (x *xmlChecker) message(m string, p pos) {
	if m == "[DONE]" || (strings.HasPrefix(m, "{") && strings.Contains(m, `"error"`)) {
		x.closing = nil
		x.block = ""
		return
	}
	if x.block != "" {
		if x.closing != nil {
			// The close tag seen before ended the block only if a tag
			// follows it; text means it was text (a delta that looks
			// like the tag).
			if t := strings.TrimLeft(m, " \t\n"); strings.HasPrefix(t, "<") && xmlRE().tag.MatchString(t) {
				x.block, x.closing = "", nil
				x.top(m, p)
				return
			}
			x.closing = nil
		}
		if m == "</"+x.block+">" {
			x.closing = &p
			return
		}
		if t := xmlRE().tag.FindStringSubmatch(m); t != nil && t[1] == "" && t[0] == m && xmlKnown(t[2]) && slices.Contains(xmlStreamed, t[2]) {
			x.v.Report(ruleStructure, p, "<%s> opens while <%s> is open", t[2], x.block)
		}
		return // text of the block
	}
	x.top(m, p)
}

// top checks top-level content: known elements and white space.
func (x *xmlChecker) top(m string, p pos) {
	if x.pending.Len() == 0 {
		x.pendPos = p
	}
	x.pending.WriteString(m)
	s := x.pending.String()
	at := x.pendPos
	for {
		s = strings.TrimLeft(s, " \t\r\n")
		if s == "" {
			break
		}
		if !strings.HasPrefix(s, "<") {
			end := strings.IndexByte(s, '<')
			if end < 0 {
				end = len(s)
			}
			x.v.Report(ruleStructure, at, "text outside any block: %s", quoteClip(s[:end]))
			s = s[end:]
			continue
		}
		t := xmlRE().tag.FindStringSubmatch(s)
		if t == nil {
			if !strings.Contains(s, ">") {
				break // a tag split across messages: wait for the rest
			}
			x.v.Report(ruleStructure, at, "not a tag: %s", quoteClip(s))
			s = ""
			break
		}
		closing, name, attrs, self := t[1] == "/", t[2], t[3], t[4] == "/"
		if !xmlKnown(name) {
			x.v.Report(ruleStructure, at, "<%s%s> is not an element of the stream", t[1], name)
			s = s[len(t[0]):]
			continue
		}
		if closing {
			x.v.Report(ruleStructure, at, "</%s> closes no open element", name)
			s = s[len(t[0]):]
			continue
		}
		x.attributes(name, attrs, at)
		rest := s[len(t[0]):]
		if slices.Contains(xmlStreamed, name) {
			x.block = name
			s = ""
			if rest != "" {
				// Text in the same message as the open tag.
				if i := strings.Index(rest, "</"+name+">"); i >= 0 {
					x.block = ""
					s = rest[i+len(name)+3:]
					continue
				}
			}
			break
		}
		if self {
			s = rest
			continue
		}
		end, ok := xmlElementEnd(rest, name)
		if !ok {
			x.pending.Reset()
			x.pending.WriteString(s)
			return // the element goes on in the next message
		}
		for _, in := range xmlRE().inner.FindAllStringSubmatch(rest[:end], -1) {
			x.attributes(in[1], in[2], at)
		}
		s = rest[end:]
	}
	x.pending.Reset()
	if s != "" {
		x.pending.WriteString(s)
	}
}

// xmlElementEnd returns the offset in rest just past the close tag of
// name, skipping CDATA sections.
func xmlElementEnd(rest, name string) (int, bool) {
	closeTag := "</" + name + ">"
	i := 0
	for i < len(rest) {
		c := strings.Index(rest[i:], closeTag)
		d := strings.Index(rest[i:], "<![CDATA[")
		if c < 0 {
			return 0, false
		}
		if d >= 0 && d < c {
			e := strings.Index(rest[i+d:], "]]>")
			if e < 0 {
				return 0, false
			}
			i += d + e + 3
			continue
		}
		return i + c + len(closeTag), true
	}
	return 0, false
}

// attributes checks the attributes of one tag.
func (x *xmlChecker) attributes(name, attrs string, at pos) {
	have := map[string]bool{}
	for _, a := range xmlRE().attr.FindAllStringSubmatch(attrs, -1) {
		have[a[1]] = true
		val := a[2]
		if strings.Contains(val, "<") {
			x.v.Report(ruleEscaping, at, "attribute %s of <%s> has a raw <", a[1], name)
		}
		for i := 0; i < len(val); i++ {
			if val[i] == '&' && !xmlRE().entity.MatchString(val[i:]) {
				x.v.Report(ruleEscaping, at, "attribute %s of <%s> has an & that starts no entity: %s", a[1], name, quoteClip(val[i:]))
				break
			}
		}
	}
	for _, want := range xmlRequired[name] {
		if !have[want] {
			x.v.Report(ruleAttributes, at, "<%s> has no %s attribute", name, want)
		}
	}
}

func quoteClip(s string) string {
	return "\"" + wirecheck.Clip(string(bytes.TrimSpace([]byte(s)))) + "\""
}
