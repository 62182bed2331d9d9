package jsonenv

import (
	"testing"

	"github.com/agentstream/agentstream/internal/eventtest"
	wire "github.com/agentstream/agentstream/internal/jsonenvwire"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
)

func envelopeSeeds(t testing.TB) [][]byte {
	seeds := append(eventtest.Lines(t, "../../testdata/jsonenv/*.sse", "data: "), eventtest.Lines(t, "../../testdata/jsonenv/*.jsonl", "")...)
	for _, s := range []string{
		`{"type":"text","agent":"a","final":false,"delta":"x\n\u00e9\ud800","delta":"y"}`,
		`{"type":"citation","agent":"a","final":true,"delta":"","document_index":1,"document_index":null,"url":"u"}`,
		`{"type":"text","agent":"a","final":"no","delta":""}`,
		`{"type":"text","Agent":"a","final":true,"delta":""}`,
		`{"type":"citation","agent":"a","start_char_index":1.5}`,
		`{"type":"text","agent":null,"final":null,"delta":null,"id":null}`,
		"{\"type\":\"text\",\"agent\":\"a\",\"final\":false,\"delta\":\"bad \xff byte\"}",
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// compareEnvelope checks that what the one-pass reader decodes is what
// json.Unmarshal gives, and reports whether it decoded data. data goes
// through badutf8 first, as the decoder's units do.
func compareEnvelope(t *testing.T, data []byte) bool {
	t.Helper()
	data = badutf8.Replace(data)
	var d Decoder
	return eventtest.OnePass(t, data, func(r *jsontext.Reader, env *wire.Envelope) bool {
		return d.readEnvelopeFields(r, env)
	}, nil)
}

func TestReadEnvelopeSeeds(t *testing.T) {
	t.Parallel()
	eventtest.OnePassSeeds(t, envelopeSeeds(t), 50, compareEnvelope)
}

func FuzzReadEnvelope(f *testing.F) {
	eventtest.FuzzOnePass(f, envelopeSeeds(f), compareEnvelope)
}

// TestReadEnvelopeKnowsEveryField: a field added to wire.Envelope must be
// read by readEnvelopeFields too, which would otherwise skip it.
func TestReadEnvelopeKnowsEveryField(t *testing.T) {
	t.Parallel()
	eventtest.ReadsEveryField(t, "read.go", wire.Envelope{})
}
