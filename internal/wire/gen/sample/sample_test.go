package sample

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// seeds cover each kind of field, null, repeated keys, case-insensitive
// keys, wrong types and bad syntax.
var seeds = []string{
	`{"type":"run","id":"a","body":{"x":[1]},"usage":{"input":1},"raws":[1,null],"Kind":"k","Both":"b","Pick":"p","extra":"e","spent":{"input":2}}`,
	`{"spent":{"input":1},"spent":{"output":2},"spent":null,"spent":{"output":3}}`, `{"spent":null}`, `{"spent":[]}`,
	`{"id":"a","type":"text","body":null,"id":"b","kind":"x","KIND":"y","usage":null,"usage":{"output":2},"raws":null}`,
	`{ "type" : "x" , "body" : "s" , "raws" : [ {} ] }`,
	`{"type":"run","type":"tool_use","id":"\u0061","body":1,"body":2}`,
	`{"type":"content_block_stop","id":"a","detail_of_the_run":"d"}`, `{"type":"content_block_start","detail_of_the_run":"d"}`,
	`{"type":"content_block_delta","id":"a","body":1,"usage":{},"raws":[],"Kind":"k","detail_of_the_run":"d"}`,
	`{"type":"content_block_st","id":"a"}`, `{"type":"content_block_stops"}`, `{"type":"content_block_"}`, `{"type":"result"}`,
	`{"type":"response.output_text.annotation.added"}`, `{"type":"response.output_text.annotation.adde"}`, `{"type":"resul"}`,
	`{"type":"response.output_text.annotation.addex"}`, `{"type":"run"}`, `{"type":"ru"}`, `{"type":"text","detail_of_the_rum":1}`,
	`{"id":"a","detail_of_the_run":"d","type":"result"}`,
	`{"counted":{"a":1,"b":null,"s":"x","t":true},"counts":{"b":2.5,"a":null}}`, `{"counted":null,"counts":null}`,
	`{"counts":{"a":1,"a":null,"s":null}}`, `{"counts":{"A":1}}`, `{"counted":{"a":"1"}}`, `{"counted":{}}`, `{"counts":[]}`, `{"type":"r\u0075n","detail_of_the_run":null}`,
	`{"type":"text","text":"a\nb\u00e9\ud800","final":true,"n":-12,"small":127,"int":3,"f":1.5e3}`,
	`{"type":"other","opt":"x","opt_n":0,"opt_b":false,"opt_f":-0.5,"raw":{"a": [1, 2]},"opt_raw":null,"raws":[1,"x",null,{}],"any":{"k":[true,null,1.5]}}`,
	`{"names":["a",null,"b"],"types":["tool_use","text","x"],"usage":{"input":1,"output":2},"opt_usage":{"input":3}}`,
	`{"parts":[{"partId":"p","kind":"k","createdAt":5,"Pick":"h","extra":"e","Both":"b"},null,{}],"ptr_parts":[null,{"kind":"x"}],"grid":[[1,2],[],null]}`,
	`{"words":"a b  c","opt_words":"d e","Untagged":"u","-":"dash","Skipped":"no","hidden":"no"}`,
	`{"anon":{"iD":"a","deep":{"n":1,"x":2},"deep":null},"anons":[{"k":1},{"K":2}]}`, `{"anon":{"id":"a"}}`, `{"anon":null,"anons":null}`,
	`{"members":{"a":{"input":1},"b":null,"a":{"output":2}},"members":{"C":{}}}`, `{"members":{"\u0061":{}}}`, `{"members":{"a":1}}`, `{"members":[]}`,
	`{"words":null,"opt_words":null,"raw":null,"any":null,"names":null,"usage":null,"opt_usage":null}`,
	`{"parts":[{"kind":"a","partId":"1"},{"kind":"b"}],"parts":[{"extra":"x"}],"parts":[{},{}]}`,
	`{"n":1,"n":null,"text":"a","text":null,"opt":"x","opt":null,"usage":{"input":1},"usage":{"output":2}}`,
	`{"TYPE":"text"}`, `{"Text":"x"}`, `{"partid":"x"}`, `{"parts":[{"PARTID":"x","Kind":"y"}]}`, `{"untagged":"x"}`,
	`{"small":128}`, `{"small":-129}`, `{"n":1.0}`, `{"n":1e2}`, `{"n":"1"}`, `{"n":9223372036854775808}`, `{"int":-9223372036854775808}`,
	`{"f":1e400}`, `{"f":"1"}`, `{"final":"true"}`, `{"text":1}`, `{"usage":[]}`, `{"parts":{}}`, `{"words":"bad"}`, `{"words":1}`,
	`{"te\u0078t":"x"}`, `{"text":"x",}`, `{"text" : "x" , "n" : 1 }`, ` { } `, `null`, `[]`, `"x"`, `{`, `{"a":}`, `{"a":1}x`,
	`{"parsed":{"input":1}}`, `{"parsed" : {"output":2} , "n":1}`, `{"parsed":{"input":"x"}}`, `{"parsed":{"Input":1}}`,
	`{"parsed":[1]}`, `{"parsed":null}`, `{"parsed":{"input":1},"parsed":{"output":2}}`, `{"parsed":{"input":1},"parsed":5}`,
	`{"keep":"a","keep_ptr":"b","parts":[{"kind":"k"},null,{"partId":"p"}],"nested":{"items":[{"kind":"x","n":1},{"n":null}]},"wholes":[{"kind":"w"},{}],"whole":{"n":2},"lent":{"kind":"l"},"any":null}`,
	`{"keep":"a","keep":null,"keep_ptr":null,"parts":[{}],"parts":[{"kind":"b"},{}],"nested":null,"nested":{"items":null},"whole":null}`,
	`{"keep":"a\u00e9","keep_ptr":"b","parts":[],"nested":{"items":[]},"wholes":null,"lent":{"kind":"m", "x":1}}`,
	`{"n":12,"keep":"a\"b"}`, `{"n":123,"keep":"a","keep_ptr":"a"}`, `{"n":12 ,"keep":"a" }`, `{"n":12}`, `{"n":12e1}`, `{"n":12.5}`,
	`{"keep":"a\u0062"}`, `{"keep":"ab"}`, `{"keep":"a\/"}`, `{"keep":"a/"}`, "{\"keep\":\"a\xff\"}",
	`{"label":"x","nested":{"name":"x"}}`, `{"nested":{"name":"y"},"label":"y"}`, `{"label":"y","label":"z","nested":{"name":"z","name":null}}`,
	`{"wholes":[null]}`, `{"lent":null}`, `{"whole":{"kind":1}}`, `{"nested":{"items":[{"kind":"a"}]},"nested":{"items":[{"n":1},{}]}}`,
	`{"kind":"text","id":"a","n":1,"models":{"a":{"input":1},"b":null,"a":{"output":2}}}`, `{"models":null,"kind":"x","kind":null}`,
	`{"models":{"a":1}}`, `{"models":[]}`, `{"models":{"\u0061":{}}}`, `{"models":{"A":{}},"models":{"b":{"input":3}},"models":{"A":null}}`,
	`{"Kind":"y","n":1}`, `{"note":"x","id":"a"}`, `{"note":null}`, `{"note":1}`, `{"NOTE":"x"}`, "{\"note\":\"\xff\"}", `{"N":2}`, `{"models":{"a":{"Input":1}}}`, `{"n":"1","id":"x"}`, `{"models":{}}`, `{"models":{"é":{}}}`,
	`{"blocks":[{"a":1}, "x" ,[]]}`, `{"blocks":[]}`, `{"blocks":"s"}`, `{"blocks":null}`, `{"blocks":[1],"blocks":[2,3]}`,
	`{"blocks":[1,}`, `{"Blocks":[1]}`, `{"blocks":[{"a":[1,{"b":2}]},null]}`,
	`{"list":["a","b"]}`, `{"list":["a","b"],"n":1}`, `{"list":["a",null]}`, `{"list":[]}`, `{"list":null}`, `{"list":"a"}`,
	`{"list":[1]}`, `{"list":["a"],"list":["b",null]}`, `{"list":[],"list":["b"]}`, `{"list":null,"list":["a","b"]}`,
	`{"list":["a\u0062"]}`, `{"list":[ "a" ,"b"]}`, `{"List":["a","b"]}`, "{\"list\":[\"\xff\"]}",
	"{\"text\":\"bad \xff byte\"}", "{\"k\xffey\":1}", `{"ſ":1}`, `{"parts":[{"\u212aind":"x"}]}`,
}

// compare checks that the generated reader of T decodes data as
// json.Unmarshal does, after Reset and, for valid UTF-8, ResetValid, and
// reports whether it read data in one pass.
func compare[T any](t *testing.T, data []byte, read func(*jsontext.Reader, *T) bool) bool {
	t.Helper()
	var want T
	err := json.Unmarshal(data, &want)
	read1 := false
	for _, valid := range []bool{false, true} {
		var r jsontext.Reader
		if valid {
			if !utf8.Valid(data) {
				continue
			}
			r.ResetValid(data)
		} else {
			r.Reset(data)
		}
		var got T
		if !read(&r, &got) || !r.End() {
			continue
		}
		read1 = true
		if err != nil {
			t.Fatalf("%q: the reader decodes what json.Unmarshal refuses: %v", data, err)
		}
		if o, ok := any(&got).(*Ordered); ok {
			var text struct {
				Usage json.RawMessage `json:"usage"`
			}
			json.Unmarshal(data, &text)
			if string(o.usageText) != string(text.Usage) {
				t.Errorf("%q: usage text %q, want %q", data, o.usageText, text.Usage)
			}
			o.usageText = nil
			if o.Spent != nil && o.Spent != &o.spent {
				t.Errorf("%q: Spent points to a new Usage, not to spent", data)
			}
		}
		if e, ok := any(&got).(*Event); ok {
			var u Usage
			if err := json.Unmarshal(e.Parsed, &u); e.parsed != nil && (err != nil || u != *e.parsed) {
				t.Errorf("%q: parsed %+v, json.Unmarshal of %s gives %+v, %v", data, *e.parsed, e.Parsed, u, err)
			}
		}
		if u, ok := any(&got).(*Reused); ok {
			checkBlocks(t, data, u)
		}
		if j, ok := any(&got).(*Joined); ok {
			var e Extra
			if err := json.Unmarshal(data, &e); err != nil {
				t.Fatalf("%q: Joined's reader reads what json.Unmarshal into Extra refuses: %v", data, err)
			}
			if diff := cmp.Diff(e, j.extra); diff != "" {
				t.Errorf("%q: Joined's Extra (-json.Unmarshal +reader):\n%s", data, diff)
			}
			if j.Note != "" {
				t.Errorf("%q: Joined's Note (wire:\"check\") set to %q", data, j.Note)
			}
			any(&want).(*Joined).Note = ""
		}
		if diff := cmp.Diff(want, got, cmpopts.IgnoreUnexported(Ordered{}, Event{}, Reused{}, Nested{}, Joined{})); diff != "" {
			t.Errorf("%q (valid %v): (-json.Unmarshal +reader):\n%s", data, valid, diff)
		}
	}
	return read1
}

func compareAll(t *testing.T, data []byte) int {
	n := 0
	for _, read := range []bool{
		compare(t, data, ReadEvent), compare(t, data, ReadPart), compare(t, data, ReadUsage),
		compare(t, data, ReadHead), compare(t, data, ReadTail), compare(t, data, ReadOrdered),
		compare(t, data, ReadReused), compare(t, data, ReadWhole), compare(t, data, ReadJoined), compare(t, data, ReadExtra),
	} {
		if read {
			n++
		}
	}
	return n
}

// full is an Event with every field set.
func full(t testing.TB) []byte {
	one, s := int64(1), "s"
	raw := json.RawMessage(`{"r":1}`)
	b := true
	f := 2.5
	e := Event{
		Type: TypeTool, Text: "t", Final: true, N: 1, Small: -1, Int: 7, F: 0.25,
		Opt: &s, OptN: &one, OptB: &b, OptF: &f, Raw: raw, OptRaw: &raw, Raws: []json.RawMessage{raw},
		Any: map[string]any{"a": "b"}, Names: []string{"x"}, Types: []string{TypeText},
		Usage: Usage{Input: 1, Output: 2}, OptUsage: &Usage{Input: 3},
		Parts:    []Part{{Head: Head{CreatedAt: &one, Pick: "p"}, Tail: Tail{Extra: "e"}, PartID: "id", Kind: "k"}},
		PtrParts: []*Part{{Kind: "k"}}, Grid: [][]int64{{1}, {}}, Words: Words{"w"}, OptWords: &Words{"v"},
		Members:  Members{{Key: "k", Value: Usage{Input: 1}}},
		Untagged: "u", Parsed: json.RawMessage(`{"input":1}`),
	}
	out, err := json.Marshal(e)
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGeneratedReaders: the seeds are decoded as json.Unmarshal decodes
// them, and most in one pass (a reader that gave every input up would
// pass the comparison).
func TestGeneratedReaders(t *testing.T) {
	t.Parallel()
	fast := 0
	for _, s := range seeds {
		if compareAll(t, []byte(s)) > 0 {
			fast++
		}
	}
	if fast < len(seeds)/2 {
		t.Errorf("%d of %d seeds read in one pass, want at least half", fast, len(seeds))
	}
	if compare(t, full(t), ReadEvent) == false {
		t.Errorf("an Event with every field set is not read in one pass: %s", full(t))
	}
}

// FuzzGeneratedReaders compares the generated readers with json.Unmarshal:
// the same value, or the reader gives the input up.
func FuzzGeneratedReaders(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Add(full(f))
	f.Fuzz(func(t *testing.T, data []byte) { compareAll(t, data) })
}

// TestGeneratedReadsEveryField: each field, set alone, is read.
func TestGeneratedReadsEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadEvent)
	wiretest.ReadsEveryField(t, ReadPart)
	wiretest.ReadsEveryField(t, ReadOrdered)
	wiretest.ReadsEveryField(t, ReadReused)
	wiretest.ReadsEveryField(t, ReadJoined, ".note")
	wiretest.ReadsEveryField(t, ReadExtra)
}

// reuse decodes a, then b into the same Reused (ResetReused before
// each, as a decoder reuses one), and compares b's with json.Unmarshal's.
func reuse(t *testing.T, a, b []byte) {
	var r jsontext.Reader
	var v Reused
	ResetReused(&v)
	jsontext.Decode(&r, a, &v, ReadReused)
	ResetReused(&v)
	r.Reset(b)
	if ReadReused(&r, &v) && r.End() { // (blocks is the reader's only)
		checkBlocks(t, b, &v)
	}
	ResetReused(&v)
	err := jsontext.Decode(&r, b, &v, ReadReused)
	var want Reused
	werr := json.Unmarshal(b, &want)
	if (err == nil) != (werr == nil) {
		t.Fatalf("%q after %q: error %v, json.Unmarshal's %v", b, a, err, werr)
	}
	if diff := cmp.Diff(want, v, cmpopts.IgnoreUnexported(Reused{}, Nested{})); err == nil && diff != "" {
		t.Errorf("%q after %q (-json.Unmarshal +reader):\n%s", b, a, diff)
	}
}

// TestGeneratedReuse: a value read into the memory of the value before
// (keep= strings, buf= slices and pointers) is what json.Unmarshal gives.
func TestGeneratedReuse(t *testing.T) {
	t.Parallel()
	for i, a := range seeds {
		for _, b := range seeds[i:] {
			reuse(t, []byte(a), []byte(b))
			reuse(t, []byte(b), []byte(a))
		}
	}
}

// FuzzGeneratedReuse is TestGeneratedReuse on any two inputs.
func FuzzGeneratedReuse(f *testing.F) {
	for i, s := range seeds {
		f.Add([]byte(s), []byte(seeds[(i+1)%len(seeds)]))
	}
	f.Fuzz(reuse)
}

// TestKeepStringsShares: a keep= list read again with the same text is
// the last list, not a new one.
func TestKeepStringsShares(t *testing.T) {
	t.Parallel()
	var r jsontext.Reader
	var v Reused
	line := []byte(`{"list":["alpha","beta"]}`)
	if err := jsontext.Decode(&r, line, &v, ReadReused); err != nil {
		t.Fatal(err)
	}
	first := v.List
	ResetReused(&v)
	if err := jsontext.Decode(&r, line, &v, ReadReused); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(first, v.List); diff != "" {
		t.Fatalf("second read (-first +second):\n%s", diff)
	}
	if &first[0] != &v.List[0] {
		t.Errorf("second read: a new list, want the first's")
	}
}

// checkBlocks checks that the elements of Blocks, when it is an array,
// are what json.Unmarshal into []json.RawMessage gives.
func checkBlocks(t *testing.T, data []byte, v *Reused) {
	t.Helper()
	if len(v.Blocks) == 0 || v.Blocks[0] != '[' {
		return
	}
	var want []json.RawMessage
	if err := json.Unmarshal(v.Blocks, &want); err != nil {
		t.Fatalf("%q: blocks %s: %v", data, v.Blocks, err)
	}
	if diff := cmp.Diff(want, v.blocks, cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("%q: blocks' elements (-json.Unmarshal +reader):\n%s", data, diff)
	}
}

// TestCountedHas: the reader notes the keys given, not null, as the
// declaration's has= tags say.
func TestCountedHas(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		in   string
		want uint8
	}{
		{`{}`, 0},
		{`{"a":1,"b":null,"s":"x","t":true}`, countedA | countedS},
		{`{"b":0,"a":null}`, countedB},
		{`{"a":1,"a":null}`, countedA},
		{`{"t":true,"x":{"a":1}}`, 0},
		{`null`, 0},
	} {
		var c Counted
		if err := json.Unmarshal([]byte(tt.in), &c); err != nil || c.Has != tt.want {
			t.Errorf("json.Unmarshal(%s) gives Has %b, %v; want %b", tt.in, c.Has, err, tt.want)
		}
	}
}
