package respwire

import (
	"bytes"
	"encoding/json"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openai/openaitest"
)

func seeds(t testing.TB) [][]byte {
	return openaitest.Payloads(t, "../../../testdata/openai-responses",
		`{"type":"response.output_text.delta","type":"x","sequence_number":1,"sequence_number":null,"delta":"a\u00e9\ud800","output_index":2}`,
		`{"type":"response.output_item.done","item":{"id":"i","type":"function_call","arguments":{"a":1},"error":null,"output":null,"code":"c"} }`,
		`{"type":"response.output_item.done","item":{"type":"message","content":[{"type":"output_text","text":"t","annotations":[{"type":"url_citation","url":"u","start_index":1,"index":null}]}],"summary":null}}`,
		`{"type":"response.output_item.done","item":{"type":"message","content":[{"annotations":[null]}]}}`,
		`{"type":"response.output_item.done","item":{"type":"message","content":[],"content":[]}}`,
		`{"type":"response.output_item.done","item":null}`,
		`{"type":"response.output_item.done","item":"x"}`,
		`{"type":"response.output_item.done","item":{"type":"m"},"item":{"id":"y"}}`,
		`{"type":"response.completed","response":{"id":"r","status":"incomplete","incomplete_details":{"reason":"max_output_tokens"},"error":{"message":"m","code":"c"},"usage":{"input_tokens":1,"input_tokens_details":null,"output_tokens_details":{"reasoning_tokens":3}}}}`,
		`{"type":"response.created","response":null}`,
		`{"type":"error","code":"rate_limit","message":"m","param":null}`,
		`{"type":"error","code":[1],"message":"m"}`,
		`{"type":"response.output_text.annotation.added","annotation":{"type":"file_citation","filename":"f","index":2}}`,
		`{"type":"response.content_part.added","part":{"type":"output_text","text":"","annotations":[]}}`,
		`{"type":"response.content_part.added","Part":{"type":"output_text"}}`,
		`{"type":"response.output_text.delta","output_index":1e3}`,
		`{"type":"response.function_call_arguments.done","arguments":"{}","input":"x","content_index":3,"item_id":"fc"}`,
	)
}

// compare checks that what Reader decodes in one pass is what
// json.Unmarshal gives, and reports whether it decoded data in one pass.
func compare(t *testing.T, data []byte) bool {
	t.Helper()
	var er Reader
	var got StreamEvent
	er.data = append(er.data[:0], data...)
	er.jr.Reset(er.data)
	if !er.read(&got) || !er.jr.End() {
		return false
	}
	var want StreamEvent
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: one pass decodes what json.Unmarshal refuses: %v", data, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: differs (-json +one pass):\n%s", data, diff)
	}
	return true
}

func TestReadSeeds(t *testing.T) {
	t.Parallel()
	fast := 0
	for _, s := range seeds(t) {
		if compare(t, s) {
			fast++
		}
	}
	if fast < 200 {
		t.Errorf("only %d events decoded in one pass", fast)
	}
}

// TestDecodeReuse: an event decoded after another holds nothing of it.
func TestDecodeReuse(t *testing.T) {
	t.Parallel()
	var er Reader
	var ev StreamEvent
	all := seeds(t)
	for i, s := range all {
		if err := er.Decode(string(s), &ev); err != nil {
			continue
		}
		var want StreamEvent
		json.Unmarshal(s, &want)
		if diff := cmp.Diff(want, ev); diff != "" {
			t.Errorf("%s after %s (-json +Decode):\n%s", s, all[max(i-1, 0)], diff)
		}
	}
}

func FuzzRead(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compare(t, data) })
}

// TestReadKnowsEveryField: a field added to the event's structs must be
// read by read.go too, which would otherwise skip it.
func TestReadKnowsEveryField(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("read.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{StreamEvent{}, Response{}, Usage{}, Item{}, Part{}, Annotation{}} {
		for _, name := range jsontext.FieldNames(v) {
			if !bytes.Contains(src, []byte(`"`+name+`"`)) {
				t.Errorf("%T field %q is not read by read.go", v, name)
			}
		}
	}
}
