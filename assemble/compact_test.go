package assemble

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// FuzzCompact checks appendCompact against json.Compact, which is what
// encoding/json does to a json.RawMessage: the same bytes when it accepts
// src, and it rejects what json.Compact rejects; it may reject valid JSON
// only when nested deeper than it follows.
func FuzzCompact(f *testing.F) {
	for _, s := range []string{
		`{"a": [1, -2.5e+3, true, false, null, {}, []], "b" : "x\ny"}`, " 0 ", `"\u00e9\/"`, `[1,]`, `{"a" 1}`, "\"\x01\"",
		`01`, `1.e5`, `-`, `[[[]]]`, `{"a":{"b":{}}}`, "[\"\xff\xfe\"]", `"\ud800"`, `nul`, `truex`, `1 2`,
		// Strings that end in, at the end of and after a first word, in the
		// last bytes of src, with a control byte, an escape or bytes with
		// the high bit set in a word (stringEnd).
		`{"type":"finish","finishReason":"stop"}`, `["1234567","12345678","123456789"]`, `"12345678`,
		"[\"1234\x1f678\"]", `["1234\"678\"", "abcdefghijk\\"]`, "[\"\xe2\x80\xa8\xff\xff\xff\xff\xff\xff\"]",
		// Integers, read without NumberEnd, and the numbers that start
		// like them.
		`[0,7,12,3e1,40.5,0E2,1E+2,90]`, `09`, `0`, `123`, `1x`, `{"a":0}`,
	} {
		f.Add([]byte(s))
	}
	// Objects and arrays nested past a word of the depth's bits.
	for _, n := range []int{63, 64, 65, 130, maxRawDepth, maxRawDepth + 1} {
		s := strings.Repeat(`{"a":[`, n/2) + strings.Repeat(`]}`, n/2)
		if n%2 == 1 {
			s = "[" + s + "]"
		}
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		var want bytes.Buffer
		wantErr := json.Compact(&want, src)
		got, ok := appendCompact([]byte("prefix"), src)
		switch {
		case ok && wantErr != nil:
			t.Fatalf("appendCompact accepted %q, json.Compact: %v", src, wantErr)
		case ok && string(got) != "prefix"+want.String():
			t.Fatalf("appendCompact(%q) = %q, json.Compact %q", src, got[len("prefix"):], want.Bytes())
		case !ok && wantErr == nil && depth(src) <= maxRawDepth:
			t.Fatalf("appendCompact rejected %q, which json.Compact accepts", src)
		}
	})
}

// depth returns how deeply valid JSON text nests.
func depth(src []byte) int {
	d, max, in := 0, 0, false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case in && c == '\\':
			i++
		case c == '"':
			in = !in
		case !in && (c == '[' || c == '{'):
			d++
			if d > max {
				max = d
			}
		case !in && (c == ']' || c == '}'):
			d--
		}
	}
	return max
}

// TestUnknownPayloadChecked: an unknown event's payload is checked when
// its block is made: Raw is what it was before the note (the payload, or
// as a JSON string when it is not JSON), AppendPayload writes it as
// appendCompact does, and copies it only while it is the payload noted.
func TestUnknownPayloadChecked(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, raw, want string
		noted           bool
	}{
		{"compact", `{"type":"x","n":[1,2]}`, `{"type":"x","n":[1,2]}`, true},
		{"white space", "{\"type\": \"x\"}", "{\"type\": \"x\"}", false},
		{"leading white space", " [1]", " [1]", false},
		{"not JSON", `tag a="1"`, `"tag a=\"1\""`, true},
		{"cut", `{"type":"x"`, `"{\"type\":\"x\""`, true},
		{"deeper than appendCompact follows", strings.Repeat("[", maxRawDepth+1) + strings.Repeat("]", maxRawDepth+1), "", false},
		{"empty", "", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if tt.want == "" {
				tt.want = tt.raw
			}
			b := FromEvent(&event.Unknown{Format: "f", Type: "x", Raw: json.RawMessage(tt.raw)})
			if string(b.Raw) != tt.want {
				t.Fatalf("Raw = %q, want %q", b.Raw, tt.want)
			}
			if noted := b.Checked != (event.Checked{}); noted != tt.noted {
				t.Fatalf("noted %v, want %v", noted, tt.noted)
			}
			want, wantOK := appendCompact([]byte("x"), b.Raw)
			got, ok := b.AppendPayload([]byte("x"), b.Raw)
			if string(got) != string(want) || ok != wantOK {
				t.Errorf("AppendPayload = %q, %v; appendCompact %q, %v", got, ok, want, wantOK)
			}
			if len(b.Raw) == 0 {
				return
			}
			// Another payload, a shorter one at the same place, a copy:
			// none is the payload noted, each is checked.
			for _, other := range []json.RawMessage{json.RawMessage("{,}"), b.Raw[:len(b.Raw)-1], bytes.Clone(b.Raw)} {
				want, wantOK := appendCompact(nil, other)
				got, ok := b.AppendPayload(nil, other)
				if string(got) != string(want) || ok != wantOK {
					t.Errorf("AppendPayload(%q) = %q, %v; appendCompact %q, %v", other, got, ok, want, wantOK)
				}
			}
		})
	}
}

// TestCheckedEqual: the note is not part of what a block says; go-cmp
// compares blocks without it.
func TestCheckedEqual(t *testing.T) {
	t.Parallel()
	got := FromEvent(&event.Unknown{Format: "f", Type: "x", Raw: json.RawMessage(`{}`)})
	want := &Block{Type: TypeUnknown, Kind: "x", Name: "f", Raw: json.RawMessage(`{}`)}
	if got.Checked == want.Checked {
		t.Fatal("no note to leave out")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// TestNotedPayloads: a payload, noted by its event (event.Checked) as
// valid or compact or not noted, is written as json.Compact writes it, or
// left to encoding/json only where appendCompact leaves it; its block
// keeps the note.
func TestNotedPayloads(t *testing.T) {
	t.Parallel()
	for _, raw := range []string{
		`{"a":1}`, `{"a": "b c"}`, "{\"a\":\n1}", "[1,\t2]", "\r\n[]", `"x y"`, `{"k":"v\"w x"}`,
		strings.Repeat("[", maxRawDepth+1) + strings.Repeat("]", maxRawDepth+1),
	} {
		p := json.RawMessage(raw)
		var c bytes.Buffer
		_ = json.Compact(&c, p)
		notes := []event.Checked{{}, event.ValidJSON(p)}
		if c.String() == raw {
			notes = append(notes, event.CompactJSON(p))
		}
		for i, note := range notes {
			for _, ev := range []event.Event{
				&event.ToolCall{Input: p, Checked: note},
				&event.ToolResult{Structured: p, Checked: note},
				&event.SessionStart{Meta: p, Checked: note},
				&event.RunEnd{Meta: p, Checked: note},
				&event.Error{Raw: p, Checked: note},
				&event.Notice{Raw: p, Checked: note},
				&event.Unknown{Raw: p, Checked: note},
			} {
				b := FromEvent(ev)
				payload := b.Raw
				switch ev.(type) {
				case *event.ToolCall:
					payload = b.Input
				case *event.ToolResult:
					payload = b.Structured
				}
				if i > 0 && !b.Checked.Valid(payload) {
					t.Errorf("%q note %d: %T's block lost its note", raw, i, ev)
				}
				got, ok := b.AppendPayload([]byte("x"), payload)
				_, wantOK := appendCompact(nil, payload)
				switch {
				case ok && string(got[1:]) != c.String():
					t.Errorf("%q note %d: %T's AppendPayload wrote %q, json.Compact %q", raw, i, ev, got[1:], c.String())
				case !ok && wantOK:
					t.Errorf("%q note %d: %T's AppendPayload gave up where appendCompact does not", raw, i, ev)
				}
			}
		}
	}
}
