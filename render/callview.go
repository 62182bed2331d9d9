package render

import "encoding/json"

// CallView is what the views show of a tool call: the tool as named for
// people, a one-line summary of its input, and for some tools a body: a
// shell command, an edit as unified diff lines ("@@ ...", "-old", "+new",
// " kept"), a todo list. It is the one entry point other views (the HTML
// view) use, so that they show calls as the transcript does.
type CallView struct {
	Title   string // Bash, Read, github/create_issue
	Summary string // one line: a path, a query, compact JSON input
	Note    string // a remark (a command's description)
	Command string // a shell command
	Diff    []string
	Todos   []Todo
}

// Todo is one item of a todo list; Status is pending, in_progress or
// completed.
type Todo struct {
	Text, Status string
}

// DescribeCall returns the view of a call to tool name (of MCP server
// mcpServer, if any) with input in, as the transcript shows it.
func DescribeCall(name, mcpServer string, in json.RawMessage) CallView {
	v := describeCall(name, mcpServer, in)
	cv := CallView{Title: v.title, Summary: v.summary, Note: v.note, Command: v.command, Diff: v.diff}
	for _, t := range v.todos {
		cv.Todos = append(cv.Todos, Todo{Text: t.text, Status: t.status})
	}
	return cv
}
