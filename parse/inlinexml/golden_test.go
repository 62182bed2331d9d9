package inlinexml

import (
	"bytes"
	"flag"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/eventtest"
	"github.com/agentstream/agentstream/toolset"
)

var update = flag.Bool("update", false, "rewrite the golden files")

const samples = "../../testdata/inlinexml"

type sample struct {
	name, path string
	in         []byte
	cfg        *Config
}

func loadSamples(tb testing.TB) []sample {
	paths, err := filepath.Glob(filepath.Join(samples, "*.txt"))
	if err != nil || len(paths) == 0 {
		tb.Fatalf("no samples in %s: %v", samples, err)
	}
	var ss []sample
	for _, p := range paths {
		in, err := os.ReadFile(p)
		if err != nil {
			tb.Fatal(err)
		}
		cfg := &Config{Source: filepath.Base(p)}
		if tools := strings.TrimSuffix(p, ".txt") + ".tools.json"; fileExists(tools) {
			cfg.Tools, err = toolset.LoadFile(tools)
			if err != nil {
				tb.Fatal(err)
			}
		}
		ss = append(ss, sample{name: strings.TrimSuffix(filepath.Base(p), ".txt"), path: p, in: in, cfg: cfg})
	}
	return ss
}

func fileExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

func TestGolden(t *testing.T) {
	t.Parallel()
	for _, s := range loadSamples(t) {
		t.Run(s.name, func(t *testing.T) {
			t.Parallel()
			got := eventtest.Golden(eventtest.Collect(NewDecoder(bytes.NewReader(s.in), s.cfg)))
			golden := strings.TrimSuffix(s.path, ".txt") + ".events"
			if *update {
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
			one := eventtest.Golden(eventtest.Collect(NewDecoder(iotest.OneByteReader(bytes.NewReader(s.in)), s.cfg)))
			if diff := cmp.Diff(string(got), string(one)); diff != "" {
				t.Errorf("one-byte reads (-whole +one byte):\n%s", diff)
			}
		})
	}
}

func FuzzDecode(f *testing.F) {
	for _, s := range loadSamples(f) {
		f.Add(string(s.in), uint8(3))
	}
	for _, tt := range decodeTests {
		f.Add(tt.in, uint8(1))
	}
	f.Fuzz(func(t *testing.T, in string, n uint8) {
		cfg := &Config{MaxCallBytes: 1 << 10}
		want := eventtest.Collect(NewDecoder(strings.NewReader(in), cfg))
		eventtest.CheckUTF8(t, want) // whatever the input
		step := int(n%16) + 1
		got := eventtest.Collect(NewDecoder(&eventtest.ChunkReader{Chunks: eventtest.Split(in, step)}, cfg))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d-byte chunks (-whole +chunked):\n%s", step, diff)
		}
		src := &eventtest.Source{Events: eventtest.TextBlock("", in, step)}
		wrapped := eventtest.Collect(Wrap(src, cfg))
		if diff := cmp.Diff(eventtest.Normalise(want), eventtest.Normalise(eventtest.RunEndFirst(wrapped))); diff != "" {
			t.Errorf("Wrap, %d-byte deltas (-plain +wrapped):\n%s", step, diff)
		}
	})
}

// BenchmarkDecode decodes the samples repeated to about 1 MB of text.
func BenchmarkDecode(b *testing.B) {
	var long bytes.Buffer
	for long.Len() < 1<<20 {
		for _, s := range loadSamples(b) {
			if s.name != "truncated" {
				long.Write(s.in)
				long.WriteString("\n\n")
			}
		}
	}
	in := long.Bytes()
	b.ReportAllocs()
	b.SetBytes(int64(len(in)))
	for b.Loop() {
		dec := NewDecoder(bytes.NewReader(in), nil)
		for {
			if _, err := dec.Next(); err == io.EOF {
				break
			}
		}
	}
}
