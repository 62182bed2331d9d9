package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"math"
	"reflect"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
)

// encodeWant is what JSON.Block wrote before it had appendBlock, and must
// still write: a json.Encoder without HTML escaping, and its error.
func encodeWant(b *assemble.Block) (string, string) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(b); err != nil {
		return "", err.Error()
	}
	return buf.String(), ""
}

// blockGot writes b with a JSON writer that has written prev first (so
// that a reused buffer is exercised), and returns what b added and its
// error. Through bufio.Writers too (whose free space a block that fits is
// appended to), which must write the same.
func blockGot(t testing.TB, prev, b *assemble.Block) (string, string) {
	out, errText := blockVia(t, prev, b, 0)
	for _, size := range []int{64, 1 << 16} {
		if o, e := blockVia(t, prev, b, size); o != out || e != errText {
			t.Errorf("through a bufio.Writer of %d bytes: %q (error %q); directly %q (error %q)", size, o, e, out, errText)
		}
	}
	return out, errText
}

// blockVia is blockGot through a bufio.Writer of size bytes, or none if 0.
func blockVia(t testing.TB, prev, b *assemble.Block, size int) (string, string) {
	var buf bytes.Buffer
	var w io.Writer = &buf
	flush := func() {}
	if size > 0 {
		bw := bufio.NewWriterSize(&buf, size)
		w, flush = bw, func() { _ = bw.Flush() }
	}
	j := NewJSON(w)
	if prev != nil {
		if err := j.Block(prev); err != nil {
			t.Fatalf("writing the block before: %v", err)
		}
	}
	flush()
	n := buf.Len()
	err := j.Block(b)
	flush()
	if err != nil {
		if buf.Len() != n {
			t.Errorf("a failed block wrote %q", buf.Bytes()[n:])
		}
		return "", err.Error()
	}
	return buf.String()[n:], ""
}

// oddText holds what string escaping must get right.
const oddText = "q\"b\\s/ <>& \n\r\t\b\f\x00\x01\x1f\x7f é🦊 \u2028\u2029 \ufffd bad\xff\xfe \xed\xa0\x80 end\xe2\x80"

// fullBlock returns a block with every field set, and every field of the
// first element of its lists (TestFullBlock checks it).
func fullBlock() *assemble.Block {
	return &assemble.Block{
		Agent: "main", Type: assemble.TypeToolResult,
		Text: oddText, Signature: "sig<>",
		Citations: []assemble.Citation{
			{
				Type: "page_location", CitedText: "cited", DocumentIndex: ptr(int64(0)), DocumentTitle: ptr(""),
				StartCharIndex: ptr(int64(-1)), EndCharIndex: ptr(int64(math.MaxInt64)), StartPageNumber: ptr(int64(math.MinInt64)),
				EndPageNumber: ptr(int64(3)), URL: ptr("https://x/?a=1&b=<2>"), Title: ptr(oddText),
			},
			{Type: "char_location", CitedText: oddText},
			{},
		},
		ID: "id\u2028", Name: "Bash", Input: json.RawMessage(` { "command" : "ls\n -la" , "n" : [ 1 , -2.5e+3 , true , false , null , { } , [ ] ] } `),
		MCPServer: "srv",
		Content:   ptr(oddText),
		Images:    []assemble.Image{{Src: "data:...", MediaType: "image/png"}, {}},
		IsError:   true, ExitCode: ptr(-1), Status: "completed",
		Structured: json.RawMessage("{\"a\":\"\u2028<\xff>\",\"b\":\"\\u00e9\\/\"}"),
		SessionID:  "s", ParentAgent: "p", ParentToolID: "t", Model: "m", Tools: []string{"Bash", "", oddText}, Cwd: "/c",
		Prompt: "pr", Description: "d",
		Pending: []assemble.Pending{{ID: "1", Name: "n", Input: json.RawMessage(`{"x": 1}`)}, {}},
		Files:   []assemble.File{{ID: "f", Name: "n", Location: "l"}, {}},
		Changes: []assemble.Change{{Path: "a.go", Kind: "update"}, {}},
		Todos:   []assemble.Todo{{Text: "t", Status: "done"}, {}},
		Kind:    "k", Fatal: true,
		MessageID: "msg", StopReason: "end_turn", Turns: -3, DurationMS: math.MaxInt64, CostUSD: ptr(0.0123),
		Usage:  &assemble.Usage{InputTokens: ptr[int64](1), OutputTokens: ptr[int64](2), CacheReadTokens: 3, CacheWriteTokens: 4, ReasoningTokens: 5},
		Errors: []string{"e1", ""}, Result: "r",
		Raw: json.RawMessage("\t[\"x\" ,\r\n1]\n"), Truncated: true,
		// A note of another payload: the writer checks this block's.
		Checked: assemble.FromEvent(&event.Unknown{Raw: json.RawMessage(`[]`)}).Checked,
	}
}

// TestFullBlock checks that fullBlock sets every field, so that a field
// added to assemble.Block and not to appendBlock fails
// TestBlockJSONMatchesEncodingJSON, once added to fullBlock.
func TestFullBlock(t *testing.T) {
	t.Parallel()
	var unset []string
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		if v.IsZero() {
			unset = append(unset, path)
			return
		}
		switch v.Kind() {
		case reflect.Pointer: // set; a *Usage must set its fields
			if v.Elem().Kind() == reflect.Struct {
				walk(v.Elem(), path)
			}
		case reflect.Slice:
			if v.Type().Elem().Kind() == reflect.Struct {
				walk(v.Index(0), path+"[0]")
			}
		case reflect.Struct:
			for i := range v.NumField() {
				walk(v.Field(i), path+"."+v.Type().Field(i).Name)
			}
		}
	}
	walk(reflect.ValueOf(fullBlock()), "Block")
	if len(unset) > 0 {
		t.Errorf("fullBlock leaves unset: %v", unset)
	}
}

func TestBlockJSONMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	deep := func(n int) json.RawMessage {
		return json.RawMessage(strings.Repeat("[", n) + strings.Repeat("]", n))
	}
	full := fullBlock()
	tests := []struct {
		name  string
		block *assemble.Block
	}{
		{"zero", &assemble.Block{}},
		{"text", &assemble.Block{Agent: "main", Type: assemble.TypeText, Text: oddText}},
		{"every field", full},
		{"empty slices", &assemble.Block{
			Citations: []assemble.Citation{}, Input: json.RawMessage{}, Images: []assemble.Image{}, Structured: json.RawMessage{},
			Tools: []string{}, Pending: []assemble.Pending{}, Files: []assemble.File{}, Changes: []assemble.Change{},
			Todos: []assemble.Todo{}, Errors: []string{}, Raw: json.RawMessage{},
		}},
		{"empty content", &assemble.Block{Content: ptr(""), ExitCode: ptr(0), CostUSD: ptr(0.0), Usage: &assemble.Usage{}}},
		{"output count alone", &assemble.Block{Usage: &assemble.Usage{OutputTokens: ptr[int64](5)}}},
		{"negative zero cost", &assemble.Block{CostUSD: ptr(math.Copysign(0, -1))}},
		{"tiny cost", &assemble.Block{CostUSD: ptr(1e-7)}},
		{"cost at the small cut", &assemble.Block{CostUSD: ptr(1e-6)}},
		{"huge cost", &assemble.Block{CostUSD: ptr(1e21)}},
		{"cost below the large cut", &assemble.Block{CostUSD: ptr(123456789012345678901.0 / 10)}},
		{"negative tiny cost", &assemble.Block{CostUSD: ptr(-5e-324)}},
		{"max cost", &assemble.Block{CostUSD: ptr(math.MaxFloat64)}},
		{"cost exponent of three digits", &assemble.Block{CostUSD: ptr(1.5e-100)}},
		{"NaN cost", &assemble.Block{CostUSD: ptr(math.NaN())}},
		{"infinite cost", &assemble.Block{CostUSD: ptr(math.Inf(-1))}},
		{"raw null", &assemble.Block{Raw: json.RawMessage(" null ")}},
		{"raw number", &assemble.Block{Raw: json.RawMessage("-0.5E-07")}},
		{"raw string", &assemble.Block{Raw: json.RawMessage(`"a\u00E9\"\\\/\b\f\n\r\t"`)}},
		{"raw nested", &assemble.Block{Raw: json.RawMessage(`{"a":{"b":[{"c":[]} , {}]}, "d" : "e f"}`)}},
		{"raw deep", &assemble.Block{Raw: deep(payloadDepth)}},
		{"raw deeper than AppendPayload follows", &assemble.Block{Raw: deep(payloadDepth + 1)}},
		{"raw deeper than encoding/json follows", &assemble.Block{Raw: deep(10001)}},
		{"raw invalid", &assemble.Block{Raw: json.RawMessage(`{`)}},
		{"raw two values", &assemble.Block{Raw: json.RawMessage(`1 2`)}},
		{"raw leading zero", &assemble.Block{Raw: json.RawMessage(`01`)}},
		{"raw bare point", &assemble.Block{Raw: json.RawMessage(`1.`)}},
		{"raw bare exponent", &assemble.Block{Raw: json.RawMessage(`1e`)}},
		{"raw minus", &assemble.Block{Raw: json.RawMessage(`-`)}},
		{"raw control character in a string", &assemble.Block{Raw: json.RawMessage("\"a\tb\"")}},
		{"raw bad escape", &assemble.Block{Raw: json.RawMessage(`"\x"`)}},
		{"raw short unicode escape", &assemble.Block{Raw: json.RawMessage(`"\u12"`)}},
		{"raw trailing comma", &assemble.Block{Raw: json.RawMessage(`[1,]`)}},
		{"raw key not a string", &assemble.Block{Raw: json.RawMessage(`{1:2}`)}},
		{"raw mismatched close", &assemble.Block{Raw: json.RawMessage(`[}`)}},
		{"raw truncated literal", &assemble.Block{Raw: json.RawMessage(`tru`)}},
		{"raw only whitespace", &assemble.Block{Raw: json.RawMessage(" \n")}},
		{"invalid input", &assemble.Block{Type: assemble.TypeToolCall, Input: json.RawMessage(`{"a":}`)}},
		{"invalid structured", &assemble.Block{Structured: json.RawMessage(`nul`)}},
		{"invalid pending input", &assemble.Block{Pending: []assemble.Pending{{ID: "1", Input: json.RawMessage(`[`)}}}},
		// An assembled unknown block's payload, noted as checked: copied.
		{"raw noted", unknown(`{"type":"x","n":[1,{}]}`, nil)},
		{"raw noted, not JSON", unknown(`{"type":`, nil)},
		// A payload put in after the assembler noted another: checked.
		{"raw replaced", unknown(`{"type":"x"}`, func(json.RawMessage) json.RawMessage { return json.RawMessage(`{"type":}`) })},
		{"raw cut short", unknown(`{"type":"x"}`, func(r json.RawMessage) json.RawMessage { return r[:len(r)-1] })},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			wantOut, wantErr := encodeWant(tt.block)
			gotOut, gotErr := blockGot(t, full, tt.block)
			if diff := cmp.Diff(wantOut, gotOut); diff != "" {
				t.Errorf("output (-encoding/json +JSON.Block):\n%s", diff)
			}
			if diff := cmp.Diff(wantErr, gotErr); diff != "" {
				t.Errorf("error (-encoding/json +JSON.Block):\n%s", diff)
			}
		})
	}
}

// TestBlockJSONWithoutReflection checks that the blocks of real streams
// are written by appendBlock, not left to encoding/json. (Not parallel:
// it counts allocations.)
func TestBlockJSONWithoutReflection(t *testing.T) {
	b := &assemble.Block{
		Agent: "main", Type: assemble.TypeToolCall, ID: "1", Name: "Bash",
		Input: json.RawMessage(`{"command": "ls"}`), Raw: json.RawMessage(`{"type":"x"}`), CostUSD: ptr(1.5),
	}
	if _, ok := appendBlock(nil, b); !ok {
		t.Errorf("appendBlock left %+v to encoding/json", b)
	}
	j := NewJSON(io.Discard)
	if allocs := testing.AllocsPerRun(10, func() {
		if err := j.Block(b); err != nil {
			t.Fatal(err)
		}
	}); allocs != 0 {
		t.Errorf("writing a block took %v allocations, want 0", allocs)
	}
}

// FuzzBlockJSON builds blocks from the fuzzer's strings, bytes and
// numbers; JSON.Block must write exactly what encoding/json writes, or
// fail with its error.
func FuzzBlockJSON(f *testing.F) {
	f.Add("main", oddText, []byte(`{"a": [1, "x"]}`), []byte(`{`), 0.5, int64(7), uint16(0))
	f.Add("", "", []byte(" null "), []byte(`"\u2028"`), 1e-7, int64(-1), uint16(0xffff))
	f.Add("\xff", "\u2029", []byte("[\"\xff\" ,\t1e5]"), []byte(`01`), math.Inf(1), int64(0), uint16(0x5555))
	f.Add("a<b>", "c&d", []byte(`-0.0e-0`), []byte("\"a\x01\""), 1e21, int64(math.MaxInt64), uint16(0x0f0f))
	f.Add("main", assemble.TypeToolResult, []byte(`{}`), []byte(`[]`), 0.0, int64(1), uint16(0x0004))
	f.Add("main", assemble.TypeUnknown, []byte(`{"a":[1,"x"]}`), []byte(`[]`), 0.0, int64(1), uint16(0x0800))
	f.Add("main", assemble.TypeUnknown, []byte(`{"a":[1,"x"]}`), []byte(`[]`), 0.0, int64(1), uint16(0x1800))
	f.Add("main", assemble.TypeUnknown, []byte(`not json`), []byte(`[]`), 0.0, int64(1), uint16(0x1800))
	f.Fuzz(func(t *testing.T, s1, s2 string, raw1, raw2 []byte, cost float64, n int64, bits uint16) {
		on := func(i int) bool { return bits&(1<<i) != 0 }
		b := &assemble.Block{Agent: s1, Type: s2, Input: raw1, Structured: raw2, Raw: raw1, Turns: int(n)}
		if on(0) {
			b.Text, b.Signature, b.ID, b.Name, b.MCPServer, b.Status = s2, s1, s1, s2, s1, s2
		}
		if on(1) {
			b.Citations = []assemble.Citation{{Type: s1, CitedText: s2, DocumentIndex: &n, Title: &s1}, {URL: &s2, EndPageNumber: &n}}
		}
		if on(2) {
			b.Content, b.ExitCode, b.IsError = &s2, ptr(int(n)), true
		}
		if on(3) {
			b.Images = []assemble.Image{{Src: s1, MediaType: s2}}
			b.Tools, b.Errors = []string{s1, s2}, []string{s2}
		}
		if on(4) {
			b.SessionID, b.ParentAgent, b.ParentToolID, b.Model, b.Cwd, b.Prompt, b.Description = s1, s2, s1, s2, s1, s2, s1
		}
		if on(5) {
			b.Pending = []assemble.Pending{{ID: s1, Name: s2, Input: raw2}, {ID: s2}}
		}
		if on(6) {
			b.Files = []assemble.File{{ID: s1, Name: s2, Location: s1}}
			b.Changes = []assemble.Change{{Path: s2, Kind: s1}}
			b.Todos = []assemble.Todo{{Text: s1, Status: s2}}
		}
		if on(7) {
			b.Kind, b.Fatal, b.MessageID, b.StopReason, b.Result, b.Truncated = s1, true, s2, s1, s2, true
		}
		if on(8) {
			b.CostUSD, b.DurationMS = &cost, n
		}
		if on(9) {
			b.Usage = &assemble.Usage{InputTokens: &n, OutputTokens: ptr(-n), CacheReadTokens: n, ReasoningTokens: 1}
		}
		if on(10) {
			b.Input, b.Raw = nil, raw2
		}
		if on(11) {
			// What an assembler makes of an unknown event's payload raw1,
			// with its note; cut short after it if bit 12 is set.
			u := assemble.FromEvent(&event.Unknown{Raw: raw1})
			b.Raw, b.Checked = u.Raw, u.Checked
			if on(12) && len(b.Raw) > 0 {
				b.Raw = b.Raw[:len(b.Raw)-1]
			}
		}
		wantOut, wantErr := encodeWant(b)
		gotOut, gotErr := blockGot(t, nil, b)
		if gotOut != wantOut || gotErr != wantErr {
			t.Errorf("JSON.Block wrote %q (error %q), encoding/json %q (error %q)", gotOut, gotErr, wantOut, wantErr)
		}
	})
}

// unknown returns the block an Assembler makes of an unknown event with
// payload raw, its Raw then changed by edit unless edit is nil.
func unknown(raw string, edit func(json.RawMessage) json.RawMessage) *assemble.Block {
	b := assemble.FromEvent(&event.Unknown{Agent: "main", Format: "f", Type: "x", Raw: json.RawMessage(raw)})
	if edit != nil {
		b.Raw = edit(b.Raw)
	}
	return b
}

// payloadDepth is the deepest nesting Block.AppendPayload follows.
const payloadDepth = 256

// TestBlockJSONCountNotGiven: an input or output count the source did not
// give is null, never a made-up 0.
func TestBlockJSONCountNotGiven(t *testing.T) {
	t.Parallel()
	got, _ := appendBlock(nil, &assemble.Block{Type: "turn_end", Usage: &assemble.Usage{OutputTokens: ptr[int64](5)}})
	if want := `"usage":{"input_tokens":null,"output_tokens":5}`; !strings.Contains(string(got), want) {
		t.Errorf("%s, want it to hold %s", got, want)
	}
}
