package chatwire

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openaistream/openaitest"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

func seeds(t testing.TB) [][]byte {
	return openaitest.Payloads(t, "../../../../testdata/openai-chat",
		`{"id":"a","id":"b","object":"chat.completion.chunk","choices":[{"index":0,"delta":{"content":"x\n\u00e9\ud800","content":null}}]}`,
		`{"id":"a","choices":[{"index":0,"delta":{"content":"x"}}],"choices":[{"index":1}]}`,
		`{"id":"a","choices":[{"index":0,"delta":{"content":"x"},"delta":{"refusal":"y"}}]}`,
		`{"id":"a","choices":[{"index":1.5}]}`,
		`{"id":"a","choices":[{"index":0,"logprobs":{"content":[]}}]}`,
		`{"id":"a","choices":null,"usage":{"prompt_tokens":1,"prompt_tokens_details":null,"completion_tokens_details":{"reasoning_tokens":2}}}`,
		`{"id":"a","choices":[],"usage":{"prompt_tokens":1,"prompt_tokens_details":{"cached_tokens":3},"usage":null}}`,
		`{"ID":"a","choices":[]}`,
		`{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}}]}}]}`,
		`{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[],"reasoning":"r","reasoning_content":"rc"}},{"index":1,"delta":{"tool_calls":null}}]}`,
		`{"error":{"message":"m","type":"t","code":429,"param":"p"}}`,
		`{"error":{"message":"m","code":{"x":1}}}`,
		`{"error":null,"id":"a","system_fingerprint":"fp","choices":[{"finish_reason":"stop"},{"finish_reason":"weird"}]}`,
		`{"id":"a","choices":[{"index":0,"delta":null}]} `,
		`{"id":1}`,
	)
}

// read decodes data in one pass, reporting whether it could.
func read(data []byte, c *Chunk) bool {
	var r jsontext.Reader
	r.Reset(data)
	return ReadChunk(&r, c) && r.End()
}

// unexported leaves out the Reader's own fields.
func unexported() cmp.Option { return cmpopts.IgnoreUnexported(Chunk{}, Delta{}) }

func TestReadSeeds(t *testing.T) { openaitest.ReadSeeds(t, seeds(t), 50, read, unexported()) }

func TestDecodeReuse(t *testing.T) {
	var cr Reader
	openaitest.DecodeReuse(t, seeds(t), cr.Decode, unexported())
}

func FuzzRead(f *testing.F) {
	for _, s := range seeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { openaitest.SameAsJSON(t, data, read, unexported()) })
}

// TestReadsEveryField: the Reader reads every field of Chunk, down to
// the leaves, as json.Unmarshal does.
func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, func(r *jsontext.Reader, c *Chunk) bool {
		data := r.Skip()
		return !r.Failed() && read(data, c)
	})
}

// TestErrorJSON: a chunk's error object is kept as it came.
func TestErrorJSON(t *testing.T) {
	t.Parallel()
	const obj = `{"message":"m", "type":"t","code":429,"param":null}`
	var cr Reader
	var c Chunk
	if err := cr.Decode([]byte(`{"error": `+obj+`}`), &c); err != nil || string(c.ErrorJSON()) != obj {
		t.Errorf("error %v, error object %q, want %q", err, c.ErrorJSON(), obj)
	}
}

// TestDecodeKeepsNoCalls: the tool call deltas of one chunk are read
// into the last one's memory; a stream of tool call chunks holds one
// chunk's worth.
func TestDecodeKeepsNoCalls(t *testing.T) {
	t.Parallel()
	var cr Reader
	var c Chunk
	for range 1000 {
		const chunk = `{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"x"}},{"index":1,"function":{"arguments":"y"}}]}}]}`
		if err := cr.Decode([]byte(chunk), &c); err != nil {
			t.Fatal(err)
		}
	}
	if n := cap(c.choices[0].Delta.toolCalls); len(c.choices) != 1 || n > 2 {
		t.Errorf("the chunk holds room for %d choices, %d tool call deltas after 1000 chunks of 1 and 2, want 1 and 2", len(c.choices), n)
	}
}

// TestLazyChoices: a chunk over LazyBytes has its choices read one at a
// time by NextChoice, as json.Unmarshal decodes them all; one the
// one-pass reader cannot read makes Decode decode the chunk with
// encoding/json, all at once.
func TestLazyChoices(t *testing.T) {
	t.Parallel()
	kinds := []string{
		`{"index":%d,"delta":{"role":"assistant","content":"x\u00e9\n"},"logprobs":null,"finish_reason":null}`,
		`{"index":%d,"delta":{"tool_calls":[{"index":0,"id":"t","type":"function","function":{"name":"f","arguments":"{\"a\":1}"}},{"index":1,"function":{"arguments":""}}]}}`,
		`{"index":%d,"delta":{"reasoning_content":"r","refusal":null},"finish_reason":"stop"}`,
		`{"delta":{},"index":%d,"extra":[1,{"x":null}]}`,
	}
	build := func(odd string) string {
		var b strings.Builder
		b.WriteString(`{"id":"a","object":"chat.completion.chunk","choices":[`)
		for i := 0; b.Len() < LazyBytes+1000; i++ {
			if i > 0 {
				b.WriteByte(',')
			}
			if i == 5000 && odd != "" {
				b.WriteString(odd)
				continue
			}
			fmt.Fprintf(&b, kinds[i%len(kinds)], i)
		}
		b.WriteString(`],"usage":{"prompt_tokens":1}}`)
		return b.String()
	}
	for _, odd := range []string{"", `{"index":1.5}`, `{"index":7,"logprobs":{"content":[]}}`} {
		data := build(odd)
		var want Chunk
		werr := json.Unmarshal([]byte(data), &want)
		var cr Reader
		var c Chunk
		if err := cr.Decode([]byte(data), &c); werr != nil || err != nil {
			if fmt.Sprint(err) != fmt.Sprint(werr) {
				t.Errorf("odd choice %q: Decode %v, json.Unmarshal %v", odd, err, werr)
			}
			continue
		}
		if odd == "" && c.Lazy() == 0 {
			t.Errorf("a chunk of %d bytes was read at once", len(data))
		}
		got := slices.Clone(c.Choices)
		for ch := (Choice{}); cr.NextChoice(&ch); {
			ch.Delta.ToolCalls = slices.Clone(ch.Delta.ToolCalls)
			got = append(got, ch)
		}
		c.Choices = got
		if diff := cmp.Diff(&want, &c, unexported(), cmpopts.IgnoreUnexported(Chunk{})); diff != "" {
			t.Errorf("odd choice %q (-json.Unmarshal +Reader):\n%.2000s", odd, diff)
		}
	}
}

// FuzzDecodeAfter: a chunk decoded after another, with the values the
// Reader keeps while they repeat (id, model, created, ...), is what
// json.Unmarshal gives.
func FuzzDecodeAfter(f *testing.F) {
	s := seeds(f)
	for i := range s {
		f.Add(s[i], s[(i+1)%len(s)])
	}
	f.Add([]byte(`{"id":"a","created":12,"model":"m","system_fingerprint":"f"}`), []byte(`{"id":"a","created":123,"model":"m","system_fingerprint":"f"}`))
	f.Add([]byte(`{"id": "a", "created": 12, "model": "m"}`), []byte(`{"id": "a", "created": 12 , "model": "m\u0020"}`))
	for _, pair := range memoPairs {
		f.Add([]byte(pair[0]), []byte(pair[1]))
	}
	f.Fuzz(func(t *testing.T, a, b []byte) {
		var cr Reader
		var got, want Chunk
		cr.Decode(a, &got)
		if cr.Decode(b, &got) != nil {
			return
		}
		json.Unmarshal(b, &want)
		if diff := cmp.Diff(want, got, unexported()); diff != "" {
			t.Errorf("%s after %s (-json +Decode):\n%s", b, a, diff)
		}
	})
}

// memoPairs are chunks decoded one after the other whose members before
// the choices are the same bytes (the Reader's memo of them).
var memoPairs = [][2]string{
	{`{"id":"a","model":"m","choices":[{"index":0,"delta":{"content":"x"}}]}`, `{"id":"a","model":"m","choices":[{"index":0,"delta":{"content":"y"}}],"usage":{"prompt_tokens":1},"usage":{"completion_tokens":2}}`},
	{`{"id":"a","choices":[{"index":0}],"id":"b"}`, `{"id":"a","choices":[{"index":1}],"id":"c"}`},
	{`{"id":"a","choices":[{"index":0}]}`, `{"id":"a","choices":[{"index":1}],"model":"m"}`},
	{`{"id":"a","choices":[]}`, `{"id":"a","choices":null}`},
	{`{"id":"a","choices":[]}`, `{"id":"a","choices":[{"index":1.5}]}`},
	{`{"id":"a","choices":[]}`, `{"id":"a","choices":[],"Usage":{"prompt_tokens":1}}`},
	{`{"id":"a","choices":[]}`, `{"id":"a","choices":[] , "usage" : null }`},
	{`{"id":"a","choices":[]}`, `{"id":"a","choices":`},
	{`{"usage":{"prompt_tokens":1},"choices":[]}`, `{"usage":{"prompt_tokens":1},"choices":[],"usage":{"completion_tokens":2}}`},
	{`{"error":null,"usage":null,"choices":[]}`, `{"error":null,"usage":null,"choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"{}"}}]}}]}`},
	{`{"Model":"m","choices":[]}`, `{"Model":"m","choices":[]}`},
	{`{"id":"\u0061","system_fingerprint":"f","service_tier":"t","choices":[]}`, `{"id":"\u0061","system_fingerprint":"f","service_tier":"t","choices":[{}]}`},
	{`{"id":"a","choices":[]}`, `{"id":"a","choices":[]}{}`},
	{`{"id":"a","choices":[]}`, `{"id":"a","choices":[],"error":{"message":"m"}}`},
	{`{"id":"a","model":"m","choices":[]}`, `{"id":"a","model":"m","choices":[],"model":null}`},
	// The choice's one string (the Reader's templates of the text around it).
	{`{"id":"a","choices":[{"index":0,"delta":{"content":"x"}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"content":"y\u00e9\ud800\n"}}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"content":"x"}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"content":null}}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"content":"x"}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"content":1}}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"content":"x"}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"content":"a","b"}}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"content":"x"}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"content": "a"}}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"content":"x"}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"content":"x"}}],"usage":{"prompt_tokens":1}}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"content":"x"},"extra":"x"}]}`, `{"id":"a","choices":[{"index":0,"delta":{"content":"x"},"extra":"y"}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"content":"x","content":"x"}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"content":"x","content":"z"}}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"content":"x","content":null}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"content":"y","content":null}}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"refusal":"x"}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"refusal":"y"}}]}`},
	{`{"id":"a","choices":[{"index":3,"delta":{"reasoning":"x"},"finish_reason":null}]}`, `{"id":"a","choices":[{"index":3,"delta":{"reasoning":"y"},"finish_reason":null}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"reasoning_content":"x"},"logprobs":null}]}`, `{"id":"a","choices":[{"index":0,"delta":{"reasoning_content":""},"logprobs":null}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"{"}}]}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"}"}}]}}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":"{"}}]}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"arguments":null}}]}}]}`},
	{`{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"name":"f","arguments":"{"}}]}}]}`, `{"id":"a","choices":[{"index":0,"delta":{"tool_calls":[{"index":2,"function":{"name":"f","arguments":"}"}}]}}]}`},
}

// TestDecodeAfterEvery: every chunk decoded after every other one by one
// Reader (whose memo of the members before the choices, and templates of
// the text around the choice's one string, the first sets and the second
// may use) gives what json.Unmarshal gives: the same chunk, or an error
// where it gives one.
func TestDecodeAfterEvery(t *testing.T) {
	t.Parallel()
	s := seeds(t)
	for _, pair := range memoPairs {
		s = append(s, []byte(pair[0]), []byte(pair[1]))
	}
	wants := make([]Chunk, len(s))
	bad := make([]bool, len(s))
	for i := range s {
		bad[i] = json.Unmarshal(s[i], &wants[i]) != nil
	}
	var cr Reader
	var got Chunk
	for i := range s {
		for j := range s {
			first := slices.Clone(s[i])
			cr.Decode(first, &got)
			clear(first) // the caller's to reuse
			next := slices.Clone(s[j])
			err := cr.Decode(next, &got)
			clear(next) // read nothing of it after Decode
			if (err != nil) != bad[j] {
				t.Fatalf("%s after %s: error %v, json.Unmarshal's error: %v", s[j], s[i], err, bad[j])
			}
			if err != nil {
				continue
			}
			if diff := cmp.Diff(wants[j], got, unexported()); diff != "" {
				t.Fatalf("%s after %s (-json.Unmarshal +Decode):\n%s", s[j], s[i], diff)
			}
		}
	}
}

// FuzzDecodeMemo: the chunks decoded one after another by one Reader
// give what json.Unmarshal gives, each the same chunk, or an error where
// it gives one; the caller's bytes are cleared after each Decode.
func FuzzDecodeMemo(f *testing.F) {
	s := seeds(f)
	for i := range s {
		f.Add(s[i], s[(i+1)%len(s)], s[(i+2)%len(s)])
	}
	for _, pair := range memoPairs {
		f.Add([]byte(pair[0]), []byte(pair[1]), []byte(pair[1]))
	}
	f.Fuzz(func(t *testing.T, a, b, c []byte) {
		var cr Reader
		var got Chunk
		for _, in := range [][]byte{a, b, c} {
			var want Chunk
			jerr := json.Unmarshal(in, &want)
			data := slices.Clone(in)
			err := cr.Decode(data, &got)
			clear(data) // the caller's to reuse
			if (err != nil) != (jerr != nil) {
				t.Fatalf("%s after %s: error %v, json.Unmarshal's %v", in, a, err, jerr)
			}
			if diff := cmp.Diff(want, got, unexported()); err == nil && diff != "" {
				t.Fatalf("%s after %s (-json.Unmarshal +Decode):\n%s", in, a, diff)
			}
		}
	})
}

// TestHeadBounded: a chunk whose members before the choices are longer
// than maxHead is read in full, and not kept.
func TestHeadBounded(t *testing.T) {
	t.Parallel()
	var cr Reader
	var c Chunk
	id := strings.Repeat("x", 2*maxHead)
	chunk := []byte(`{"id":"` + id + `","choices":[{"index":0,"delta":{"content":"y"}}]}`)
	for range 2 {
		if err := cr.Decode(chunk, &c); err != nil || c.ID != id {
			t.Fatalf("error %v, id of %d bytes; want the chunk's", err, len(c.ID))
		}
	}
	if len(cr.head) > maxHead || len(cr.memo) > maxHead {
		t.Errorf("kept %d and %d bytes of the chunk's head, want at most %d", len(cr.head), len(cr.memo), maxHead)
	}
}

// TestTextUsed: a chunk whose choices are the text of the last one's
// around another string has only that string read.
func TestTextUsed(t *testing.T) {
	t.Parallel()
	var cr Reader
	var c Chunk
	const chunk = `{"id": "a", "choices": [{"index": 0, "delta": {"content": %q}, "finish_reason": null}]}`
	if err := cr.Decode(fmt.Appendf(nil, chunk, "x"), &c); err != nil {
		t.Fatal(err)
	}
	cr.texts[0].index = 7 // the choice's index is the template's
	if err := cr.Decode(fmt.Appendf(nil, chunk, "y"), &c); err != nil || len(c.Choices) != 1 || c.Choices[0].Index != 7 || *c.Choices[0].Delta.Content != "y" {
		t.Errorf("a chunk of the template's text: %+v, error %v; want the template's choice with y", c.Choices, err)
	}
}

// TestMemoUsed: a chunk whose members before the choices repeat the last
// one's has only its choices read: its header is the memo's.
func TestMemoUsed(t *testing.T) {
	t.Parallel()
	var cr Reader
	var c Chunk
	for _, chunk := range []string{
		`{"id": "a", "object": "chat.completion.chunk", "model": "m", "choices": [{"index": 0, "delta": {"content": "x"}}]}`,
		`{"id": "a", "object": "chat.completion.chunk", "model": "m", "choices": [], "usage": {"prompt_tokens": 1}}`,
	} {
		if err := cr.Decode([]byte(chunk), &c); err != nil {
			t.Fatal(err)
		}
		if want := `{"id": "a", "object": "chat.completion.chunk", "model": "m", "choices":`; string(cr.memo) != want {
			t.Errorf("after %s, memo %q, want %q", chunk, cr.memo, want)
		}
	}
	cr.memoed.model = "memo"
	if err := cr.Decode([]byte(`{"id": "a", "object": "chat.completion.chunk", "model": "m", "choices": []}`), &c); err != nil || c.Model != "memo" {
		t.Errorf("a chunk with the memo's members: model %q, error %v; want the memo's model", c.Model, err)
	}
}
