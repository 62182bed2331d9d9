package sample

import (
	"bytes"
	"encoding/json"
	"testing"
)

// writeSeeds set each field of Written, Ordered and Part, with strings
// that encoding/json escapes (HTML, control, invalid UTF-8, U+2028).
var writeSeeds = []string{
	`{}`, `{"opt_b":true}`, `{"opt":""}`, `{"opt_i":1,"opt_s":"x"}`, `{"sparse":{"a":"x"}}`, `{"sparse":{"b":0,"c":[{}]}}`,
	`{"opt":"<a&b>","opt_b":true,"text":"t\u2028\u2029\n\"\\\u0001","final":true,"n":-9223372036854775808,"small":-128,"int":7,` +
		`"opt_n":0,"opt_i":-1,"opt_s":"s","raw":{"a" : [1, "<"]},"compact":{"x" : "&"},"raws":[1,null,{"y":[ ]}],"any":{"k":[true,null,1.5,"<"]},` +
		`"opt_any":"x","names":["a",""],"opt_names":["b"],"usage":{"input":1,"output":2},"opt_usage":{"input":3},` +
		`"parts":[{"partId":"p","kind":"k","createdAt":5,"Pick":"h","extra":"e","Both":"b"},{}],"ptr_parts":[null,{"kind":"x"}],` +
		`"grid":[[1,2],[],null],"Untagged":"u","last":"l","anon":{"iD":"x","deep":{"n":[1]}}}`, `{"anon":{"deep":{}}}`,
	`{"names":[],"raws":[],"parts":[],"ptr_parts":[],"grid":[],"opt_names":[],"any":[]}`,
	"{\"text\":\"bad \xff byte \xe2\x80\",\"names\":[\"\xed\xa0\x80\"]}",
	`{"type":"run","id":"a","body":{"x" : [1]},"usage":{"input":1},"raws":[1,null],"Kind":"k","Both":"b","Pick":"p","extra":"e","spent":{"input":2}}`,
}

// canonical sets the raw values tagged wire:"compact" to what
// encoding/json writes for them, as the tag declares they are.
func canonical(t *testing.T, raw *json.RawMessage) {
	if *raw == nil {
		return
	}
	out, err := json.Marshal(*raw)
	if err != nil {
		t.Fatal(err)
	}
	*raw = out
}

// compareWrite checks that the generated writer of T writes what
// json.Marshal writes for the value data decodes to, after a prefix.
func compareWrite[T any](t *testing.T, data []byte, fix func(*T), write func([]byte, *T) ([]byte, error)) {
	t.Helper()
	var v T
	if json.Unmarshal(data, &v) != nil {
		return
	}
	fix(&v)
	want, werr := json.Marshal(&v)
	got, gerr := write([]byte("prefix"), &v)
	if (werr != nil) != (gerr != nil) || werr == nil && !bytes.Equal(got, append([]byte("prefix"), want...)) {
		t.Errorf("%T of %s:\nwriter       %s (%v)\njson.Marshal %s (%v)", v, data, got, gerr, want, werr)
	}
}

func compareWriters(t *testing.T, data []byte) {
	compareWrite(t, data, func(v *Written) {
		canonical(t, &v.Compact)
		for i := range v.Raws {
			canonical(t, &v.Raws[i])
		}
	}, AppendWritten)
	compareWrite(t, data, func(*Ordered) {}, AppendOrdered)
	compareWrite(t, data, func(*Part) {}, func(b []byte, v *Part) ([]byte, error) { return AppendPart(b, v), nil })
	compareWrite(t, data, func(*Sparse) {}, func(b []byte, v *Sparse) ([]byte, error) { return AppendSparse(b, v), nil })
}

// TestGeneratedWriters: the seeds' values are written as json.Marshal
// writes them, and a value it refuses (an any it cannot write) is an
// error.
func TestGeneratedWriters(t *testing.T) {
	t.Parallel()
	for _, s := range append(writeSeeds, seeds...) {
		compareWriters(t, []byte(s))
	}
	if _, err := AppendWritten(nil, &Written{Any: make(chan int)}); err == nil {
		t.Error("AppendWritten of a channel: no error, want json.Marshal's")
	}
	if _, err := AppendOrdered(nil, &Ordered{Body: json.RawMessage(`{`)}); err == nil {
		t.Error("AppendOrdered of a bad raw body: no error, want json.Marshal's")
	}
}

// FuzzGeneratedWriters compares the generated writers with json.Marshal
// on the values the fuzzed text decodes to.
func FuzzGeneratedWriters(f *testing.F) {
	for _, s := range append(writeSeeds, seeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(compareWriters)
}
