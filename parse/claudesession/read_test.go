package claudesession

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event/eventtest"
	wire "github.com/agentstream/agentstream/internal/wire/claude"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// TestUnmarshalLine: a line read in one pass is what json.Unmarshal
// gives, the session fields interned or not; one left to encoding/json
// is left zero.
func TestUnmarshalLine(t *testing.T) {
	t.Parallel()
	d := NewDecoder(nil, nil)
	lines := wiretest.JSONLines(t, eventtest.Corpus(t, corpus, recordings),
		`{"type":"user","message":{"content":"hi","content":[]}}`, `{"type":5}`, `{"sessionId":"s","cwd":"s"}`)
	fast := 0
	for _, data := range lines {
		var l wire.SessionLine
		if !d.unmarshalLine(data, &l) {
			if diff := cmp.Diff(wire.SessionLine{}, l); diff != "" {
				t.Errorf("%s: not decoded in one pass, but the line is not reset:\n%s", data, diff)
			}
			continue
		}
		fast++
		var want wire.SessionLine
		if err := json.Unmarshal(data, &want); err != nil {
			t.Fatalf("%s: read in one pass, but json.Unmarshal refuses it: %v", data, err)
		}
		if diff := cmp.Diff(want, l); diff != "" {
			t.Errorf("%s: (-json.Unmarshal +one pass):\n%s", data, diff)
		}
	}
	if fast < len(lines)-3 { // the two odd lines, and one whose usage messages.ReadUsage leaves to encoding/json
		t.Errorf("%d of %d lines read in one pass", fast, len(lines))
	}
}
