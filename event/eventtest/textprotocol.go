package eventtest

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/toolset"
)

// TextSample is a recorded sample of a model text format: NAME.txt, its
// golden events NAME.events, and NAME.tools.json beside it when the
// sample declares its tools.
type TextSample struct {
	Name, Path string
	In         []byte
	Tools      []toolset.Tool // nil without a tools file
}

// TextProtocol is the golden, fuzz and benchmark harness the model text
// formats (inlinexml, xmltools) share.
type TextProtocol struct {
	Dir string // the samples' directory
	// Decoder reads a sample with its source name and tools.
	Decoder func(r io.Reader, source string, tools []toolset.Tool) event.Decoder
	// Capped reads fuzz input with a small cap on one call.
	Capped func(r io.Reader) event.Decoder
	// Wrap reads the text blocks of dec, with the same small cap.
	Wrap func(dec event.Decoder) event.Decoder
	// Cut reports the samples a benchmark leaves out (cut off, invalid).
	Cut func(name string) bool
}

// Samples loads the samples of p.Dir.
func (p TextProtocol) Samples(tb testing.TB) []TextSample {
	tb.Helper()
	paths, err := filepath.Glob(filepath.Join(p.Dir, "*.txt"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no samples in %s: %v", p.Dir, err)
	}
	var ss []TextSample
	for _, path := range paths {
		in, err := os.ReadFile(path)
		if err != nil {
			tb.Fatal(err)
		}
		s := TextSample{Name: strings.TrimSuffix(filepath.Base(path), ".txt"), Path: path, In: in}
		if tools := strings.TrimSuffix(path, ".txt") + ".tools.json"; fileExists(tools) {
			if s.Tools, err = toolset.LoadFile(tools); err != nil {
				tb.Fatal(err)
			}
		}
		ss = append(ss, s)
	}
	return ss
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// Golden checks each sample's events against NAME.events (rewritten with
// update), read whole and one byte at a time.
func (p TextProtocol) Golden(t *testing.T, update bool) {
	for _, s := range p.Samples(t) {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			read := func(r io.Reader) []byte {
				return Golden(Collect(p.Decoder(r, filepath.Base(s.Path), s.Tools)))
			}
			got := read(bytes.NewReader(s.In))
			golden := strings.TrimSuffix(s.Path, ".txt") + ".events"
			if update {
				if err := os.WriteFile(golden, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatalf("%v (run with -update)", err)
			}
			if !bytes.Equal(want, got) {
				t.Errorf("%s differs from the decoder's output; run with -update and review the diff", golden)
			}
			if diff := cmp.Diff(string(got), string(read(iotest.OneByteReader(bytes.NewReader(s.In))))); diff != "" {
				t.Errorf("one-byte reads (-whole +one byte):\n%s", diff)
			}
		})
	}
}

// Fuzz seeds f with the samples and seeds, and checks that any input
// decodes alike whole, in chunks, and (unless the plain decoder refuses it
// as binary data or HTML) as text blocks through Wrap.
func (p TextProtocol) Fuzz(f *testing.F, seeds []string) {
	for _, s := range p.Samples(f) {
		f.Add(string(s.In), uint8(3))
	}
	for _, s := range seeds {
		f.Add(s, uint8(1))
	}
	f.Fuzz(func(t *testing.T, in string, n uint8) {
		want := Collect(p.Capped(strings.NewReader(in)))
		CheckUTF8(t, want) // whatever the input
		step := int(n%16) + 1
		got := Collect(p.Capped(&ChunkReader{Chunks: Split(in, step)}))
		if diff := quickDiff(want, got); diff != "" {
			t.Errorf("%d-byte chunks (-whole +chunked):\n%s", step, diff)
		}
		if Refused(want) {
			return // text blocks are text
		}
		wrapped := Collect(p.Wrap(&Source{Events: TextBlock("", in, step)}))
		if diff := quickDiff(Normalise(want), Normalise(RunEndFirst(wrapped))); diff != "" {
			t.Errorf("Wrap, %d-byte deltas (-plain +wrapped):\n%s", step, diff)
		}
	})
}

// Refused reports whether a plain text decoder refused its input as
// binary data or an HTML document: its one item is that problem. Text
// blocks of another format are text, so Wrap reads them on.
func Refused(items []Item) bool {
	return len(items) == 1 && strings.Contains(items[0].Err, "not model text: it looks like")
}

// quickDiff is cmp.Diff(want, got), asked only when reflect.DeepEqual
// sees a difference: cmp.Diff walks the items by reflection with its own
// bookkeeping and took most of a fuzz execution's time.
func quickDiff(want, got []Item) string {
	if reflect.DeepEqual(want, got) {
		return ""
	}
	return cmp.Diff(want, got)
}

// Bench decodes the samples (but those Cut leaves out) repeated to about
// 1 MB of text.
func (p TextProtocol) Bench(b *testing.B) {
	var long bytes.Buffer
	for long.Len() < 1<<20 {
		for _, s := range p.Samples(b) {
			if !p.Cut(s.Name) {
				long.Write(s.In)
				long.WriteString("\n\n")
			}
		}
	}
	in := long.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		dec := p.Decoder(bytes.NewReader(in), "", nil)
		for {
			if _, err := dec.Next(); err == io.EOF {
				break
			}
		}
	}
}
