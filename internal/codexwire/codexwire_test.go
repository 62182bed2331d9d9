package codexwire

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// read reads data with ReadUsage, reporting whether the reader took it.
func read(data []byte) (Usage, bool) {
	var r jsontext.Reader
	var u Usage
	r.Reset(data)
	ReadUsage(&r, &u)
	return u, r.End()
}

// compare checks that ReadUsage decodes data as json.Unmarshal does, or
// gives up on it.
func compare(t *testing.T, data []byte) {
	t.Helper()
	got, ok := read(data)
	var want Usage
	err := json.Unmarshal(data, &want)
	if !ok {
		return // encoding/json decides
	}
	if err != nil {
		t.Fatalf("ReadUsage took %q, which json.Unmarshal refuses: %v", data, err)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ReadUsage(%q) (-json.Unmarshal +ReadUsage):\n%s", data, diff)
	}
}

var seeds = []string{
	`{"input_tokens":2400,"cached_input_tokens":0,"cache_write_input_tokens":0,"output_tokens":26,"reasoning_output_tokens":0}`,
	`{"input_tokens":10,"cached_input_tokens":2,"output_tokens":3}`,
	`{}`,
	`{"input_tokens":null,"output_tokens":1,"extra":{"a":[1,2]}}`,
	`{"input_tokens":1,"input_tokens":2}`,
	`{"Input_Tokens":5}`,
	`{"input_tokens":"5"}`,
	`{"input_tokens":1.5}`,
	`{"input_tokens":1e3}`,
	` { "output_tokens" : 7 } `,
	`null`,
	`[1]`,
	`{"input_tokens":1`,
}

func TestReadUsage(t *testing.T) {
	t.Parallel()
	for _, s := range seeds {
		compare(t, []byte(s))
	}
}

// TestReadsEveryField: each field of Usage, set alone, is read back.
func TestReadsEveryField(t *testing.T) {
	t.Parallel()
	typ := reflect.TypeFor[Usage]()
	for i := range typ.NumField() {
		var u Usage
		reflect.ValueOf(&u).Elem().Field(i).SetInt(int64(i + 1))
		data, err := json.Marshal(u)
		if err != nil {
			t.Fatal(err)
		}
		got, ok := read(data)
		if !ok || got != u {
			t.Errorf("%s: ReadUsage(%s) = %+v, %v; want %+v", typ.Field(i).Name, data, got, ok, u)
		}
	}
}

func FuzzReadUsage(f *testing.F) {
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) { compare(t, data) })
}
