package jsontext

import (
	"bytes"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// readAll is what a Reader reads from a JSON text, walked value by value
// with the methods the decoders use.
type readAll struct {
	Value  any
	End    bool
	Failed bool
	Offset int
}

// member is one key and value of an object, in input order.
type member struct {
	Key   string
	Value any
}

func walk(r *Reader) any {
	switch r.Peek() {
	case '{':
		r.Object()
		var ms []member
		for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
			k := string(key)
			ms = append(ms, member{k, walk(r)})
		}
		return ms
	case '[':
		r.Array()
		var vs []any
		for r.More() {
			vs = append(vs, walk(r))
		}
		return vs
	case '"':
		return r.String()
	case 'n':
		return r.Null()
	case 't', 'f':
		return r.Bool()
	}
	return r.Float()
}

func read(data []byte, valid bool) readAll {
	var r Reader
	if valid {
		r.ResetValid(data)
	} else {
		r.Reset(data)
	}
	v := walk(&r)
	end := r.End()
	return readAll{v, end, r.Failed(), r.Offset()}
}

var validSeeds = []string{
	`{"a":"plain","b":["Ünïcödé — 测试 🦊","esc\n\t\"\\\/ é","\u00e9\ud83e\udd8a","\ud800 lone"],"C":{"d":null,"e":true,"f":-1.5e3}}`,
	`"` + "\uFFFD replaced" + `"`, `""`, `["", "x", ""]`, `{"a":"unterminated`, "[\"ctl\x01\"]", `["\q"]`,
	`{"k":"v",}`, `[1,2,]`, ` "ws" `, `{"é":1}`, `"tail\\u00"`, `"a\u0000b"`,
}

// TestResetValid: on valid UTF-8, a Reader reset with ResetValid reads
// exactly what one reset with Reset reads, where it succeeds and where it
// fails.
func TestResetValid(t *testing.T) {
	t.Parallel()
	for _, s := range validSeeds {
		t.Run(s, func(t *testing.T) {
			t.Parallel()
			want, got := read([]byte(s), false), read([]byte(s), true)
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("ResetValid reads otherwise than Reset (-Reset +ResetValid):\n%s", diff)
			}
		})
	}
}

// TestDecodeValid: DecodeValid gives json.Unmarshal's results, through
// the Reader and, where it fails, through encoding/json.
func TestDecodeValid(t *testing.T) {
	t.Parallel()
	type msg struct {
		Text string  `json:"text"`
		Opt  *string `json:"opt"`
	}
	readMsg := func(r *Reader, m *msg) bool {
		if !r.Object() {
			return false
		}
		for key, ok := r.Key(); ok; key, ok = r.Key() {
			switch string(key) {
			case "text":
				r.StringField(&m.Text)
			case "opt":
				if r.Null() {
					m.Opt = nil
				} else {
					*Ensure(&m.Opt) = r.String()
				}
			default:
				r.Skip()
			}
		}
		return !r.Failed()
	}
	tests := []string{
		`{"text":"Ünïcödé — 测试 🦊","opt":"a\nb"}`, `{"text":null,"opt":null}`, `{"text":"\ud83e\udd8a \ud800"}`,
		`{"Text":"capital key, left to encoding/json"}`, `{"text":1}`, `{"text":"x"`,
	}
	for _, in := range tests {
		var want, got msg
		wantErr := json.Unmarshal([]byte(in), &want)
		var r Reader
		gotErr := DecodeValid(&r, []byte(in), &got, readMsg)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("DecodeValid(%s) (-json +DecodeValid):\n%s", in, diff)
		}
		if (wantErr == nil) != (gotErr == nil) {
			t.Errorf("DecodeValid(%s) error %v, json %v", in, gotErr, wantErr)
		}
	}
}

// FuzzResetValid: on any input made valid UTF-8 (as badutf8.Fix makes
// a decoder's units; badutf8 is internal to parse/, so its own test
// checks that Fix's output is valid), ResetValid and Reset read alike.
func FuzzResetValid(f *testing.F) {
	for _, s := range validSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !utf8.Valid(data) {
			data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
		}
		want, got := read(data, false), read(data, true)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%q: ResetValid reads otherwise than Reset (-Reset +ResetValid):\n%s", data, diff)
		}
	})
}
