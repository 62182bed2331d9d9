//go:build browser

// The browser test renders pages in Debian's headless chromium. It needs
// the browser tag (make test-browser installs chromium and runs it):
//
//	go test -tags browser -run TestBrowser ./render/htmlview/
//	go test -tags browser -run TestBrowser ./render/htmlview/ -screenshots ../../docs
package htmlview_test

import (
	"bytes"
	"context"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/render/htmlview"
)

var screenshots = flag.String("screenshots", "", "write the README's screenshots into this directory")

// chromium runs headless chromium on a page with a fresh profile: it
// returns the DOM after the page's scripts ran and the browser's console
// lines (a console error, a CSP violation and an uncaught exception all
// log one).
func chromium(t *testing.T, page string, extra ...string) (dom string, console []string) {
	t.Helper()
	bin, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatal("chromium not found: make test-browser installs it (apt-get install -y chromium)")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	args := append([]string{
		"--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
		"--disable-component-update", "--disable-sync", "--no-first-run",
		"--user-data-dir=" + t.TempDir(), "--enable-logging=stderr", "--v=0",
	}, extra...)
	args = append(args, "file://"+page)
	cmd := exec.CommandContext(ctx, bin, args...)
	// No D-Bus here: chromium would wait for it on every start.
	cmd.Env = append(os.Environ(), "DBUS_SESSION_BUS_ADDRESS=disabled:", "DBUS_SYSTEM_BUS_ADDRESS=disabled:")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("chromium: %v\n%s", err, errb.String())
	}
	for _, l := range strings.Split(errb.String(), "\n") {
		if strings.Contains(l, ":CONSOLE") {
			console = append(console, l)
		}
	}
	return out.String(), console
}

var (
	sectionRE = regexp.MustCompile(`<section class="b [^"]*"`)
	intoRE    = regexp.MustCompile(`<section class="([^"]*)" id="((?:run\d+-)?b\d+)" data-agent="[^"]*" data-into="([^"]*)"`)
)

// checkDOM compares a page's DOM after its script ran with the page as
// written: every block there, each block with a place moved under the
// element that holds that place, only the page's own script.
func checkDOM(t *testing.T, doc, dom string) {
	t.Helper()
	if !strings.Contains(dom, `data-ready="1"`) {
		t.Error("the page's script did not run")
	}
	if got, want := len(sectionRE.FindAllString(dom, -1)), len(sectionRE.FindAllString(doc, -1)); got != want {
		t.Errorf("%d blocks in the DOM, %d written", got, want)
	}
	if n := strings.Count(dom, "<script"); n != 1 {
		t.Errorf("%d scripts in the DOM, want the page's own", n)
	}
	for _, m := range intoRE.FindAllStringSubmatch(doc, -1) {
		id, into := m[2], m[3]
		if !strings.Contains(doc, `id="`+into+`"`) {
			continue // its call is not in the stream: it stays in place
		}
		// In the DOM the block is nested: marked, and after its place.
		sec := regexp.MustCompile(`<section class="[^"]*\bnested\b[^"]*" id="` + id + `"`)
		loc := sec.FindStringIndex(dom)
		if loc == nil {
			t.Errorf("block %s was not moved into %s", id, into)
			continue
		}
		if p := strings.Index(dom, `id="`+into+`"`); p < 0 || p > loc[0] {
			t.Errorf("block %s is not under %s", id, into)
		}
	}
}

func TestBrowserCorpus(t *testing.T) {
	dir := t.TempDir()
	// Chromium mostly waits (on D-Bus, which is absent here): a few at
	// a time keep two cores busy without crowding them.
	sem := make(chan struct{}, 4)
	t.Run("pages", func(t *testing.T) {
		i := 0
		for name, format := range recordings(t) {
			i++
			page := filepath.Join(dir, filepath.Base(filepath.Dir(name))+"-"+filepath.Base(name)+".html")
			t.Run(filepath.Base(filepath.Dir(name))+"/"+filepath.Base(name), func(t *testing.T) {
				t.Parallel()
				sem <- struct{}{}
				defer func() { <-sem }()
				doc := renderFile(t, name, format)
				if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
					t.Fatal(err)
				}
				dom, console := chromium(t, page, "--dump-dom")
				if len(console) > 0 {
					t.Errorf("console:\n%s", strings.Join(console, "\n"))
				}
				checkDOM(t, doc, dom)
			})
		}
	})
}

// TestBrowserEscaping opens the page made of every event with every
// field hostile: nothing of it runs.
func TestBrowserEscaping(t *testing.T) {
	var b bytes.Buffer
	w := htmlview.New(&b, htmlview.Options{Title: evil})
	for _, ev := range everyEvent() {
		w.Event(ev)
	}
	w.Close()
	page := filepath.Join(t.TempDir(), "evil.html")
	if err := os.WriteFile(page, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, console := chromium(t, page, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console (a CSP violation means markup got through):\n%s", strings.Join(console, "\n"))
	}
	checkDOM(t, b.String(), dom)
	if strings.Contains(dom, "<title>pwned</title>") || strings.Contains(dom, `<img src="x"`) {
		t.Error("script from the stream ran")
	}
}

// TestBrowserScreenshots shoots a run with a subagent and a run with an
// edit; -screenshots DIR keeps them (docs/ holds the README's).
func TestBrowserScreenshots(t *testing.T) {
	all := recordings(t)
	shots := []struct{ file, png string }{
		{"../../testdata/claude/subagent.jsonl", "html-subagent.png"},
		{"../../testdata/inlinexml/cline-replace.txt", "html-diff.png"},
	}
	dir := *screenshots
	if dir == "" {
		dir = t.TempDir()
	}
	for _, s := range shots {
		format, ok := all[s.file]
		if !ok {
			format, ok = convert.Lookup("inlinexml")
			if !ok {
				t.Fatalf("%s: no format", s.file)
			}
		}
		doc := renderFile(t, s.file, format)
		page := filepath.Join(t.TempDir(), "page.html")
		if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
			t.Fatal(err)
		}
		abs, err := filepath.Abs(filepath.Join(dir, s.png))
		if err != nil {
			t.Fatal(err)
		}
		chromium(t, page, "--screenshot="+abs, "--window-size=900,1100", "--hide-scrollbars")
		if st, err := os.Stat(abs); err != nil || st.Size() < 1000 {
			t.Errorf("%s: no screenshot (%v)", s.png, err)
		}
	}
}

// TestBrowserCutOff opens pages cut off at every block boundary, as a
// page a live run is still being written into is: what arrived shows,
// nested, with no console error.
func TestBrowserCutOff(t *testing.T) {
	name := "../../testdata/claude/subagent.jsonl"
	doc := renderFile(t, name, recordings(t)[name])
	dir := t.TempDir()
	cuts := 0
	for i := 0; ; {
		j := strings.Index(doc[i:], "</section>\n")
		if j < 0 {
			break
		}
		i += j + len("</section>\n")
		cuts++
		part := doc[:i]
		page := filepath.Join(dir, "cut.html")
		if err := os.WriteFile(page, []byte(part), 0o644); err != nil {
			t.Fatal(err)
		}
		dom, console := chromium(t, page, "--dump-dom")
		if len(console) > 0 {
			t.Errorf("cut after block %d: console:\n%s", cuts, strings.Join(console, "\n"))
		}
		checkDOM(t, part, dom)
	}
	if cuts < 5 {
		t.Errorf("only %d cuts", cuts)
	}
}

// pageOfRuns renders recordings as one page of several runs, as
// assemble -o html does for a directory.
func pageOfRuns(t *testing.T, names ...string) string {
	t.Helper()
	all := recordings(t)
	var b bytes.Buffer
	p := htmlview.NewPage(&b, htmlview.PageOptions{Title: "runs", Runs: len(names)})
	for _, name := range names {
		f, ok := all[name]
		if !ok {
			t.Fatalf("%s: not a recording", name)
		}
		w := p.Run(htmlview.Options{Title: name, Agent: f.Name})
		feed(t, w, name, f)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	return b.String()
}

var runNames = []string{
	"../../testdata/claude/subagent.jsonl",
	"../../testdata/codex/shell.jsonl",
	"../../testdata/claude/tool-error.jsonl",
}

// TestBrowserPageOfRuns opens a page of several runs: every block nested
// where it belongs within its own run, each run's line moved into the
// index at the top, each run's summary in its own header.
func TestBrowserPageOfRuns(t *testing.T) {
	doc := pageOfRuns(t, runNames...)
	page := filepath.Join(t.TempDir(), "runs.html")
	if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, console := chromium(t, page, "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console:\n%s", strings.Join(console, "\n"))
	}
	checkDOM(t, doc, dom)
	i, j := strings.Index(dom, `<tbody id="index-rows">`), strings.Index(dom, `</tbody>`)
	if i < 0 || j < i || strings.Count(dom[i:j], "<tr") != len(runNames) {
		t.Errorf("the index at the top does not hold the %d runs' lines", len(runNames))
	}
	if strings.Contains(dom, `<nav id="index" hidden`) {
		t.Error("the index is still hidden")
	}
	if n := strings.Count(dom, `<dd data-k="duration">…</dd>`); n > 0 {
		t.Errorf("%d run headers kept … for the duration: summaries not copied", n)
	}
}

// TestBrowserSearch opens the page with ?q= as a search: blocks without
// the text are hidden, blocks with it (and those around them) are not.
func TestBrowserSearch(t *testing.T) {
	doc := pageOfRuns(t, runNames...)
	page := filepath.Join(t.TempDir(), "runs.html")
	if err := os.WriteFile(page, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	dom, console := chromium(t, page+"?q=from-subagent", "--dump-dom")
	if len(console) > 0 {
		t.Errorf("console:\n%s", strings.Join(console, "\n"))
	}
	total := len(sectionRE.FindAllString(doc, -1))
	shown := regexp.MustCompile(`<section class="b [^"]*" id="[^"]*" data-agent="[^"]*"(?: data-into="[^"]*")?>`).FindAllString(dom, -1)
	if len(shown) == 0 || len(shown) >= total {
		t.Errorf("%d of %d blocks shown for a search of one run's text", len(shown), total)
	}
	for _, s := range shown {
		if strings.Contains(s, `id="run2-`) {
			t.Errorf("a block of the codex run, which lacks the text, is shown: %s", s)
		}
	}
	if !strings.Contains(dom, `<article class="run" id="run2" hidden="">`) {
		t.Error("the run without the text is not hidden")
	}
	if !regexp.MustCompile(`<span id="qn" class="dim">\d+ of \d+ blocks</span>`).MatchString(dom) {
		t.Error("no count of the blocks shown")
	}
}
