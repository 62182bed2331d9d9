package eventtest

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/toolset"
)

// Block is a block of kind holding text as Collect gives it: its start,
// one Delta (none for empty text), its end.
func Block(kind event.BlockKind, text string) []Item {
	its := []Item{{Event: &event.BlockStart{Kind: kind}}}
	if text != "" {
		its = append(its, Item{Event: &event.Delta{Kind: kind, Text: text}})
	}
	return append(its, Item{Event: &event.BlockEnd{Kind: kind}})
}

// TextItems is a text block holding s, as Block.
func TextItems(s string) []Item { return Block(event.Text, s) }

// Thought is a thinking block holding s, as Block.
func Thought(s string) []Item { return Block(event.Thinking, s) }

// Problem is the item of a problem with message msg.
func Problem(msg string) []Item { return []Item{{Err: msg}} }

// Seq joins lists of items.
func Seq(parts ...[]Item) []Item { return slices.Concat(parts...) }

// TextCase is a case of a model text format's decode table: the items
// input In gives with the decoder's configuration Cfg.
type TextCase[C any] struct {
	Name string
	In   string
	Cfg  C
	Want []Item
}

// TextCases is a model text format's decode table and its two decoders:
// the plain one and the wrapper of another stream's text blocks.
type TextCases[C any, D event.Decoder] struct {
	Cases   []TextCase[C]
	Decoder func(r io.Reader, cfg C) D
	Wrap    func(dec event.Decoder, cfg C) event.Decoder
}

// Inputs returns the cases' inputs, to seed a fuzz target.
func (tc TextCases[C, D]) Inputs() []string {
	in := make([]string, len(tc.Cases))
	for i, c := range tc.Cases {
		in[i] = c.In
	}
	return in
}

// Decode checks that each case decodes to its Want.
func (tc TextCases[C, D]) Decode(t *testing.T) {
	for _, c := range tc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			got := Collect(tc.Decoder(strings.NewReader(c.In), c.Cfg))
			if diff := cmp.Diff(c.Want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// Chunking checks that each case decodes alike whole, through the
// iotest readers, and (unless the plain decoder refuses it, Refused) as a
// text block of deltas of each of sizes through Wrap.
func (tc TextCases[C, D]) Chunking(t *testing.T, sizes ...int) {
	for _, c := range tc.Cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			want := Collect(tc.Decoder(strings.NewReader(c.In), c.Cfg))
			for name, r := range map[string]io.Reader{
				"OneByteReader": iotest.OneByteReader(strings.NewReader(c.In)),
				"HalfReader":    iotest.HalfReader(strings.NewReader(c.In)),
				"DataErrReader": iotest.DataErrReader(strings.NewReader(c.In)),
			} {
				if diff := cmp.Diff(want, Collect(tc.Decoder(r, c.Cfg))); diff != "" {
					t.Errorf("%s (-whole +chunked):\n%s", name, diff)
				}
			}
			for _, n := range sizes {
				if Refused(want) {
					break
				}
				src := &Source{Events: TextBlock("", c.In, n)}
				got := Collect(tc.Wrap(src, c.Cfg))
				if diff := cmp.Diff(Normalise(want), Normalise(RunEndFirst(got))); diff != "" {
					t.Errorf("Wrap, %d-byte deltas (-plain +wrapped):\n%s", n, diff)
				}
			}
		})
	}
}

// RandomSplits checks that each case decodes alike whole and cut into
// five random chunkings (a fixed seed: the same ones every run).
func (tc TextCases[C, D]) RandomSplits(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range tc.Cases {
		want := Collect(tc.Decoder(strings.NewReader(c.In), c.Cfg))
		for range 5 {
			var chunks []string
			for s := c.In; s != ""; {
				n := 1 + rng.IntN(len(s))
				chunks = append(chunks, s[:n])
				s = s[n:]
			}
			got := Collect(tc.Decoder(&ChunkReader{Chunks: chunks}, c.Cfg))
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s split %q (-whole +split):\n%s", c.Name, chunks, diff)
			}
		}
	}
}

// Streamed drains dec, which reads r, and returns show(ev) for each event
// (but those it shows as ""), each after the number of the chunks r had
// handed out then: what a decoder yields before it reads the next chunk.
func Streamed(dec event.Decoder, r *ChunkReader, show func(event.Event) string) []string {
	var got []string
	for {
		ev, err := dec.Next()
		if err != nil {
			return got
		}
		if s := show(ev); s != "" {
			got = append(got, strconv.Itoa(r.N)+" "+s)
		}
	}
}

// NewTextProtocol returns the TextProtocol of the samples in dir, read by
// a format's NewDecoder and Wrap with the Config config makes for a
// source name, tools and a cap (0: the default); fuzz input is read with
// a cap of 1 KiB. cut names the samples a benchmark leaves out.
func NewTextProtocol[C any, D event.Decoder](dir string, newDecoder func(io.Reader, C) D,
	wrap func(event.Decoder, C) event.Decoder, config func(source string, tools []toolset.Tool, max int) C,
	cut func(name string) bool,
) TextProtocol {
	return TextProtocol{
		Dir: dir,
		Decoder: func(r io.Reader, source string, tools []toolset.Tool) event.Decoder {
			return newDecoder(r, config(source, tools, 0))
		},
		Capped: func(r io.Reader) event.Decoder { return newDecoder(r, config("", nil, 1<<10)) },
		Wrap:   func(dec event.Decoder) event.Decoder { return wrap(dec, config("", nil, 1<<10)) },
		Cut:    cut,
	}
}

// CutSource yields Events, then a truncation at "in:3", then io.EOF: a
// decoder whose input ended inside a text block.
type CutSource struct {
	Events []event.Event
	cut    bool
}

// CutMessage is the text of CutSource's truncation.
const CutMessage = "in:3:1: stream ended inside a text block"

// Next returns the next event, then the truncation, then io.EOF.
func (s *CutSource) Next() (event.Event, error) {
	if len(s.Events) > 0 {
		ev := s.Events[0]
		s.Events = s.Events[1:]
		return ev, nil
	}
	if !s.cut {
		s.cut = true
		return nil, &event.ParseError{Source: "in", Line: 3, Column: 1, Offset: -1, Err: event.Errorf(event.ErrTruncated, "stream ended inside a text block")}
	}
	return nil, io.EOF
}

// CutCase is a text block of agent "a" cut off inside Text, and the items
// a wrapper must give for it.
type CutCase struct {
	Name, Text string
	Want       []Item
}

// CutInThinking is the case of a text cut off inside a thinking element
// opened with open ("<thinking>"): the text before it is a closed text
// block, the thinking block stays open.
func CutInThinking(open string) CutCase {
	return CutCase{
		Name: "inside " + open,
		Text: "Hi." + open + "partial",
		Want: []Item{
			{Event: &event.BlockStart{Agent: "a", Kind: event.Text}},
			{Event: &event.Delta{Agent: "a", Kind: event.Text, Text: "Hi."}},
			{Event: &event.BlockEnd{Agent: "a", Kind: event.Text}},
			{Event: &event.BlockStart{Agent: "a", Kind: event.Thinking}},
			{Event: &event.Delta{Agent: "a", Kind: event.Thinking, Text: "partial"}},
			{Err: CutMessage},
		},
	}
}

// WrapCut checks the end of a source cut off inside a text block: wrap
// reads a CutSource giving the case's Text in 4-byte deltas and no
// BlockEnd.
func WrapCut(t *testing.T, wrap func(event.Decoder) event.Decoder, cases []CutCase) {
	for _, c := range cases {
		t.Run(c.Name, func(t *testing.T) {
			t.Parallel()
			block := TextBlock("a", c.Text, 4)
			got := Collect(wrap(&CutSource{Events: block[:len(block)-1]})) // no BlockEnd
			if diff := cmp.Diff(c.Want, got); diff != "" {
				t.Errorf("events (-want +got):\n%s", diff)
			}
		})
	}
}

// RoundTrip decodes each sample (but those skip names), encodes its events
// with encode and decodes the text again: the events must not change.
func (p TextProtocol) RoundTrip(t *testing.T, skip func(name string) bool, encode func(*testing.T, []event.Event) (string, error)) {
	for _, s := range p.Samples(t) {
		if skip(s.Name) {
			continue
		}
		t.Run(s.Name+".txt", func(t *testing.T) {
			t.Parallel()
			first := Collect(p.Decoder(bytes.NewReader(s.In), "", nil))
			text, err := encode(t, Events(first))
			if err != nil {
				t.Fatal(err)
			}
			second := Collect(p.Decoder(strings.NewReader(text), "", nil))
			if diff := cmp.Diff(first, second); diff != "" {
				t.Errorf("events (-decoded +re-decoded):\n%s\ntext:\n%s", diff, text)
			}
		})
	}
}

// BenchEncode encodes the events of the samples (but those Cut leaves
// out) repeated to about 1 MB of text, with an encoder from newEnc; the
// bytes counted are the samples' text.
func (p TextProtocol) BenchEncode(b *testing.B, newEnc func(w io.Writer) event.Encoder) {
	var evs []event.Event
	n := 0
	for n < 1<<20 {
		for _, s := range p.Samples(b) {
			if !p.Cut(s.Name) {
				evs = append(evs, Events(Collect(p.Decoder(bytes.NewReader(s.In), "", nil)))...)
				n += len(s.In)
			}
		}
	}
	b.ReportAllocs()
	b.SetBytes(int64(n))
	for b.Loop() {
		enc := newEnc(io.Discard)
		for _, ev := range evs {
			if err := enc.Encode(ev); err != nil {
				b.Fatal(err)
			}
		}
		_ = enc.Close()
	}
}
