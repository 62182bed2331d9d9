package render

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// callView is what the transcript shows of a tool call: the tool's name,
// a one-line summary of its input, and for some tools a body (a command, a
// diff, a checklist).
type callView struct {
	title   string // the tool as shown: Bash, Read, github/create_issue
	summary string // one line: a path, a query, compact JSON input
	note    string // a remark shown dim (a command's description)
	command string // a shell command, shown as a command line / code block
	diff    []string
	todos   []todoView
}

type todoView struct {
	text, status string
}

// input is a tool call's arguments, parsed when they are a JSON object.
type input map[string]any

func (in input) str(key string) string {
	if s, ok := in[key].(string); ok {
		return s
	}
	return ""
}

func (in input) num(key string) (int64, bool) {
	switch v := in[key].(type) {
	case json.Number:
		n, err := v.Int64()
		return n, err == nil
	case string:
		n, err := strconv.ParseInt(v, 10, 64)
		return n, err == nil
	}
	return 0, false
}

func parseInput(raw json.RawMessage) input {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var in input
	if dec.Decode(&in) != nil {
		return nil
	}
	return in
}

// describeCall returns the view of a call to tool name with input raw:
// the view of its tool family (toolViews), or its name and compact JSON
// input.
func describeCall(name, mcpServer string, raw json.RawMessage) callView {
	in := parseInput(raw)
	v := callView{title: name}
	if in == nil {
		v.summary = compactJSON(raw)
		return v
	}
	if server, tool, ok := mcpName(name, mcpServer); ok {
		v.title = server + "/" + tool
		v.summary = compactJSON(raw)
		return v
	}
	for _, tv := range toolViews() {
		if slices.Contains(tv.names, name) {
			if tv.view(&v, name, in) {
				return v
			}
			break
		}
	}
	v.summary = compactJSON(raw)
	return v
}

// toolView is how the transcript shows the calls of one tool family: the
// names its tools go by in the agents agentstream reads (Claude Code,
// Codex, Gemini CLI, the Anthropic API's tools, Cline and Roo), and a function that
// fills the view from the call's input. It returns false when the input is
// not what the tool takes: the call then shows as compact JSON. A new
// agent's tools are one entry here, or a name added to one.
type toolView struct {
	names []string
	view  func(v *callView, name string, in input) bool
}

func toolViews() []toolView {
	return []toolView{
		{[]string{"Bash", "command_execution", "shell", "local_shell", "exec_command", "bash", "execute_command", "run_shell_command"}, viewShell},
		{[]string{"Edit", "MultiEdit", "str_replace_based_edit_tool", "str_replace_editor", "replace"}, viewEdit},
		{[]string{"replace_in_file", "apply_diff"}, viewSearchReplace},
		{[]string{"search_files"}, viewSearchFiles},
		{[]string{"list_files"}, viewListFiles},
		{[]string{"Read", "read_file", "view", "read"}, viewRead},
		{[]string{"Write", "write_file", "write_to_file", "create"}, viewWrite},
		{[]string{"TodoWrite", "todo_write"}, viewTodos},
		{[]string{"WebSearch", "web_search", "google_web_search"}, viewWebSearch},
		{[]string{"WebFetch", "web_fetch"}, viewWebFetch},
		{[]string{"Grep", "grep"}, viewGrep},
		{[]string{"Glob", "glob"}, viewGlob},
		{[]string{"Task", "Agent"}, viewSubagent},
	}
}

func viewShell(v *callView, _ string, in input) bool {
	v.command = shellCommand(in["command"])
	v.note = in.str("description")
	return v.command != ""
}

func viewEdit(v *callView, name string, in input) bool {
	path := cmp.Or(in.str("file_path"), in.str("path"))
	if name == "MultiEdit" {
		edits, _ := in["edits"].([]any)
		for _, e := range edits {
			if m, ok := e.(map[string]any); ok {
				v.diff = append(v.diff, unifiedDiff(str(m["old_string"]), str(m["new_string"]))...)
			}
		}
		v.summary = fmt.Sprintf("%s (%d edits)", path, len(edits))
		return true
	}
	old, new := cmp.Or(in.str("old_string"), in.str("old_str")), cmp.Or(in.str("new_string"), in.str("new_str"))
	if old == "" && new == "" {
		return false
	}
	v.summary = path
	if b, _ := in["replace_all"].(bool); b {
		v.summary += " (every occurrence)"
	}
	v.diff = unifiedDiff(old, new)
	return true
}

// viewSearchReplace shows Cline's and Roo's SEARCH/REPLACE blocks.
func viewSearchReplace(v *callView, _ string, in input) bool {
	path, d := in.str("path"), in.str("diff")
	if path == "" || d == "" {
		return false
	}
	v.summary = path
	v.diff = searchReplaceDiff(d)
	return v.diff != nil
}

func viewSearchFiles(v *callView, _ string, in input) bool {
	r := in.str("regex")
	if r == "" {
		return false
	}
	v.summary = strconv.Quote(r)
	if path := in.str("path"); path != "" {
		v.summary += " in " + path
	}
	if fp := in.str("file_pattern"); fp != "" {
		v.summary += " file_pattern=" + fp
	}
	return true
}

func viewListFiles(v *callView, _ string, in input) bool {
	path := in.str("path")
	if path == "" {
		return false
	}
	v.summary = path
	if b, _ := in["recursive"].(bool); b || in.str("recursive") == "true" {
		v.summary += " (recursive)"
	}
	return true
}

func viewRead(v *callView, _ string, in input) bool {
	path := cmp.Or(in.str("file_path"), in.str("path"), in.str("filePath")) // filePath: OpenCode
	if path == "" {
		return false
	}
	off, hasOff := in.num("offset")
	lim, hasLim := in.num("limit")
	switch {
	case hasOff && hasLim:
		path += fmt.Sprintf(":%d-%d", off, off+lim-1)
	case hasOff:
		path += fmt.Sprintf(":%d-", off)
	case hasLim:
		path += fmt.Sprintf(":1-%d", lim)
	}
	if p := in.str("pages"); p != "" {
		path += " pages " + p
	}
	v.summary = path
	return true
}

func viewWrite(v *callView, _ string, in input) bool {
	path := cmp.Or(in.str("file_path"), in.str("path"))
	content, ok := in["content"].(string)
	if !ok {
		content, ok = in["file_text"].(string)
	}
	if path == "" || !ok {
		return false
	}
	v.summary = fmt.Sprintf("%s (%s, %s)", path, plural(len(splitLines(content)), "line"), byteSize(len(content)))
	return true
}

func viewTodos(v *callView, _ string, in input) bool {
	todos, _ := in["todos"].([]any)
	for _, t := range todos {
		if m, ok := t.(map[string]any); ok {
			v.todos = append(v.todos, todoView{text: cmp.Or(str(m["content"]), str(m["text"])), status: str(m["status"])})
		}
	}
	v.summary = plural(len(v.todos), "item")
	return true
}

func viewWebSearch(v *callView, _ string, in input) bool {
	q := in.str("query")
	if q == "" {
		return false
	}
	v.summary = strconv.Quote(q)
	return true
}

func viewWebFetch(v *callView, _ string, in input) bool {
	u := in.str("url")
	if u == "" {
		return false
	}
	v.summary = u
	v.note = oneLine(in.str("prompt"), 80)
	return true
}

func viewGrep(v *callView, _ string, in input) bool {
	p := in.str("pattern")
	if p == "" {
		return false
	}
	v.summary = strconv.Quote(p)
	if path := in.str("path"); path != "" {
		v.summary += " in " + path
	}
	for _, k := range []string{"glob", "type", "output_mode"} {
		if s := in.str(k); s != "" {
			v.summary += " " + k + "=" + s
		}
	}
	return true
}

func viewGlob(v *callView, _ string, in input) bool {
	p := in.str("pattern")
	if p == "" {
		return false
	}
	v.summary = p
	if path := in.str("path"); path != "" {
		v.summary += " in " + path
	}
	return true
}

func viewSubagent(v *callView, _ string, in input) bool {
	d := in.str("description")
	if t := in.str("subagent_type"); t != "" {
		d = t + ": " + d
	}
	if d == "" {
		return false
	}
	v.summary = d
	return true
}

// searchReplaceDiff turns Cline's and Roo's SEARCH/REPLACE blocks into
// unified diff hunks, or returns nil when d holds none.
//
//	------- SEARCH          (or <<<<<<< SEARCH, then Roo's :start_line:N and -------)
//	old lines
//	=======
//	new lines
//	+++++++ REPLACE         (or >>>>>>> REPLACE)
func searchReplaceDiff(d string) []string {
	var out, old, new []string
	state := 0 // 0 outside, 1 search, 2 replace
	for _, l := range splitLines(d) {
		t := strings.TrimSpace(l)
		switch {
		case state == 0 && (t == "------- SEARCH" || t == "<<<<<<< SEARCH"):
			state, old, new = 1, nil, nil
		case state == 1 && len(old) == 0 && (strings.HasPrefix(t, ":start_line:") || strings.HasPrefix(t, ":end_line:") || t == "-------"):
			// Roo's line hints.
		case state == 1 && t == "=======":
			state = 2
		case state == 2 && (t == "+++++++ REPLACE" || t == ">>>>>>> REPLACE"):
			state = 0
			out = append(out, unifiedDiff(strings.Join(old, "\n"), strings.Join(new, "\n"))...)
		case state == 1:
			old = append(old, l)
		case state == 2:
			new = append(new, l)
		}
	}
	return out
}

// mcpName splits an MCP tool's name: the call's MCPServer, or Claude's
// mcp__server__tool convention.
func mcpName(name, server string) (string, string, bool) {
	if server != "" {
		return server, name, true
	}
	if rest, ok := strings.CutPrefix(name, "mcp__"); ok {
		if s, t, ok := strings.Cut(rest, "__"); ok && s != "" && t != "" {
			return s, t, true
		}
	}
	return "", "", false
}

// shellCommand returns a command as one string: a string as is, an argv
// array joined, with a "bash -lc '...'" wrapper (as Codex writes commands)
// taken off.
func shellCommand(v any) string {
	switch c := v.(type) {
	case string:
		return unwrapShell(c)
	case []any:
		var args []string
		for _, a := range c {
			args = append(args, str(a))
		}
		if len(args) == 3 && (args[1] == "-lc" || args[1] == "-c") && isShell(args[0]) {
			return args[2]
		}
		return strings.Join(args, " ")
	}
	return ""
}

func isShell(s string) bool {
	s = s[strings.LastIndexByte(s, '/')+1:]
	return s == "bash" || s == "sh" || s == "zsh"
}

func unwrapShell(c string) string {
	for _, flag := range []string{" -lc '", " -c '"} {
		sh, body, ok := strings.Cut(c, flag)
		if !ok || !isShell(sh) || !strings.HasSuffix(body, "'") {
			continue
		}
		body = strings.TrimSuffix(body, "'")
		inner := strings.ReplaceAll(body, `'\''`, "")
		if strings.Contains(inner, "'") {
			return c
		}
		return strings.ReplaceAll(body, `'\''`, "'")
	}
	return c
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

func plural(n int, unit string) string {
	if n == 1 {
		return "1 " + unit
	}
	return strconv.Itoa(n) + " " + unit + "s"
}

// byteSize formats n bytes for people.
func byteSize(n int) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%.1f KB", float64(n)/1000)
	}
	return fmt.Sprintf("%.1f MB", float64(n)/1000/1000)
}

// dataURISize returns the decoded size of a base64 data URI, or -1.
func dataURISize(src string) int {
	rest, ok := strings.CutPrefix(src, "data:")
	if !ok {
		return -1
	}
	meta, data, ok := strings.Cut(rest, ",")
	if !ok || !strings.HasSuffix(meta, ";base64") {
		if ok {
			return len(data)
		}
		return -1
	}
	data = strings.TrimRight(data, "=")
	return len(data) * 3 / 4
}
