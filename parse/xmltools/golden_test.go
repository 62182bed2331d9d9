package xmltools

import (
	"flag"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/toolset"
)

var update = flag.Bool("update", false, "rewrite the golden files")

var protocol = eventtest.NewTextProtocol("../../testdata/xmltools", NewDecoder, Wrap, testConfig,
	func(name string) bool {
		return strings.HasPrefix(name, "truncated") || name == "invalid-tags"
	})

func testConfig(source string, tools []toolset.Tool, max int) *Config {
	return &Config{Source: source, Tools: tools, MaxSlotBytes: max}
}

func TestGolden(t *testing.T) { t.Parallel(); protocol.Golden(t, *update) }

func FuzzDecode(f *testing.F) { protocol.Fuzz(f, decoding.Inputs()) }

// BenchmarkDecode decodes the samples repeated to about 1 MB of text.
func BenchmarkDecode(b *testing.B) { protocol.Bench(b) }
