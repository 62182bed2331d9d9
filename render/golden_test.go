package render

import (
	"bufio"
	"bytes"
	"errors"
	"flag"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// repoTestdata is the repository's shared testdata directory, walked for
// streams: every recording and hand-written stream a format branch adds
// there gets its golden files once `go test ./render -update` is run.
const repoTestdata = "../testdata"

// notStreams are testdata entries that are never streams.
var notStreams = map[string]bool{"script": true, "golden": true}

// views are the transcripts each stream has a golden file of.
var views = []struct {
	ext string
	o   Options
}{
	{".txt", Options{Styles: NewStyles(true)}},
	{".live.txt", Options{Styles: NewStyles(true), Live: true}},
	{".md", Options{Markdown: true}},
}

// TestGolden renders every stream under ../testdata in each view and
// compares with testdata/golden/<path>.<view>, colour escapes made
// visible (ESC shown as ␛).
func TestGolden(t *testing.T) {
	t.Parallel()
	var files []string
	err := filepath.WalkDir(repoTestdata, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if notStreams[d.Name()] {
				return filepath.SkipDir
			}
			return nil
		}
		switch ext := filepath.Ext(path); {
		case ext == ".md", ext == ".txtar", ext == ".go", ext == ".events", strings.HasSuffix(path, ".tools.json"):
			return nil // docs, scripts, expected events, tool definitions
		}
		files = append(files, path)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatal("no streams under " + repoTestdata)
	}
	for _, path := range files {
		rel, _ := filepath.Rel(repoTestdata, path)
		t.Run(filepath.ToSlash(rel), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, co, err := streamFormat(path, data)
			if err != nil {
				t.Fatalf("format not detected: %v", err)
			}
			co.Source = filepath.ToSlash(rel)
			vs := views
			if strings.Contains(rel, "session") {
				// Session logs are where the bookkeeping lines are.
				vs = append(slices.Clip(vs), struct {
					ext string
					o   Options
				}{".verbose.txt", Options{Verbose: true}})
			}
			for _, v := range vs {
				o := v.o
				o.TurnEndsRun = slices.Contains(f.Lacks, format.MetaFinal)
				got := visible(renderStream(t, f, co, data, o))
				golden := filepath.Join("testdata", "golden", rel+v.ext)
				eventtest.GoldenFile(t, golden, []byte(got), *update)
			}
		})
	}
}

// streamFormat returns the format of the stream at path: the format its
// directory is named after, as --from would choose it (testdata/inlinexml
// holds model text no detection claims), else the detected one; with the
// tools of NAME.tools.json when there is one.
func streamFormat(path string, data []byte) (convert.Format, *format.Options, error) {
	co := &format.Options{}
	tools := strings.TrimSuffix(path, filepath.Ext(path)) + ".tools.json"
	if _, err := os.Stat(tools); err == nil {
		co.ToolsFile = tools
	}
	if f, ok := convert.Lookup(filepath.Base(filepath.Dir(path))); ok && f.NewDecoder != nil {
		return f, co, nil
	}
	f, _, err := convert.Detect(bufio.NewReader(bytes.NewReader(data)))
	return f, co, err
}

// renderStream decodes data in format f and renders it with o, skipping
// what the decoder reports as bad input, as the command does.
func renderStream(t *testing.T, f convert.Format, co *format.Options, data []byte, o Options) string {
	t.Helper()
	dec := f.NewDecoder(bufio.NewReader(bytes.NewReader(data)), co)
	var out bytes.Buffer
	tr := NewTranscript(&out, o)
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		var perr *event.ParseError
		if errors.As(err, &perr) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		if err := tr.Event(ev); err != nil && !errors.Is(err, assemble.ErrBlockTooLarge) {
			t.Fatal(err)
		}
	}
	if err := tr.Close(); err != nil && !errors.Is(err, event.ErrTruncated) {
		t.Fatal(err)
	}
	return out.String()
}

// visible shows ESC as ␛, so that golden files show their colours.
func visible(s string) string {
	return strings.ReplaceAll(s, "\x1b", "␛")
}
