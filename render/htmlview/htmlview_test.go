package htmlview_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/render/htmlview"
	"github.com/agentstream/agentstream/usage"
)

// evil breaks out of text, of a double- or single-quoted attribute, of a
// <details>, and tries script in three ways.
const evil = `"'><script>document.title="pwned"</script></details></section><img src=x onerror="document.title='pwned'">`

func ptr[T any](v T) *T { return &v }

// everyEvent is every event type with every string field set to evil,
// and URLs that must not become links or images.
func everyEvent() []event.Event {
	js := "javascript:document.title='pwned'"
	input, _ := json.Marshal(map[string]string{"command": evil, evil: evil, "file_path": evil, "old_string": evil, "new_string": evil + "x"})
	todos, _ := json.Marshal(map[string]any{"todos": []map[string]string{{"content": evil, "status": evil}, {"content": evil, "status": "completed"}}})
	raw := json.RawMessage(`{"x":` + strings.TrimSpace(string(mustJSON(evil))) + `}`)
	return []event.Event{
		&event.SessionStart{Agent: evil, SessionID: evil, Model: evil, Cwd: evil, Prompt: evil, Name: evil, Description: evil, Tools: []string{evil}, Meta: raw},
		&event.BlockStart{Agent: evil, Kind: event.Thinking},
		&event.Delta{Agent: evil, Kind: event.Thinking, Text: evil},
		&event.BlockEnd{Agent: evil, Kind: event.Thinking, Signature: evil},
		&event.BlockStart{Agent: evil, Kind: event.Text},
		&event.Delta{Agent: evil, Kind: event.Text, Text: evil},
		&event.BlockEnd{Agent: evil, Kind: event.Text},
		&event.Citations{Agent: evil, Items: []event.Citation{
			{Type: evil, CitedText: evil, URL: ptr(js), Title: ptr(evil)},
			{Type: evil, CitedText: evil, URL: ptr(evil), DocumentTitle: ptr(evil)},
			{Type: evil, CitedText: evil, URL: ptr("https://example.com/?q=" + evil), Title: ptr(evil)},
		}},
		&event.ToolCall{Agent: evil, ID: evil, Name: "Bash", Input: input},
		&event.ToolCall{Agent: evil, ID: "e", Name: "Edit", Input: input},
		&event.ToolCall{Agent: evil, ID: "t", Name: "TodoWrite", Input: todos},
		&event.ToolCall{Agent: evil, ID: "m", Name: evil, MCPServer: evil, Input: input},
		&event.ToolCall{Agent: evil, ID: "s", Name: evil, Server: true, Input: json.RawMessage(mustJSON(evil))},
		&event.SessionStart{Agent: "sub" + evil, ParentAgent: evil, ParentToolID: evil, Model: evil, Prompt: evil},
		&event.Delta{Agent: "sub" + evil, Kind: event.Text, Text: evil},
		&event.BlockEnd{Agent: "sub" + evil, Kind: event.Text},
		&event.ToolResult{Agent: evil, ID: evil, Name: evil, IsError: true, ExitCode: ptr(2), Status: evil, Content: []event.Part{
			{Type: "text", Text: evil},
			{Type: "image", Source: js, MediaType: evil},
			{Type: "image", Source: "data:text/html;base64,PHNjcmlwdD4=", MediaType: evil},
			{Type: "image", Source: `data:image/png;base64,iVBOR"><script>x</script>`, MediaType: evil},
			{Type: "image", Source: "https://example.com/" + evil, MediaType: evil},
		}},
		&event.AwaitingTools{Agent: evil, Tools: []event.PendingTool{{ID: evil, Name: evil, Input: input}}},
		&event.Files{Agent: evil, Files: []event.File{{ID: evil, Name: evil, Location: evil}}},
		&event.FileChange{Agent: evil, ID: evil, Status: evil, Changes: []event.Change{{Path: evil, Kind: evil}}},
		&event.TodoList{Agent: evil, ID: evil, Items: []event.TodoItem{{Text: evil, Status: evil}}},
		&event.Error{Agent: evil, Message: evil, Type: evil, Fatal: true, Raw: raw},
		&event.Notice{Agent: evil, Kind: evil, Message: evil, Raw: raw},
		&event.Unknown{Agent: evil, Format: evil, Type: evil, Raw: []byte(evil)},
		&event.TurnStart{Agent: evil, MessageID: evil, Model: evil},
		&event.TurnEnd{Agent: evil, MessageID: evil, StopReason: evil, Error: evil, Usage: &event.Usage{InputTokens: 1, Has: event.HasInput}},
		&event.RunEnd{Agent: evil, StopReason: evil, Errors: []string{evil}, Result: evil, IsError: true, Meta: raw},
		&event.BlockStart{Agent: evil, Kind: event.Text},
		&event.Delta{Agent: evil, Kind: event.Text, Text: evil}, // left open: truncated
	}
}

func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

func page(t *testing.T, evs []event.Event, o htmlview.Options) string {
	t.Helper()
	var b bytes.Buffer
	w := htmlview.New(&b, o)
	for _, ev := range evs {
		if err := w.Event(ev); err != nil {
			t.Fatal(err)
		}
	}
	w.Close()
	return b.String()
}

var (
	tagRE  = regexp.MustCompile(`<[^>]*>`)
	wellRE = regexp.MustCompile(`^<(/?)([a-z0-9]+)((?:\s+[a-z-]+(?:="[^"<>]*")?)*)\s*>$`)
	attrRE = regexp.MustCompile(`([a-z-]+)(?:="([^"]*)")?`)
)

// allowed are the elements the writer makes.
var allowed = map[string]bool{
	"html": true, "head": true, "meta": true, "title": true, "style": true, "script": true, "body": true,
	"header": true, "h1": true, "h2": true, "dl": true, "dt": true, "dd": true, "main": true, "footer": true,
	"section": true, "a": true, "p": true, "div": true, "details": true, "summary": true, "pre": true,
	"code": true, "span": true, "ul": true, "ol": true, "li": true, "sup": true, "img": true, "input": true,
	"article": true, "nav": true, "table": true, "thead": true, "tbody": true, "tr": true, "th": true, "td": true,
	// Markdown of text blocks (goldmark, with GitHub's extensions)
	"em": true, "strong": true, "del": true, "blockquote": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"hr": true, "br": true,
}

// checkMarkup fails when the page holds markup the writer does not make:
// an element it does not write, a tag that is not well formed, an
// attribute it does not write (on*), a link or image to anything but
// http(s) or data:image, or a script besides its own.
func checkMarkup(t *testing.T, doc string) {
	t.Helper()
	body := doc[strings.Index(doc, "</script>")+len("</script>"):]
	if n := strings.Count(doc, "<script"); n != 1 {
		t.Errorf("%d <script elements, want 1", n)
	}
	open := map[string]int{}
	for _, tag := range tagRE.FindAllString(body, -1) {
		m := wellRE.FindStringSubmatch(tag)
		if m == nil {
			t.Errorf("malformed tag %q", tag)
			continue
		}
		if !allowed[m[2]] {
			t.Errorf("element %q the writer does not make: %q", m[2], tag)
		}
		if m[1] == "/" {
			open[m[2]]--
		} else if m[2] != "img" && m[2] != "input" && m[2] != "meta" && m[2] != "hr" && m[2] != "br" {
			open[m[2]]++
		}
		for _, a := range attrRE.FindAllStringSubmatch(m[3], -1) {
			name, val := a[1], a[2]
			if strings.HasPrefix(name, "on") {
				t.Errorf("event handler attribute in %q", tag)
			}
			if (name == "href" && !strings.HasPrefix(val, "#") && !strings.HasPrefix(val, "http://") && !strings.HasPrefix(val, "https://")) ||
				(name == "src" && !strings.HasPrefix(val, "data:image/")) {
				t.Errorf("%s=%q in %q", name, val, tag)
			}
		}
	}
	for el, n := range open {
		if n != 0 && el != "html" && el != "head" && el != "body" {
			t.Errorf("<%s> opened %d more times than closed", el, n)
		}
	}
}

func TestEscaping(t *testing.T) {
	t.Parallel()
	prices, err := usage.Default()
	if err != nil {
		t.Fatal(err)
	}
	doc := page(t, everyEvent(), htmlview.Options{Title: evil, Prices: prices})
	checkMarkup(t, doc)
	if strings.Contains(doc, "javascript:") && strings.Contains(doc, `href="javascript:`) {
		t.Error("a javascript: link")
	}
	for _, want := range []string{
		"&lt;script&gt;",                         // text escaped, not dropped
		"link dropped: not an http or https URL", // javascript: citation
		"image dropped: not a data: or http(s) URL",
		`[truncated: the stream ended inside this block]`,
		`class="trunc"`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("page lacks %q", want)
		}
	}
}

// TestStructure checks the places a subagent's blocks and a result go,
// and that the page is written as a stream: the head and the first
// blocks before the run ends.
func TestStructure(t *testing.T) {
	t.Parallel()
	evs := []event.Event{
		&event.SessionStart{Agent: "main", SessionID: "s1", Model: "claude-sonnet-4-5"},
		&event.ToolCall{Agent: "main", ID: "call1", Name: "Task", Input: json.RawMessage(`{"description":"look"}`)},
		&event.SessionStart{Agent: "sub", ParentAgent: "main", ParentToolID: "call1"},
		&event.ToolCall{Agent: "sub", ID: "call2", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.ToolResult{Agent: "sub", ID: "call2", Content: []event.Part{{Type: "text", Text: "a.go"}}, ExitCode: ptr(0)},
		&event.ToolResult{Agent: "main", ID: "call1", Content: []event.Part{{Type: "text", Text: "done"}}},
		&event.TurnEnd{Agent: "main", MessageID: "m1", Usage: &event.Usage{InputTokens: 1000, OutputTokens: 100, Has: event.HasInput | event.HasOutput}},
		&event.RunEnd{Agent: "main", DurationMS: 1500},
	}
	var b bytes.Buffer
	w := htmlview.New(&b, htmlview.Options{Title: "run"})
	for i, ev := range evs {
		if err := w.Event(ev); err != nil {
			t.Fatal(err)
		}
		if i == 1 && !strings.Contains(b.String(), `<span class="tool">Task</span>`) {
			t.Fatalf("the call is not written as soon as it is complete:\n%s", b.String())
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	checkMarkup(t, doc)
	re := regexp.MustCompile(`<section class="([^"]*)" id="(b\d+)" data-agent="([^"]*)"(?: data-into="([^"]*)")?>`)
	var got [][]string
	for _, m := range re.FindAllStringSubmatch(doc, -1) {
		got = append(got, m[1:])
	}
	want := [][]string{
		{"b t-meta_init", "b1", "main", ""},
		{"b t-tool_call", "b2", "main", ""},
		{"b t-meta_init d1", "b3", "sub", "c2"},
		{"b t-tool_call d1", "b4", "sub", "c2"},
		{"b t-tool_result d1", "b5", "sub", "r4"},
		{"b t-tool_result", "b6", "main", "r2"},
		{"b t-meta_final", "b7", "main", ""},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("sections (-want +got):\n%s", diff)
	}
	for _, s := range []string{
		`id="r2"`, `id="c2"`, `id="r4"`, `<dd data-k="model">claude-sonnet-4-5</dd>`, `<dd data-k="duration">1.5s</dd>`,
		// 1000 x $3/M + 100 x $15/M would be priced only with Options.Prices.
		`<dd data-k="tokens">1,000 in · 100 out · 0 cache write · 0 cache read · 0 reasoning</dd>`, `<dd data-k="cost">unknown</dd>`,
	} {
		if !strings.Contains(doc, s) {
			t.Errorf("page lacks %s", s)
		}
	}
}

// recordings returns the recordings of ../../testdata whose format is
// detected, with the format.
func recordings(t *testing.T) map[string]convert.Format {
	t.Helper()
	files, err := filepath.Glob("../../testdata/*/*")
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]convert.Format{}
	for _, name := range files {
		f, err := os.Open(name)
		if err != nil {
			t.Fatal(err)
		}
		format, _, err := convert.Detect(bufio.NewReader(f))
		f.Close()
		if err == nil {
			out[name] = format
		}
	}
	if len(out) < 50 {
		t.Fatalf("only %d recordings found", len(out))
	}
	return out
}

// renderFile writes the page of one recording, going on after bad input
// as the command does.
func renderFile(t *testing.T, name string, from convert.Format) string {
	t.Helper()
	var b bytes.Buffer
	w := htmlview.New(&b, htmlview.Options{
		Title: strings.TrimPrefix(name, "../../testdata/"), TurnEndsRun: slices.Contains(from.Lacks, format.MetaFinal),
	})
	feed(t, w, name, from)
	return b.String()
}

// feed writes the recording name, in format from, to w and closes it.
func feed(t *testing.T, w *htmlview.Writer, name string, from convert.Format) {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec := from.NewDecoder(bufio.NewReader(f), &format.Options{Source: name})
	for {
		ev, err := dec.Next()
		if err != nil {
			if _, ok := err.(*event.ParseError); ok {
				continue
			}
			break
		}
		if err := w.Event(ev); err != nil && !errors.Is(err, htmlview.ErrBlockTooLarge) {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil && !errors.Is(err, event.ErrTruncated) {
		t.Fatal(err)
	}
}

// TestCorpus renders every recording of ../../testdata: well formed, and
// a complete page.
func TestCorpus(t *testing.T) {
	t.Parallel()
	for name, format := range recordings(t) {
		doc := renderFile(t, name, format)
		checkMarkup(t, doc)
		if !strings.HasSuffix(doc, "</footer>\n</article>\n</body>\n</html>\n") {
			t.Errorf("%s: page does not end with the summary and </html>", name)
		}
	}
}

// A call the stream ended before the result of says so, under the call.
func TestNoResult(t *testing.T) {
	t.Parallel()
	doc := page(t, []event.Event{
		&event.ToolCall{Agent: "a", ID: "c1", Name: "Bash", Input: json.RawMessage(`{"command":"sleep 9"}`)},
		&event.ToolCall{Agent: "a", ID: "c2", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
		&event.ToolResult{Agent: "a", ID: "c2"},
	}, htmlview.Options{})
	want := `<section class="b t-no_result" id="b4" data-agent="a" data-into="r1"><p class="dim">↳ no result in the stream</p></section>`
	if !strings.Contains(doc, want) {
		t.Errorf("page lacks %s:\n%s", want, doc)
	}
	if n := strings.Count(doc, "t-no_result"); n != 1 {
		t.Errorf("%d no-result marks, want 1", n)
	}
}
