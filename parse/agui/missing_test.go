package agui

import (
	"bytes"
	"fmt"
	"os"
	"testing"

	"github.com/agentstream/agentstream/event/eventtest"
	wire "github.com/agentstream/agentstream/internal/wire/agui"
)

// sameMissing checks that missing, which reads the required members in
// one pass, reports what reading data into a map reports, for every
// event type.
func sameMissing(t *testing.T, data []byte) {
	t.Helper()
	d := NewDecoder(bytes.NewReader(nil), &Config{Source: "in"})
	for typ := range wire.Required {
		got, want := fmt.Sprint(d.missing(typ, data)), fmt.Sprint(d.missingFromMap(typ, data))
		if got != want {
			t.Errorf("%s %q: missing reports %s, the map %s", typ, data, got, want)
		}
	}
}

var missingCases = []string{
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"d"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":null,"delta":"d"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":"m","delta":"d","delta":null}`,
	`{"type":"TEXT_MESSAGE_CONTENT","messageId":null,"delta":"d","messageId":"m"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","MessageId":"m","delta":"d"}`,
	`{"type":"TEXT_MESSAGE_CONTENT","message\u0049d":"m","delta":"d"}`,
	`{"type":"TOOL_CALL_RESULT","messageId":"m","toolCallId":"t","content":{"a":[1,{"b":null}]}}`,
	`{"type":"RUN_STARTED", "threadId" : "t" ,"runId":"r"}`,
	`{"type":"CUSTOM","name":"n","value":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	`{"type":"SUBAGENT_STARTED","subagentRunId":"s","name":"é"}`,
	`{"type":"SUBAGENT_STARTED","subagentRunId":"s","nämé":"x"}`,
}

// TestMissingAsMap: over the recordings' events and edge cases.
func TestMissingAsMap(t *testing.T) {
	t.Parallel()
	for _, c := range missingCases {
		sameMissing(t, []byte(c))
	}
	for _, file := range eventtest.Corpus(t, corpus, "*.sse") {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, line := range bytes.Split(data, []byte("\n")) {
			if d, ok := bytes.CutPrefix(line, []byte("data:")); ok {
				sameMissing(t, bytes.TrimSpace(d))
			}
		}
	}
}

func FuzzMissingAsMap(f *testing.F) {
	for _, c := range missingCases {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		data = bytes.ToValidUTF8(data, []byte("\uFFFD"))
		if len(data) == 0 || data[0] != '{' {
			return // missing is called on objects only
		}
		sameMissing(t, data)
	})
}
