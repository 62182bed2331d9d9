package inlinexml

import (
	"slices"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/toolset"
)

// Config configures a Decoder or a wrapper. The zero value is ready to use.
type Config struct {
	Source string // input name for errors
	Agent  string // agent id of a plain text input
	// Tools are the tool names (and their parameters) recognised as tool
	// calls; nil means DefaultTools. A tool whose Params is nil accepts
	// any parameter name.
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

// DefaultTools returns the tool set of Cline and Roo Code, which the
// decoder recognises when no tools are configured.
func DefaultTools() []toolset.Tool {
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
	tags   tagTable             // </tool>, <param> for declared params
	open   bool                 // parameters not declared: any <name> opens one
	closes map[string]*tagTable // </param> tables by parameter
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

// closeTags returns the tag table of the value of parameter p.
func (t *tool) closeTags(p string) *tagTable {
	m := t.closes[p]
	if m == nil {
		if t.closes == nil {
			t.closes = map[string]*tagTable{}
		}
		m = &tagTable{}
		m.add("</"+p+">", tagParam)
		t.closes[p] = m
	}
	return m
}

func compile(cfg *Config) *grammar {
	g := &grammar{tools: map[string]*tool{}, raw: map[string]bool{}, maxBytes: cfg.MaxCallBytes}
	if g.maxBytes <= 0 {
		g.maxBytes = event.DefaultMaxBytes
	}
	tools := cfg.Tools
	if tools == nil {
		tools = DefaultTools()
	}
	raw := cfg.RawParams
	if raw == nil {
		raw = []string{"content", "diff"}
	}
	for _, p := range raw {
		g.raw[p] = true
	}
	g.top.add("<thinking>", tagThinking)
	g.top.add("<think>", tagThink)
	g.top.add("<tool_result>", tagResult)
	g.top.add("<tool_result ", tagResultAttrs)
	for _, t := range tools {
		ct := &tool{Tool: t, open: t.Params == nil}
		g.top.add("<"+t.Name+">", tagTool)
		ct.tags.add("</"+t.Name+">", tagToolClose)
		for _, p := range t.Params {
			ct.tags.add("<"+p.Name+">", tagParam)
		}
		g.tools[t.Name] = ct
	}
	return g
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

// add adds tag with kind; a tag added again takes the new kind.
func (t *tagTable) add(tag string, kind int) {
	i, found := slices.BinarySearch(t.tags, tag)
	if found {
		t.kinds[i] = kind
		return
	}
	t.tags = slices.Insert(t.tags, i, tag)
	t.kinds = slices.Insert(t.kinds, i, kind)
}

// lookup returns the kind of tag p, tagNone when p is a proper prefix of
// a tag, and false when p is neither. A tag that is also a prefix of a
// longer one is the tag.
func (t *tagTable) lookup(p []byte) (int, bool) {
	lo, hi := 0, len(t.tags)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if t.tags[m] < string(p) {
			lo = m + 1
		} else {
			hi = m
		}
	}
	if lo == len(t.tags) {
		return tagNone, false
	}
	tag := t.tags[lo]
	if tag == string(p) {
		return t.kinds[lo], true
	}
	return tagNone, len(tag) > len(p) && tag[:len(p)] == string(p)
}
