package claudesession

import (
	"bytes"
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/eventtest"
	"github.com/agentstream/agentstream/internal/jsontext"
)

func lineSeeds(t testing.TB) [][]byte {
	var seeds [][]byte
	for _, f := range eventtest.Corpus(t, corpus, recordings) {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, bytes.Split(bytes.TrimSpace(b), []byte("\n"))...)
	}
	for _, s := range []string{
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
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// compareLine checks that what the one-pass reader decodes is what
// json.Unmarshal gives, and reports whether it decoded data.
func compareLine(t *testing.T, data []byte) bool {
	t.Helper()
	var d Decoder
	var got line
	if !d.unmarshalLine(data, &got) {
		if diff := cmp.Diff(line{}, got, cmp.AllowUnexported(content{})); diff != "" {
			t.Errorf("%s: not decoded in one pass, but the line is not reset:\n%s", data, diff)
		}
		return false
	}
	var want line
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: one pass decodes what json.Unmarshal refuses: %v", data, err)
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(content{})); diff != "" {
		t.Errorf("%s: differs (-json +one pass):\n%s", data, diff)
	}
	return true
}

func TestReadLineSeeds(t *testing.T) {
	t.Parallel()
	fast, seeds := 0, lineSeeds(t)
	for _, s := range seeds {
		if compareLine(t, s) {
			fast++
		}
	}
	if fast < len(seeds)-12 {
		t.Errorf("only %d of %d lines decoded in one pass", fast, len(seeds))
	}
}

func FuzzReadLine(f *testing.F) {
	for _, s := range lineSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareLine(t, data) })
}

// TestReadLineKnowsEveryField: a field added to line, message or
// attachment must be read by readLine too, which would otherwise skip it.
func TestReadLineKnowsEveryField(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		v     any
		known func([]byte) bool
	}{{line{}, isLineField}, {message{}, isMessageField}, {attachment{}, isAttachmentField}} {
		for _, name := range jsontext.FieldNames(tt.v) {
			if !tt.known([]byte(strings.ToLower(name))) {
				t.Errorf("%T field %q is not read by readLine", tt.v, name)
			}
		}
	}
}
