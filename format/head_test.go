package format_test

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/format"
)

func TestSniff(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		atEOF bool
		want  format.Head
		ok    bool
	}{
		{"data: {\"a\":1}\n", false, format.Head{SSE: true, Payload: []byte(`{"a":1}`)}, true},
		{"event: message_start\ndata: {}\n", false, format.Head{SSE: true, EventType: "message_start", Payload: []byte(`{}`)}, true},
		{": c\n\ndata: x", false, format.Head{SSE: true}, false},
		{"\xef\xbb\xbf\n{\"type\":\"x\"}\n", false, format.Head{Payload: []byte(`{"type":"x"}`)}, true},
		{"{\"type\"", false, format.Head{}, false},
		{"{\"type\"", true, format.Head{Payload: []byte(`{"type"`)}, true},
		{"", true, format.Head{}, true},
	}
	for _, tt := range tests {
		got, ok := format.Sniff([]byte(tt.in), tt.atEOF)
		if ok != tt.ok {
			t.Errorf("Sniff(%q) ok = %v, want %v", tt.in, ok, tt.ok)
			continue
		}
		if !ok {
			continue
		}
		if diff := cmp.Diff(tt.want, got, cmp.AllowUnexported(format.Head{})); diff != "" {
			t.Errorf("Sniff(%q) (-want +got):\n%s", tt.in, diff)
		}
	}
}

// TestReadFields: a head whose fields were read gives what Fields reads.
func TestReadFields(t *testing.T) {
	t.Parallel()
	for _, in := range []string{`{"type":"a","n":[1,{"x":2}],"type":"b"}`, `{"type":"a","cut`, ` {} `, `[1]`, `x`, ``} {
		h := format.Head{Payload: []byte(in)}
		if diff := cmp.Diff(h.Fields(), h.ReadFields().Fields()); diff != "" {
			t.Errorf("%q: ReadFields().Fields() (-Fields +got):\n%s", in, diff)
		}
	}
}
