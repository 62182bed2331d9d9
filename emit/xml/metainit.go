package xml

import (
	"math"
	"slices"
	"strconv"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// appendMetaInit appends the data attribute of the meta_init element
// metaInit builds from ev's fields (not the producer's own): the payload
// as marshal writes it, HTML-escaped as appendASCIIData would, written in
// one pass without reflection: one run's meta_init is written for every
// run of a log of many tiny runs. tools is a cache of the last tools list
// written.
func appendMetaInit(b []byte, agent string, ev *event.SessionStart, tools *toolsCache) []byte {
	b = append(b, `{&quot;format&quot;: &quot;xml&quot;, &quot;user_query&quot;: `...)
	b = appendPyQuotedHTML(b, ev.Prompt)
	b = append(b, `, &quot;agent_uuid&quot;: `...)
	b = appendPyQuotedHTML(b, agent)
	b = append(b, `, &quot;parent_agent_uuid&quot;: `...)
	if ev.ParentAgent != "" {
		b = appendPyQuotedHTML(b, ev.ParentAgent)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `, &quot;model&quot;: `...)
	b = appendPyQuotedHTML(b, ev.Model)
	b = appendPyField(b, "session_id", ev.SessionID)
	if len(ev.Tools) > 0 {
		b = append(b, `, &quot;tools&quot;: `...)
		b = append(b, tools.json(ev.Tools)...)
	}
	b = appendPyField(b, "cwd", ev.Cwd)
	b = appendPyField(b, "parent_tool_use_id", ev.ParentToolID)
	b = appendPyField(b, "name", ev.Name)
	b = appendPyField(b, "description", ev.Description)
	return append(b, '}')
}

// appendPyField appends `, "key": value`, HTML-escaped, when value is not
// empty (omitempty). key needs no escaping.
func appendPyField(b []byte, key, value string) []byte {
	if value == "" {
		return b
	}
	b = append(append(append(b, `, &quot;`...), key...), `&quot;: `...)
	return appendPyQuotedHTML(b, value)
}

// toolsCache keeps the text of the last tools list written, HTML-escaped:
// the runs of one log mostly carry the same list.
type toolsCache struct {
	list []string
	text []byte
}

func (c *toolsCache) json(tools []string) []byte {
	if c.text != nil && slices.Equal(c.list, tools) {
		return c.text
	}
	c.list = append(c.list[:0], tools...)
	b := append(c.text[:0], '[')
	for i, t := range tools {
		if i > 0 {
			b = append(b, ", "...)
		}
		b = appendPyQuotedHTML(b, t)
	}
	c.text = append(b, ']')
	return c.text
}

// appendErrorJSON appends an Anthropic error object as errorJSON's
// marshal writes it.
func appendErrorJSON(b []byte, typ, msg string) []byte {
	b = append(b, `{"type": `...)
	b = appendPyQuoted(b, typ)
	b = append(b, `, "message": `...)
	b = appendPyQuoted(b, msg)
	return append(b, '}')
}

// pyPlain marks the bytes appendPyQuoted writes as they are: printable
// ASCII but the quote and the backslash.
var pyPlain = func() (t [256]bool) {
	for c := 0x20; c < 0x7f; c++ {
		t[c] = c != '"' && c != '\\'
	}
	return t
}()

// appendPyQuoted appends s as a JSON string as json.dumps writes it with
// ensure_ascii; invalid UTF-8 is written as \ufffd, one a byte, as
// encoding/json replaces it before marshal's rewriting.
func appendPyQuoted(out []byte, s string) []byte { return appendPy(out, s, false) }

// pyPlainHTML marks the bytes appendPyQuotedHTML writes as they are:
// those of pyPlain but what htmlEscape escapes.
var pyPlainHTML = func() (t [256]bool) {
	for c := range 256 {
		t[c] = pyPlain[c] && htmlSpecial[c] == 0
	}
	return t
}()

// appendPyQuotedHTML appends htmlEscape of what appendPyQuoted writes
// for s, in one pass: appendPyQuoted's output is ASCII, so only its
// quotes and s's & < > ' change.
func appendPyQuotedHTML(out []byte, s string) []byte { return appendPy(out, s, true) }

// appendPy is appendPyQuoted, or with html appendPyQuotedHTML.
func appendPy(out []byte, s string, html bool) []byte {
	plain, quote, escQuote := &pyPlain, `"`, `\"`
	if html {
		plain, quote, escQuote = &pyPlainHTML, "&quot;", `\&quot;`
	}
	out = append(out, quote...)
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if plain[c] {
			i++
			continue
		}
		out = append(out, s[start:i]...)
		switch c {
		case '"':
			out = append(out, escQuote...)
		case '\\':
			out = append(out, '\\', '\\')
		case '\n':
			out = append(out, '\\', 'n')
		case '\r':
			out = append(out, '\\', 'r')
		case '\t':
			out = append(out, '\\', 't')
		case '\b':
			out = append(out, '\\', 'b')
		case '\f':
			out = append(out, '\\', 'f')
		case '&', '<', '>', '\'': // only in html: pyPlain has them
			out = append(out, htmlEntity(c)...)
		default:
			if c < utf8.RuneSelf {
				out = appendU(out, rune(c))
				i++
				start = i
				continue
			}
			r, n := utf8.DecodeRuneInString(s[i:])
			out = appendU(out, r)
			i += n
			start = i
			continue
		}
		i++
		start = i
	}
	return append(append(out, s[start:]...), quote...)
}

// appendMetaFinal appends the data attribute of the meta_final element
// built from ev's fields (metaFinal's, when the event is not the
// producer's own): the payload as marshal writes it, HTML-escaped as
// appendASCIIData would, in one pass: a run's final answer (Result) went
// through encoding/json, pyJSON's reading back and rewriting, and the
// HTML escaping, four passes over the longest string of the run. It
// reports false, having appended nothing, for a cost encoding/json cannot
// write (NaN, infinities): metaFinal's path writes what marshal does then.
func appendMetaFinal(b []byte, ev *event.RunEnd) ([]byte, bool) {
	if c := ev.CostUSD; c != nil && (math.IsNaN(*c) || math.IsInf(*c, 0)) {
		return b, false
	}
	b = append(b, `{&quot;conversation_history&quot;: [], &quot;stop_reason&quot;: `...)
	if ev.StopReason != "" {
		b = appendPyQuotedHTML(b, ev.StopReason)
	} else {
		b = append(b, "null"...)
	}
	b = append(b, `, &quot;total_steps&quot;: `...)
	b = strconv.AppendInt(b, int64(ev.Turns), 10)
	b = append(b, `, &quot;generated_files&quot;: null, &quot;cost&quot;: null`...)
	if u := ev.Usage; u != nil {
		b = append(b, `, &quot;cumulative_usage&quot;: {&quot;input_tokens&quot;: `...)
		b = strconv.AppendInt(b, u.InputTokens, 10)
		b = append(b, `, &quot;output_tokens&quot;: `...)
		b = strconv.AppendInt(b, u.OutputTokens, 10)
		b = appendPyInt(b, "cache_read_input_tokens", u.CacheReadTokens)
		b = appendPyInt(b, "cache_creation_input_tokens", u.CacheWriteTokens)
		b = appendPyInt(b, "reasoning_output_tokens", u.ReasoningTokens)
		b = appendPyField(b, "service_tier", u.ServiceTier)
		b = append(b, '}')
	}
	if c := ev.CostUSD; c != nil {
		b = append(b, `, &quot;total_cost_usd&quot;: `...)
		b = jsontext.AppendMarshalFloat(b, *c)
	}
	b = appendPyInt(b, "duration_ms", ev.DurationMS)
	if ev.IsError {
		b = append(b, `, &quot;is_error&quot;: true`...)
	}
	if len(ev.Errors) > 0 {
		b = append(b, `, &quot;errors&quot;: [`...)
		for i, s := range ev.Errors {
			if i > 0 {
				b = append(b, ", "...)
			}
			b = appendPyQuotedHTML(b, s)
		}
		b = append(b, ']')
	}
	b = appendPyField(b, "result", ev.Result)
	return append(b, '}'), true
}

// appendPyInt appends `, "key": n`, HTML-escaped, when n is not 0
// (omitempty). key needs no escaping.
func appendPyInt(b []byte, key string, n int64) []byte {
	if n == 0 {
		return b
	}
	b = append(append(append(b, `, &quot;`...), key...), `&quot;: `...)
	return strconv.AppendInt(b, n, 10)
}
