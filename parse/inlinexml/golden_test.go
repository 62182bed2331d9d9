package inlinexml

import (
	"flag"
	"io"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/eventtest"
	"github.com/agentstream/agentstream/toolset"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var protocol = eventtest.TextProtocol{
	Dir: "../../testdata/inlinexml",
	Decoder: func(r io.Reader, source string, tools []toolset.Tool) event.Decoder {
		return NewDecoder(r, &Config{Source: source, Tools: tools})
	},
	Capped: func(r io.Reader) event.Decoder { return NewDecoder(r, &Config{MaxCallBytes: 1 << 10}) },
	Wrap:   func(dec event.Decoder) event.Decoder { return Wrap(dec, &Config{MaxCallBytes: 1 << 10}) },
	Cut:    func(name string) bool { return name == "truncated" },
}

func TestGolden(t *testing.T) {
	t.Parallel()
	protocol.Golden(t, *update)
}

func FuzzDecode(f *testing.F) {
	var seeds []string
	for _, tt := range decodeTests {
		seeds = append(seeds, tt.in)
	}
	protocol.Fuzz(f, seeds)
}

// BenchmarkDecode decodes the samples repeated to about 1 MB of text.
func BenchmarkDecode(b *testing.B) { protocol.Bench(b) }
