package inlinexml

import (
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/toolset"
)

// Config configures a Decoder or a wrapper. The zero value is ready to use.
type Config struct {
	Source string // input name for errors
	Agent  string // agent id of a plain text input
	// Tools are the tool names (and their parameters) recognised as tool
	// calls; nil means the tool set of Cline and Roo Code. A tool whose
	// Params is nil accepts any parameter name.
	Tools []toolset.Tool
	// RawParams name the parameters whose value is kept as written but
	// for one leading and one trailing newline, and whose close tag counts
	// only before the next parameter or the tool's close (so a file body
	// may contain its own </content>). Every other value is trimmed of
	// surrounding white space. Nil means content and diff.
	RawParams []string
	// MaxCallBytes caps the text of one tool call (event.DefaultMaxBytes
	// if 0). A larger call is reported and kept as text.
	MaxCallBytes int
}

// Completion is the tool whose result parameter is the run's final
// answer.
const Completion = "attempt_completion"

// defaultTools returns the tool set of Cline and Roo Code, which the
// decoder recognises when no tools are configured.
func defaultTools() []toolset.Tool {
	t := func(name string, params ...string) toolset.Tool {
		ps := make([]toolset.Param, len(params))
		for i, p := range params {
			ps[i] = toolset.Param{Name: p}
		}
		return toolset.Tool{Name: name, Params: ps}
	}
	return []toolset.Tool{
		t("execute_command", "command", "requires_approval", "cwd"),
		t("read_file", "path", "start_line", "end_line", "args"),
		t("write_to_file", "path", "content", "line_count"),
		t("replace_in_file", "path", "diff"),
		t("apply_diff", "path", "diff"),
		t("insert_content", "path", "line", "content"),
		t("search_and_replace", "path", "search", "replace", "use_regex", "ignore_case", "start_line", "end_line"),
		t("search_files", "path", "regex", "file_pattern"),
		t("list_files", "path", "recursive"),
		t("list_code_definition_names", "path"),
		t("codebase_search", "query", "path"),
		t("browser_action", "action", "url", "coordinate", "size", "text"),
		t("use_mcp_tool", "server_name", "tool_name", "arguments"),
		t("access_mcp_resource", "server_name", "uri"),
		t("ask_followup_question", "question", "options", "follow_up"),
		t("attempt_completion", "result", "command"),
		t("plan_mode_respond", "response", "options"),
		t("new_task", "context", "mode", "message"),
		t("switch_mode", "mode_slug", "reason"),
		t("fetch_instructions", "task"),
		t("load_mcp_documentation"),
		t("new_rule", "path", "content"),
		t("condense", "context"),
		t("report_bug", "title", "what_happened", "steps_to_reproduce", "api_request_output", "additional_context"),
		t("web_fetch", "url"),
	}
}

// Tag kinds, the values of the tag tables.
const (
	tagNone = iota
	tagThinking
	tagThink
	tagTool
	tagToolClose
	tagParam
	tagResult      // <tool_result>
	tagResultAttrs // "<tool_result ": attributes follow
)

// grammar is a Config compiled into tag tables, one for each state.
type grammar struct {
	top      tagTable // <tool>, <thinking>, <think>, <tool_result>
	tools    map[string]*tool
	raw      map[string]bool
	maxBytes int
}

type tool struct {
	toolset.Tool
	tags tagTable // </tool>, <param> for declared params
	open bool     // parameters not declared: any <name> opens one
}

// paramName returns name, as the tool declares it when it does (so that
// reading a declared parameter allocates no name).
func (t *tool) paramName(name []byte) string {
	for _, p := range t.Params {
		if p.Name == string(name) {
			return p.Name
		}
	}
	return string(name)
}

func compile(cfg *Config) *grammar {
	g := &grammar{tools: map[string]*tool{}, raw: map[string]bool{}, maxBytes: cfg.MaxCallBytes}
	if g.maxBytes <= 0 {
		g.maxBytes = event.DefaultMaxBytes
	}
	tools := cfg.Tools
	if tools == nil {
		tools = defaultTools()
	}
	raw := cfg.RawParams
	if raw == nil {
		raw = []string{"content", "diff"}
	}
	for _, p := range raw {
		g.raw[p] = true
	}
	// Every tag's text goes into one string: one allocation for all.
	var b tagText
	top := []tagSpan{
		b.add(tagThinking, "<thinking>"), b.add(tagThink, "<think>"),
		b.add(tagResult, "<tool_result>"), b.add(tagResultAttrs, "<tool_result "),
	}
	spans := make([][]tagSpan, len(tools))
	for i, t := range tools {
		top = append(top, b.add(tagTool, "<", t.Name, ">"))
		spans[i] = append(spans[i], b.add(tagToolClose, "</", t.Name, ">"))
		for _, p := range t.Params {
			spans[i] = append(spans[i], b.add(tagParam, "<", p.Name, ">"))
		}
	}
	text := b.String()
	g.top = newTagTable(text, top)
	for i, t := range tools {
		g.tools[t.Name] = &tool{Tool: t, tags: newTagTable(text, spans[i]), open: t.Params == nil}
	}
	return g
}

// tagText writes the text of a grammar's tags, one after the other.
type tagText struct{ strings.Builder }

// tagSpan is a tag in a tagText, and its kind.
type tagSpan struct{ start, end, kind int }

func (b *tagText) add(kind int, parts ...string) tagSpan {
	start := b.Len()
	for _, p := range parts {
		b.WriteString(p)
	}
	return tagSpan{start, b.Len(), kind}
}

// newTagTable returns the table of the tags spans mark in text. Of two
// equal tags the later one counts.
func newTagTable(text string, spans []tagSpan) tagTable {
	tag := func(s tagSpan) string { return text[s.start:s.end] }
	slices.SortStableFunc(spans, func(a, b tagSpan) int { return strings.Compare(tag(a), tag(b)) })
	var t tagTable
	for i, s := range spans {
		if i+1 < len(spans) && tag(spans[i+1]) == tag(s) {
			continue
		}
		t.tags = append(t.tags, tag(s))
		t.kinds = append(t.kinds, s.kind)
	}
	return t
}

// tagTable is a set of complete tags, sorted, with their kinds. A pending
// tag is looked up by binary search: it is a tag, or a proper prefix of
// one (the tag it may grow into sorts right after it), or neither. Built
// per decoder, it costs a sort where a table of every prefix cost a map
// entry per prefix.
type tagTable struct {
	tags  []string
	kinds []int
}

// closeTag returns the kind of pend in the value of parameter param,
// whose one tag is its close tag </param>: tagParam for the tag,
// tagNone for a proper prefix of it, and false for neither.
func closeTag(pend []byte, param string) (int, bool) {
	n := len(param) + 3
	if len(pend) > n {
		return tagNone, false
	}
	for i, c := range pend {
		want := byte('>')
		switch {
		case i == 0:
			want = '<'
		case i == 1:
			want = '/'
		case i < n-1:
			want = param[i-2]
		}
		if c != want {
			return tagNone, false
		}
	}
	if len(pend) == n {
		return tagParam, true
	}
	return tagNone, true
}

// tagRange is the part of a tagTable whose tags begin with the first n
// bytes of a pending tag, tags[lo:hi] (hi -1: not narrowed yet).
type tagRange struct{ lo, hi, n int }

// narrow returns the kind of tag p, tagNone when p is a proper prefix of
// a tag, and false when p is neither, given r, the range of the tags that
// begin with what p held before (a tag that is also a prefix of a longer
// one is the tag). It narrows r by the bytes p gained since: the tags
// sorted, those with the byte c at index n are a run, found by binary
// search.
func (t *tagTable) narrow(p []byte, r *tagRange) (int, bool) {
	if r.hi < 0 {
		*r = tagRange{hi: len(t.tags)}
	}
	for ; r.n < len(p); r.n++ {
		n, c := r.n, p[r.n]
		if r.hi-r.lo == 1 { // one tag left: its next byte is c, or none is
			if tag := t.tags[r.lo]; len(tag) <= n || tag[n] != c {
				r.hi = r.lo
			}
			continue
		}
		// at(i): the byte at n of tags[i], -1 for a tag no longer
		// than n (it sorts first among those that share n bytes)
		at := func(i int) int {
			if tag := t.tags[i]; len(tag) > n {
				return int(tag[n])
			}
			return -1
		}
		lo, hi := r.lo, r.hi
		for lo < hi { // first with at >= c
			m := int(uint(lo+hi) >> 1)
			if at(m) < int(c) {
				lo = m + 1
			} else {
				hi = m
			}
		}
		end := lo
		for hi = r.hi; end < hi; { // first with at > c
			m := int(uint(end+hi) >> 1)
			if at(m) <= int(c) {
				end = m + 1
			} else {
				hi = m
			}
		}
		r.lo, r.hi = lo, end
	}
	if r.lo == r.hi {
		return tagNone, false
	}
	if len(t.tags[r.lo]) == len(p) {
		return t.kinds[r.lo], true
	}
	return tagNone, true
}
