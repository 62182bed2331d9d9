package jsonenv

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	wire "github.com/agentstream/agentstream/internal/jsonenvwire"
	"github.com/agentstream/agentstream/internal/jsontext"
)

func envelopeSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../testdata/jsonenv/*")
	var seeds [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line, _ := strings.CutPrefix(sc.Text(), "data: ")
			if strings.HasPrefix(line, "{") {
				seeds = append(seeds, []byte(line))
			}
		}
	}
	for _, s := range []string{
		`{"type":"text","agent":"a","final":false,"delta":"x\n\u00e9\ud800","delta":"y"}`,
		`{"type":"citation","agent":"a","final":true,"delta":"","document_index":1,"document_index":null,"url":"u"}`,
		`{"type":"text","agent":"a","final":"no","delta":""}`,
		`{"type":"text","Agent":"a","final":true,"delta":""}`,
		`{"type":"citation","agent":"a","start_char_index":1.5}`,
		`{"type":"text","agent":null,"final":null,"delta":null,"id":null}`,
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// compareEnvelope checks that what the one-pass reader decodes is what
// json.Unmarshal gives, and reports whether it decoded data.
func compareEnvelope(t *testing.T, data []byte) bool {
	t.Helper()
	var d Decoder
	var got wire.Envelope
	d.jr.Reset(data)
	if !d.readEnvelopeFields(&d.jr, &got) || !d.jr.End() {
		return false
	}
	var want wire.Envelope
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: one pass decodes what json.Unmarshal refuses: %v", data, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: differs (-json +one pass):\n%s", data, diff)
	}
	return true
}

func TestReadEnvelopeSeeds(t *testing.T) {
	t.Parallel()
	fast := 0
	for _, s := range envelopeSeeds(t) {
		if compareEnvelope(t, s) {
			fast++
		}
	}
	if fast < 50 {
		t.Errorf("only %d envelopes decoded in one pass", fast)
	}
}

func FuzzReadEnvelope(f *testing.F) {
	for _, s := range envelopeSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareEnvelope(t, data) })
}

// TestReadEnvelopeKnowsEveryField: a field added to wire.Envelope must be read
// by readEnvelopeFields too, which would otherwise skip it.
func TestReadEnvelopeKnowsEveryField(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("read.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range jsontext.FieldNames(wire.Envelope{}) {
		if !bytes.Contains(src, []byte(`case "`+name+`"`)) {
			t.Errorf("wire.Envelope field %q is not read by read.go", name)
		}
	}
}
