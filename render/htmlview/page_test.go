package htmlview_test

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/render/htmlview"
)

// text is the events of one text block.
func text(agent, s string) []event.Event {
	return []event.Event{
		&event.BlockStart{Agent: agent, Kind: event.Text},
		&event.Delta{Agent: agent, Kind: event.Text, Text: s},
		&event.BlockEnd{Agent: agent, Kind: event.Text},
	}
}

// TestMarkdown: text blocks are Markdown, rendered; raw HTML is shown as
// text, links only to http(s), images only from data:image.
func TestMarkdown(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in        string
		want, not []string
	}{
		{"**bold** and `code`", []string{"<strong>bold</strong>", "<code>code</code>"}, nil},
		{"<script>alert(1)</script>", []string{"&lt;script&gt;alert(1)&lt;/script&gt;"}, []string{"raw HTML omitted"}},
		{"use a <div> here", []string{"use a &lt;div&gt; here"}, nil},
		{"<img src=x onerror=alert(1)>", []string{"&lt;img src=x onerror=alert(1)&gt;"}, nil},
		{"[click](javascript:alert(1))", []string{"click"}, []string{"javascript:"}},
		{"[site](https://example.com/a?b=1&c=2)", []string{`<a href="https://example.com/a?b=1&amp;c=2" rel="noopener noreferrer nofollow">site</a>`}, nil},
		{"see https://example.com/x now", []string{`<a href="https://example.com/x" rel="noopener noreferrer nofollow">https://example.com/x</a>`}, nil},
		{"![chart](https://example.com/c.png)", []string{`image (not fetched): chart</a>`}, []string{`<img src="https`}},
		{"![dot](data:image/png;base64,iVBORw0KGgo=)", []string{`<img src="data:image/png;base64,iVBORw0KGgo=" alt="dot">`}, nil},
		{"![x](file:///etc/passwd)", []string{"<p>x</p>"}, []string{"file:"}},
		{"| a | b |\n|---|---|\n| 1 | 2 |", []string{"<table>", "<td>1</td>"}, nil},
		{"- [x] done\n- [ ] todo", []string{`<input checked="" disabled="" type="checkbox">`}, nil},
		{"| l | r |\n|:--|--:|\n| 1 | 2 |", []string{`<th style="text-align:left">l</th>`}, nil},
		{"```go\nfmt.Println(\"<b>\")\n```", []string{`<pre><code class="language-go">fmt.Println(&quot;&lt;b&gt;&quot;)`}, nil},
		{"# Title\n\n> quote\n\n1. one\n2. two\n\n---\n~~gone~~ a  \nb", []string{"<h1>Title</h1>", "<blockquote>", "<ol>", "<hr>", "<del>gone</del>", "<br>"}, nil},
		{"<div>\n<script>alert(1)</script>\n</div>", []string{`<pre class="raw">&lt;div&gt;`}, nil},
		{"[a](<javascript:alert(1)>) [b]: x\n\n[b]", nil, []string{"javascript:", `href="x"`}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			t.Parallel()
			doc := page(t, text("a", tt.in), htmlview.Options{})
			checkMarkup(t, doc)
			for _, w := range tt.want {
				if !strings.Contains(doc, w) {
					t.Errorf("page lacks %q", w)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(doc, n) {
					t.Errorf("page has %q", n)
				}
			}
		})
	}
}

// TestPageOfRuns: several runs make one page, a section per run, ids
// unique across the page, each run's places its own, and a line of the
// index per run.
func TestPageOfRuns(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	p := htmlview.NewPage(&b, htmlview.PageOptions{Title: "2 runs", Runs: 2})
	for i, model := range []string{"model-a", "model-b"} {
		w := p.Run(htmlview.Options{Title: "run " + model, Agent: "claude", Time: "2026-11-27 00:00 UTC"})
		evs := []event.Event{
			&event.SessionStart{Agent: "m", Model: model, Cwd: "/home/dev/proj"},
			&event.ToolCall{Agent: "m", ID: "c1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
			&event.ToolResult{Agent: "m", ID: "c1", Content: []event.Part{{Text: "a.go"}}},
		}
		evs = append(evs, text("m", "done *"+model+"*")...)
		for _, ev := range evs {
			if err := w.Event(ev); err != nil {
				t.Fatal(err)
			}
		}
		if err := w.Close(); err != nil {
			t.Fatal(err)
		}
		if i == 0 && !strings.Contains(b.String(), `<tr data-into="index-rows"><td>1</td>`) {
			t.Error("the first run's index line was not written when the run ended")
		}
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	doc := b.String()
	checkMarkup(t, doc)
	if n := strings.Count(doc, "<!DOCTYPE html>"); n != 1 {
		t.Errorf("%d documents, want one page", n)
	}
	for _, want := range []string{
		`<h1>2 runs</h1>`, `<tbody id="index-rows">`,
		`<article class="run" id="run1">`, `<article class="run" id="run2">`,
		`<section class="b t-tool_result" id="run2-b3" data-agent="m" data-into="run2-r2">`,
		`<td><a href="#run2">run model-b</a></td><td>claude</td><td>/home/dev/proj</td><td>2026-11-27 00:00 UTC</td><td>model-b</td>`,
		`<p>done <em>model-a</em></p>`,
	} {
		if !strings.Contains(doc, want) {
			t.Errorf("page lacks %q", want)
		}
	}
	seen := map[string]bool{}
	for _, m := range regexp.MustCompile(` id="([^"]*)"`).FindAllStringSubmatch(doc, -1) {
		if seen[m[1]] {
			t.Errorf("id %q twice", m[1])
		}
		seen[m[1]] = true
	}
	for _, m := range regexp.MustCompile(`data-into="([^"]*)"`).FindAllStringSubmatch(doc, -1) {
		if !seen[m[1]] {
			t.Errorf("data-into=%q names no element", m[1])
		}
	}
	if !strings.HasSuffix(doc, "</table>\n</body>\n</html>\n") {
		t.Error("the page does not end with the last run's index line and </html>")
	}
}
