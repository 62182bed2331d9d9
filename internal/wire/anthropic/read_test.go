package anthropic

import (
	"encoding/json"
	"errors"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// readSeeds returns the data of every SSE message of the anthropic
// recordings, and hand-made odd events.
func readSeeds(t testing.TB) [][]byte {
	seeds := eventtest.Lines(t, "../../../testdata/anthropic/*.sse", "data: ")
	for _, s := range []string{
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a\u00e9\ud83d\ude00\ud800x\"\\\/\b\f\n\r\t"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + "\xff\xfe" + `"}}`,
		`{"type":"content_block_delta","index":0,"index":1,"delta":{"text":"a","text":null,"type":"text_delta"}}`,
		`{"type":"content_block_delta","index":1.0,"delta":{}}`,
		`{"type":"content_block_delta","Index":1,"delta":{}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":5}}`,
		`{"type":"content_block_delta","index":0,"delta":"x"}`,
		`{"type":"content_block_delta","index":0,"delta":null}`,
		`{"type":"message_delta","delta":{"stop_reason":"end_turn","stop_sequence":null},"usage":{"output_tokens":12,"input_tokens":null}}`,
		`{"type":"message_delta","delta":{},"usage":{"output_tokens":1,"service_tier":"standard","service_tier":null}}`,
		`{"type":"content_block_delta","index":-0,"delta":{"type":"input_json_delta","partial_json":"{\"a\":1}"}}`,
		` { "type" : "ping" } `,
		`{"type":"content_block_delta","index":99999999999999999999}`,
		`{"type":"x",}`,
		`[1,2]`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"thinking_delta","thinking":"let me \"see\""}}`,
		`{"type":"content_block_delta","index":12,"delta":{"type":"input_json_delta","partial_json":"{\"path\": \"/a\u00e9\"}"}}`,
		`{"type":"content_block_delta","index":012,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":1234567890,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":123456789,"delta":{"type":"text_delta","text":"x"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text": "x"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"}} `,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x"},"index":1}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x\ny` + "\n" + `"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"x` + "\t\u0001" + `"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"a"b"}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"ab}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":""}}`,
		`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"\ud83d"}}`,
		`{"type":"message_start","message":{"id":"m","type":"message","role":"assistant","model":"x","content":[{"type":"text","text":"a"}],"stop_reason":null,"stop_sequence":"s","usage":{"input_tokens":3}}}`,
		`{"type":"message_start","message":{"id":"m"},"message":{"model":"x"}}`,
		`{"type":"message_start","message":null}`,
		`{"message":{"content":null,"usage":null},"type":"message_start","index":2}`,
		`{"type":"message_start","message":{"id":5}}`,
		`{"type":"message_start","message":[]}`,
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// TestReadStreamEventSeeds checks every seed through FuzzReadStreamEvent's
// comparison, and that the hot shapes take the one-pass path.
func TestReadStreamEventSeeds(t *testing.T) {
	t.Parallel()
	wiretest.OnePassSeeds(t, readSeeds(t), 100, compareRead)
}

func FuzzReadStreamEvent(f *testing.F) { wiretest.FuzzOnePass(f, readSeeds(f), compareRead) }

// compareRead checks that what ReadStreamEvent decodes is what
// json.Unmarshal gives, the delta it decodes too, and that ReadDeltaEvent
// agrees with it; it reports whether ReadStreamEvent decoded data.
func compareRead(t *testing.T, data []byte) bool {
	t.Helper()
	if utf8.Valid(data) {
		compareFrom(t, data)
	}
	return wiretest.OnePass(t, data, ReadStreamEvent, func(got, _ *StreamEvent) {
		var wd Delta
		err := json.Unmarshal(got.Delta, &wd)
		switch {
		case got.delta != nil && err != nil:
			t.Errorf("%s: delta decoded in one pass, json.Unmarshal says %v", data, err)
		case got.delta != nil:
			if d := cmp.Diff(wd, *got.delta); d != "" {
				t.Errorf("%s: delta differs (-json +one pass):\n%s", data, d)
			}
		}
		if got.Index != nil {
			if got.Index != &got.idx {
				t.Errorf("%s: Index does not point to idx", data)
			}
			i := *got.Index // compared as its value
			got.Index = &i
		}
		got.delta, got.idx = nil, 0
	})
}

// compareFrom checks that ReadDeltaEvent, where it takes data, decodes
// valid UTF-8 data as ReadStreamEvent does.
func compareFrom(t *testing.T, data []byte) {
	t.Helper()
	var r jsontext.Reader
	r.Reset(data)
	var want StreamEvent
	wantOK := ReadStreamEvent(&r, &want) && r.End()
	var fast StreamEvent
	fastOK := ReadDeltaEvent(&r, data, &fast)
	if fastOK && !wantOK {
		t.Fatalf("%s: ReadDeltaEvent decodes what ReadStreamEvent does not", data)
	}
	if !fastOK {
		return
	}
	if diff := cmp.Diff(want, fast, cmp.AllowUnexported(StreamEvent{})); diff != "" {
		t.Errorf("%s: ReadDeltaEvent differs (-ReadStreamEvent +ReadDeltaEvent):\n%s", data, diff)
	}
	if fast.Index != &fast.idx {
		t.Errorf("%s: ReadDeltaEvent's Index does not point to its idx", data)
	}
}

// TestReadDeltaEventAllocs: a delta is read with one allocation, its
// text.
func TestReadDeltaEventAllocs(t *testing.T) {
	for _, data := range []string{
		`{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"h\u00e9 🦊"}}`,
		`{"type":"content_block_delta","index":3,"delta":{"type":"text_delta","text":"hé 🦊"}}`,
		`{"type":"content_block_delta","index":3,"delta":{"type":"thinking_delta","thinking":"hmm"}}`,
		`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"{\"a\""}}`,
		`{"type":"content_block_delta","index":3,"delta":{"type":"input_json_delta","partial_json":"1, 2"}}`,
	} {
		raw := []byte(data)
		var r jsontext.Reader
		var se StreamEvent
		got := testing.AllocsPerRun(10, func() {
			if !ReadDeltaEvent(&r, raw, &se) {
				t.Fatalf("%s: not read", data)
			}
		})
		if got != 1 {
			t.Errorf("%s: %v allocations, want 1", data, got)
		}
	}
}

var blockSeeds = []string{
	`{"type":"text","text":"hi \u00e9\n","citations":null}`,
	`{"type":"thinking","thinking":"t","signature":"s","signature":null}`,
	`{"type":"tool_use","id":"toolu_1","name":"Bash","input":{"command":"ls","n":[1,2.5e3]}}`,
	`{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"ok"}],"is_error":false}`,
	`{"type":"tool_result","tool_use_id":"toolu_1","content":"plain","is_error":"yes"}`,
	`{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AAAA"}}`,
	`{"type":"text","text":"x","citations":[{"type":"char_location","cited_text":"c"}]}`,
	`{"type":"mcp_tool_use","id":"m","name":"n","server_name":"srv","input":{}}`,
	`{"Type":"text"}`,
	`{"type":"text","text":5}`,
	`{"tYpe":"00000000","id":{}}`,
}

// compareBlock checks that UnmarshalBlock gives what json.Unmarshal
// gives, errors included (but a type error in a block of a type whose
// fields are not read, which is none).
func compareBlock(t *testing.T, data []byte) {
	t.Helper()
	var got, want Block
	gerr := UnmarshalBlock(data, &got)
	werr := json.Unmarshal(data, &want)
	var te *json.UnmarshalTypeError
	if werr != nil && !readsFields(want.Type) && errors.As(werr, &te) {
		werr = nil
	}
	if (gerr == nil) != (werr == nil) || (gerr != nil && gerr.Error() != werr.Error()) {
		t.Fatalf("%s: UnmarshalBlock error %v, json.Unmarshal %v", data, gerr, werr)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("%s: differs (-json +UnmarshalBlock):\n%s", data, diff)
	}
}

func TestUnmarshalBlock(t *testing.T) {
	t.Parallel()
	for _, s := range blockSeeds {
		compareBlock(t, []byte(s))
	}
}

// TestUnmarshalBlockUnknownType: a block of a type this package keeps
// whole, as its JSON, is checked for its type only, so that what one
// reader kept raw, written back, reads again; the fields of the types it
// reads are checked.
func TestUnmarshalBlockUnknownType(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in      string
		want    Block
		wantErr string
	}{
		{`{"tYpe":"00000000","id":{}}`, Block{Type: "00000000"}, ""},
		{`{"type":"new_kind","id":{"a":1},"name":5,"tool_use_id":[],"input":7}`, Block{Type: "new_kind", Input: json.RawMessage("7")}, ""},
		{`{"type":"redacted_thinking","data":"d","server_name":{}}`, Block{Type: "redacted_thinking"}, ""},
		{`{"type":"tool_use","id":{},"name":"n"}`, Block{Type: "tool_use", Name: "n"}, "json: cannot unmarshal object into Go struct field Block.id of type string"},
		{`{"type":"web_search_tool_result","tool_use_id":5}`, Block{Type: "web_search_tool_result"}, "json: cannot unmarshal number into Go struct field Block.tool_use_id of type string"},
		{`{"id":{}}`, Block{}, "json: cannot unmarshal object into Go struct field Block.id of type string"},
		{`{"type":5,"id":{}}`, Block{}, "json: cannot unmarshal number into Go struct field Block.type of type string"},
	}
	for _, tt := range tests {
		var got Block
		err := UnmarshalBlock([]byte(tt.in), &got)
		gotErr := ""
		if err != nil {
			gotErr = err.Error()
		}
		if diff := cmp.Diff(tt.wantErr, gotErr); diff != "" {
			t.Errorf("%s: error (-want +got):\n%s", tt.in, diff)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: block (-want +got):\n%s", tt.in, diff)
		}
	}
}

func FuzzUnmarshalBlock(f *testing.F) {
	for _, s := range blockSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareBlock(t, data) })
}

// TestReadersReadEveryField: each field of the declarations, set alone,
// is read by the generated readers.
func TestReadersReadEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadStreamEvent)
	wiretest.ReadsEveryField(t, ReadDelta)
	wiretest.ReadsEveryField(t, ReadBlock)
	wiretest.ReadsEveryField(t, ReadCitation)
}
