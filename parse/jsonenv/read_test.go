package jsonenv

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event/eventtest"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
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
		// quickEnvelope's edges: escapes and control bytes in type and
		// agent, white space, more after the delta.
		`{"type":"te\"xt","agent":"a","final":true,"delta":"x"}`,
		`{"type":"text","agent":"a\\","final":true,"delta":"x"}`,
		`{"type":"text","agent":"a\u0062","final":true,"delta":"x"}`,
		"{\"type\":\"text\",\"agent\":\"a\tb\",\"final\":true,\"delta\":\"x\"}",
		`{"type":"text","agent":"a","final":true,"delta":"x"} `,
		`{"type":"text","agent":"a","final":true,"delta":"x"}}`,
		`{"type":"text","agent":"a","final":true,"delta":"x","id":"i"}`,
		`{"type":"tool_call","agent":"a","final":true,"delta":"{}","id":"i","name":"n"}`,
		`{"type":"tool_call","agent":"a","final":true,"delta":"{}","id":"","name":""}`,
		`{"type":"tool_call","agent":"a","final":true,"delta":"{}","id":"i\"","name":"n"}`,
		`{"type":"tool_call","agent":"a","final":true,"delta":"{}","id":"i","name":"n\u0041"}`,
		`{"type":"tool_call","agent":"a","final":true,"delta":"{}","id":"i","name":"n","src":"s"}`,
		`{"type":"tool_call","agent":"a","final":true,"delta":"{}","name":"n","id":"i"}`,
		`{"type":"text","agent":"a","final":tru,"delta":"x"}`,
		`{"type":"text","agent":"a","final":false,"delta":null}`,
		`{"type":"","agent":"","final":false,"delta":"\u00e9\ud800\n"}`,
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
	compareQuick(t, &d, data)
	compareQuick(t, &d, data) // type and agent as the last envelope's
	return wiretest.OnePass(t, data, wire.ReadEnvelope, nil)
}

// compareQuick checks that quickEnvelope, when it decodes data, gives
// what json.Unmarshal gives.
func compareQuick(t *testing.T, d *Decoder, data []byte) {
	t.Helper()
	if !d.quickEnvelope(data) {
		return
	}
	got := d.env
	got.Delta = string(d.delta)
	var want wire.Envelope
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("quickEnvelope decoded %q, which json.Unmarshal rejects: %v", data, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Fatalf("quickEnvelope(%q) (-json.Unmarshal +quickEnvelope):\n%s", data, diff)
	}
}

func TestReadEnvelopeSeeds(t *testing.T) {
	t.Parallel()
	wiretest.OnePassSeeds(t, envelopeSeeds(t), 50, compareEnvelope)
}

func FuzzReadEnvelope(f *testing.F) {
	wiretest.FuzzOnePass(f, envelopeSeeds(f), compareEnvelope)
}

// TestReadEnvelopeKnowsEveryField: every field of wire.Envelope is read
// by its generated reader.
func TestReadEnvelopeKnowsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, wire.ReadEnvelope)
}

// TestQuickEnvelopeTakes: quickEnvelope takes the producer's envelopes
// (compareQuick only checks those it takes, so one that took none would
// pass it): most of the recordings' envelopes are of its shape.
func TestQuickEnvelopeTakes(t *testing.T) {
	t.Parallel()
	seeds := envelopeSeeds(t)
	var d Decoder
	took := 0
	for _, s := range seeds {
		if d.quickEnvelope(badutf8.Replace(s)) {
			took++
		}
	}
	if took < len(seeds)/2 {
		t.Errorf("quickEnvelope took %d of %d envelopes, want at least half", took, len(seeds))
	}
	t.Logf("quickEnvelope took %d of %d", took, len(seeds))
}
