package respwire

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openaistream/openaitest"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

func seeds(t testing.TB) [][]byte {
	return openaitest.Payloads(t, "../../../../testdata/openai-responses",
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

// read decodes data in one pass, reporting whether it could.
func read(data []byte, ev *StreamEvent) bool {
	var r jsontext.Reader
	r.Reset(data)
	return ReadStreamEvent(&r, ev) && r.End()
}

// unexported leaves out what the generated reader keeps from event to
// event.
func unexported() cmp.Option { return cmpopts.IgnoreUnexported(StreamEvent{}, Response{}, Item{}) }

func TestReadSeeds(t *testing.T) { openaitest.ReadSeeds(t, seeds(t), 200, read, unexported()) }

func TestDecodeReuse(t *testing.T) {
	var er Reader
	openaitest.DecodeReuse(t, seeds(t), er.Decode, unexported())
}

func FuzzRead(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { openaitest.SameAsJSON(t, data, read, unexported()) })
}

// TestReadsEveryField: the Reader reads every field of StreamEvent, down
// to the leaves, as json.Unmarshal does.
func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, func(r *jsontext.Reader, ev *StreamEvent) bool {
		data := r.Skip()
		return !r.Failed() && read(data, ev)
	})
}

// FuzzDecodeAfter: an event decoded after another, into the memory the
// Reader reuses and with the values it keeps while they repeat (item id,
// response id, model), is what json.Unmarshal gives.
func FuzzDecodeAfter(f *testing.F) {
	s := seeds(f)
	for i := range s {
		f.Add(s[i], s[(i+1)%len(s)])
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var er Reader
		var got, want StreamEvent
		er.Decode(a, &got)
		if er.Decode(b, &got) != nil {
			return
		}
		json.Unmarshal(b, &want)
		if diff := cmp.Diff(want, got, unexported()); diff != "" {
			t.Errorf("%s after %s (-json +Decode):\n%s", b, a, diff)
		}
	})
}
