package claudesession

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// lineSeeds are the recordings' lines and odd ones.
func lineSeeds(t testing.TB) [][]byte {
	return wiretest.JSONLines(t, eventtest.Corpus(t, corpus, recordings),
		`{"type":"user","message":{"role":"user","content":"hi"},"message":{"id":"x"}}`,
		`{"type":"user","message":{"content":"hi","content":[]}}`,
		`{"type":"user","message":null,"message":{"content":[{"type":"text","text":"a"},null]}}`,
		`{"type":"user","message":{"content":[5]}}`,
		`{"type":"user","message":{"content":5,"Model":"m"}}`,
		`{"type":"user","sessionid":"s","isSidechain":null,"parentUuid":null}`,
		`{"type":"assistant","SessionId":"s","parentUuid":"p","parentUuid":"q","isMeta":true}`,
		`{"type":"attachment","attachment":{"type":"a","Type":"b"},"content":null,"error":"x"}`,
		`{"type":"assistant","message":{"usage":{"input_tokens":1},"usage":{"output_tokens":2},"stop_reason":null}}`,
		`{"type":5}`,
	)
}

// compareLine checks that what the one-pass reader decodes is what
// json.Unmarshal gives, and reports whether it decoded data; a line it
// leaves to encoding/json is left zero.
func compareLine(t *testing.T, data []byte) bool {
	t.Helper()
	var d Decoder
	if wiretest.OnePass(t, data, d.readLine, nil) {
		return true
	}
	var l line
	if d.unmarshalLine(data, &l) {
		t.Errorf("%s: unmarshalLine reads what readLine refuses", data)
	} else if diff := cmp.Diff(line{}, l, cmp.AllowUnexported(content{})); diff != "" {
		t.Errorf("%s: not decoded in one pass, but the line is not reset:\n%s", data, diff)
	}
	return false
}

func TestReadLineSeeds(t *testing.T) {
	t.Parallel()
	seeds := lineSeeds(t)
	wiretest.OnePassSeeds(t, seeds, len(seeds)-12, compareLine)
}

func FuzzReadLine(f *testing.F) { wiretest.FuzzOnePass(f, lineSeeds(f), compareLine) }

// TestReadLineKnowsEveryField: a field added to line, message or
// attachment must be read by readLine too, which would otherwise skip it.
func TestReadLineKnowsEveryField(t *testing.T) {
	t.Parallel()
	var d Decoder
	wiretest.ReadsEveryField(t, d.readLine)
	// and the lists SkipField checks keys against, lower-cased:
	for _, tt := range []struct {
		v     any
		known func(string) bool
	}{{line{}, isLineField}, {message{}, isMessageField}, {attachment{}, isAttachmentField}} {
		for _, name := range jsontext.FieldNames(tt.v) {
			if !tt.known(strings.ToLower(name)) {
				t.Errorf("%T field %q is not read by readLine", tt.v, name)
			}
		}
	}
}
