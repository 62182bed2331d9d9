package xml_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	xml "github.com/agentstream/agentstream/emit/xml"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// TestAbandoned: a block its source gave up (a Notice of Kind
// event.NoticeAbandoned) is dropped, with one warning, while none of it
// has been written; once Flush has sent part of it on (a live stream),
// it is closed and reads back as content, which is warned about.
func TestAbandoned(t *testing.T) {
	t.Parallel()
	const a = "main"
	for _, tt := range []struct {
		name    string
		flush   bool // Flush after the abandoned block's first delta
		want    []string
		warning string
	}{
		{"held", false, []string{"Whole answer"}, "abandoned partial messages (dropped)"},
		{"flushed", true, []string{"Hal", "Whole answer"}, "abandoned partial messages (what was streamed of them reads back as content)"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var out bytes.Buffer
			var warnings []string
			e := xml.NewEncoder(&out, &xml.Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
			encode := func(ev event.Event) {
				t.Helper()
				if err := e.Encode(ev); err != nil {
					t.Fatal(err)
				}
			}
			encode(&event.SessionStart{Agent: a, SessionID: a})
			encode(&event.BlockStart{Agent: a, Kind: event.Text})
			encode(&event.Delta{Agent: a, Kind: event.Text, Text: "Hal"})
			if tt.flush {
				if err := e.Flush(); err != nil {
					t.Fatal(err)
				}
			}
			encode(&event.Notice{Agent: a, Kind: "api_retry", Message: "retrying"}) // writes nothing
			encode(&event.Notice{Agent: a, Kind: event.NoticeAbandoned, Message: "given up"})
			encode(&event.BlockStart{Agent: a, Kind: event.Text})
			encode(&event.Delta{Agent: a, Kind: event.Text, Text: "Whole "})
			encode(&event.Delta{Agent: a, Kind: event.Text, Text: "answer"})
			encode(&event.BlockEnd{Agent: a, Kind: event.Text})
			encode(&event.RunEnd{Agent: a, StopReason: "end_turn"})
			if err := e.Close(); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, textsOf(t, out.Bytes(), "xml")); diff != "" {
				t.Errorf("text blocks read back (-want +got):\n%s\noutput:\n%s", diff, out.String())
			}
			var abandoned []string
			for _, w := range warnings {
				if strings.Contains(w, "abandoned") {
					abandoned = append(abandoned, w)
				}
			}
			if diff := cmp.Diff([]string{"xml cannot carry " + tt.warning}, abandoned); diff != "" {
				t.Errorf("warnings about the abandoned block (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAbandonedRecordings: recordings with a retried message (made from
// the corpus's partial-plain-text run and its Anthropic body: the first
// message given up after three deltas and begun again under a new id, as
// testdata/abandoned/README.md says) and every Claude and Anthropic
// recording of testdata/ and the shared corpus, converted to xml as a
// file is (no flush between events) and read back, give the text blocks
// assemble gives of the source: what the source abandoned is dropped,
// never read back as content, and nothing else is.
func TestAbandonedRecordings(t *testing.T) {
	t.Parallel()
	paths := append(recordings(t, "testdata/abandoned", "*"),
		recordings(t, "../../testdata/claude", "*.jsonl")...)
	paths = append(paths, recordings(t, "../../testdata/anthropic", "*.sse")...)
	paths = append(paths, recordings(t, "../../../shared/corpus/claude", "*.jsonl")...)
	paths = append(paths, recordings(t, "../../../shared/corpus/anthropic", "*.sse")...)
	abandoned := 0
	for _, path := range paths {
		in, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		from := "claude"
		if strings.HasSuffix(path, ".sse") {
			from = "anthropic"
		}
		src := blocks(t, in, from)
		for _, b := range src {
			if b.Type == assemble.TypeNotice && b.Kind == event.NoticeAbandoned {
				abandoned++
			}
		}
		var want []string
		for _, b := range src {
			if b.Type == assemble.TypeText && b.Text != "" {
				want = append(want, b.Text)
			}
		}
		out := convertFile(t, in, from)
		if diff := cmp.Diff(want, textsOf(t, out, "xml")); diff != "" {
			t.Errorf("%s: text blocks of the xml output (-source +xml):\n%s", filepath.Base(path), diff)
		}
	}
	if abandoned < 2 {
		t.Fatalf("%d abandoned messages in the recordings: the test tests nothing", abandoned)
	}
}

func recordings(t *testing.T, dir, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range files {
		if !strings.HasSuffix(f, ".md") {
			out = append(out, f)
		}
	}
	if len(out) == 0 {
		t.Fatalf("no recordings in %s", dir)
	}
	return out
}

// convertFile converts in to xml as convert does a file: the encoder is
// flushed only at the end.
func convertFile(t *testing.T, in []byte, from string) []byte {
	t.Helper()
	f, _ := convert.Lookup(from)
	var buf bytes.Buffer
	enc := xml.NewEncoder(&buf, nil)
	if err := convert.Pipe(f.NewDecoder(bytes.NewReader(in), &format.Options{}), enc, &convert.PipeOptions{Problem: func(error) bool { return true }}); err != nil {
		t.Fatal(err)
	}
	_ = enc.Close() // a cut recording leaves a block open
	return buf.Bytes()
}

// textsOf returns the texts of the non-empty text blocks a stream of
// format from assembles to.
func textsOf(t *testing.T, in []byte, from string) []string {
	t.Helper()
	var texts []string
	for _, b := range blocks(t, in, from) {
		if b.Type == assemble.TypeText && b.Text != "" {
			texts = append(texts, b.Text)
		}
	}
	return texts
}
