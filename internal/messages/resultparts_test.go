package messages

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// resultPartsJSON is ResultParts as it was written with encoding/json
// only (blockPart aside): the one-pass ResultParts must give what it
// gives.
func resultPartsJSON(content json.RawMessage) ([]event.Part, error) {
	content = bytes.TrimSpace(content)
	if len(content) == 0 || string(content) == "null" {
		return nil, nil
	}
	if content[0] == '"' {
		var s string
		if err := json.Unmarshal(content, &s); err != nil {
			return nil, err
		}
		return []event.Part{{Type: "text", Text: s}}, nil
	}
	var blocks []json.RawMessage
	if err := json.Unmarshal(content, &blocks); err != nil {
		return []event.Part{{Type: "text", Text: string(content)}}, err
	}
	parts := make([]event.Part, 0, len(blocks))
	for _, raw := range blocks {
		var cb anthropic.Block
		if json.Unmarshal(raw, &cb) != nil {
			parts = append(parts, event.Part{Type: "text", Text: string(raw)})
			continue
		}
		parts = append(parts, blockPart(&cb, raw))
	}
	return parts, nil
}

var resultPartsSeeds = []string{
	``, `null`, ` "a\u00e9\n" `, `"bad \ud800"`, "\"\xff\"", `"unterminated`, `[]`, ` [ ] `,
	`[{"type":"text","text":"x"},{"type":"text","text":null},{"type":"new_kind","id":{}}]`,
	`[{"type":"image","source":{"type":"base64","media_type":"image/png","data":"AA=="}},{"type":"image","source":{"type":"url","url":"u"}}]`,
	`[{"type":"text","text":"a","text":"b"},{"type":"tool_reference","tool_name":"x"}, 5, "s", null]`,
	`[{"type":"text","text":5}]`, `{"type":"text"}`, `[1,]`, `[{"type":"text","text":"x"}] x`, `12`,
	`[{"Type":"text","TEXT":"caps"}]`, "[{\"type\":\"text\",\"text\":\"\xfe\"}]",
}

func TestResultParts(t *testing.T) {
	t.Parallel()
	for _, s := range resultPartsSeeds {
		compareResultParts(t, []byte(s))
	}
}

func FuzzResultParts(f *testing.F) {
	for _, s := range resultPartsSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(compareResultParts)
}

func compareResultParts(t *testing.T, content []byte) {
	want, wantErr := resultPartsJSON(content)
	got, err := ResultParts(content)
	if (err != nil) != (wantErr != nil) {
		t.Fatalf("ResultParts(%q): error %v, encoding/json %v", content, err, wantErr)
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ResultParts(%q) (-encoding/json +got):\n%s", content, diff)
	}
}
