package eventtest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// Corpus returns the files of dir matching pattern, failing when there
// are none.
func Corpus(t testing.TB, dir, pattern string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil || len(files) == 0 {
		t.Fatalf("no recordings in %s: %v", dir, err)
	}
	return files
}

// GoldenFiles checks the events newDec reads from each file against
// testdata/<name>.golden (Golden's text; ext is trimmed from the name),
// or rewrites the golden files when update is set.
func GoldenFiles(t *testing.T, files []string, ext string, update bool, newDec func(r io.Reader, source string) event.Decoder) {
	goldenFiles(t, files, ext, update, func(r io.Reader, name string) []byte {
		return Golden(Collect(newDec(r, name)))
	})
}

// goldenFiles checks render's text of each file against
// testdata/<name>.golden, the name without ext, or without its own
// extension when ext is "" (see GoldenFile).
func goldenFiles(t *testing.T, files []string, ext string, update bool, render func(r io.Reader, name string) []byte) {
	for _, file := range files {
		name := filepath.Base(file)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			trim := ext
			if trim == "" {
				trim = filepath.Ext(name)
			}
			GoldenFile(t, filepath.Join("testdata", strings.TrimSuffix(name, trim)+".golden"), render(bytes.NewReader(data), name), update)
		})
	}
}

// SplitInvariance checks that each file gives the same events, all of
// valid UTF-8, whether read whole or through iotest.OneByteReader,
// HalfReader and DataErrReader.
func SplitInvariance(t *testing.T, files []string, newDec func(r io.Reader) event.Decoder) {
	for _, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			t.Parallel()
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			want := Collect(newDec(bytes.NewReader(data)))
			if len(want) == 0 {
				t.Fatal("no events")
			}
			CheckUTF8(t, want)
			for name, r := range map[string]io.Reader{
				"OneByteReader": iotest.OneByteReader(bytes.NewReader(data)),
				"HalfReader":    iotest.HalfReader(bytes.NewReader(data)),
				"DataErrReader": iotest.DataErrReader(bytes.NewReader(data)),
			} {
				if diff := cmp.Diff(want, Collect(newDec(r))); diff != "" {
					t.Errorf("%s gives other events (-whole +%s):\n%s", name, name, diff)
				}
			}
		})
	}
}

// FuzzSplit is the body of a decoder's fuzz target: data read whole and
// one byte at a time gives the same events, all of valid UTF-8.
func FuzzSplit(t *testing.T, data []byte, newDec func(r io.Reader) event.Decoder) {
	want := Collect(newDec(bytes.NewReader(data)))
	CheckUTF8(t, want)
	got := Collect(newDec(iotest.OneByteReader(bytes.NewReader(data))))
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("OneByteReader gives other events:\n%s", diff)
	}
}

// BenchDecode measures newDec over the files, concatenated, but those
// named hand-bad (cut off or broken on purpose).
func BenchDecode(b *testing.B, files []string, newDec func(r io.Reader) event.Decoder) {
	var data []byte
	for _, file := range files {
		if strings.Contains(filepath.Base(file), "hand-bad") {
			continue
		}
		d, err := os.ReadFile(file)
		if err != nil {
			b.Fatal(err)
		}
		data = append(data, d...)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		d := newDec(bytes.NewReader(data))
		for {
			if _, err := d.Next(); err == io.EOF {
				break
			}
		}
	}
}

// Reports collects what a format.Checker reports, one "RULE LINE message"
// string each.
type Reports []string

// Report implements format.Reporter.
func (r *Reports) Report(rule string, line, _ int, msg string) {
	*r = append(*r, fmt.Sprintf("%s %d %s", rule, line, msg))
}

// Events returns the events of items, without the problems.
func Events(items []Item) []event.Event {
	var evs []event.Event
	for _, it := range items {
		if it.Event != nil {
			evs = append(evs, it.Event)
		}
	}
	return evs
}

// Warnings returns a Warn function for an encoder's config that records
// each warning's text in *into, failing t for a warning that is not a
// *event.LossError.
func Warnings(t testing.TB, into *[]string) func(error) {
	return func(err error) {
		var loss *event.LossError
		if !errors.As(err, &loss) {
			t.Errorf("warning is not a *event.LossError: %v", err)
		}
		*into = append(*into, err.Error())
	}
}

// Encode writes evs with enc and closes it, failing t on any error.
func Encode(t testing.TB, enc event.Encoder, evs []event.Event) {
	t.Helper()
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatalf("Encode(%T): %v", ev, err)
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}
