package xmltools

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/xmltools"
	"github.com/agentstream/agentstream/toolset"
)

func encode(t *testing.T, cfg *Config, evs []event.Event) (string, []string, error) {
	t.Helper()
	var b bytes.Buffer
	var warnings []string
	c := Config{}
	if cfg != nil {
		c = *cfg
	}
	c.Warn = func(err error) { warnings = append(warnings, err.Error()) }
	enc := NewEncoder(&b, &c)
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	err := enc.Close()
	return b.String(), warnings, err
}

func TestEncode(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		cfg      *Config
		in       []event.Event
		want     string
		warnings []string
	}{
		{
			name: "native stream replayed",
			cfg:  &Config{Nonce: "ai-agent-abcd1234"},
			in: []event.Event{
				&event.BlockStart{Kind: event.Thinking},
				&event.Delta{Kind: event.Thinking, Text: "plan"},
				&event.BlockEnd{Kind: event.Thinking},
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "Checking."},
				&event.BlockEnd{Kind: event.Text},
				&event.ToolCall{ID: "toolu_1", Name: "Bash", Input: json.RawMessage(`{"command":"ls"}`)},
				&event.ToolCall{ID: "toolu_2", Name: "Read", Input: json.RawMessage(`{"path":"x"}`)},
				&event.ToolResult{ID: "toolu_1", Content: []event.Part{{Type: "text", Text: "a\nb"}}},
				&event.ToolResult{ID: "toolu_2", IsError: true, Content: []event.Part{{Type: "text", Text: "no x"}}},
				&event.Notice{Kind: "progress", Message: "half", Raw: json.RawMessage(`"half"`)},
				&event.BlockStart{Kind: event.Text},
				&event.Delta{Kind: event.Text, Text: "Two files."},
				&event.BlockEnd{Kind: event.Text},
				&event.TurnEnd{},
				&event.RunEnd{StopReason: "end_turn", Result: "Two files."},
			},
			want: "<think>plan</think>\nChecking.\n" +
				`<ai-agent-abcd1234-0001 tool="Bash">{"command":"ls"}</ai-agent-abcd1234-0001>` + "\n" +
				`<ai-agent-abcd1234-0002 tool="Read">{"path":"x"}</ai-agent-abcd1234-0002>` + "\n" +
				`<ai-agent-abcd1234-0001 tool="Bash" status="ok">` + "\n<request>\n{\"command\":\"ls\"}\n</request>\n<response>\na\nb\n</response>\n</ai-agent-abcd1234-0001>\n" +
				`<ai-agent-abcd1234-0002 tool="Read" status="failed">` + "\n<request>\n{\"path\":\"x\"}\n</request>\n<response>\nno x\n</response>\n</ai-agent-abcd1234-0002>\n" +
				`<ai-agent-abcd1234-PROGRESS tool="agent__progress_report">half</ai-agent-abcd1234-PROGRESS>` + "\n" +
				`<ai-agent-abcd1234-FINAL format="markdown">Two files.</ai-agent-abcd1234-FINAL>`,
			warnings: []string{"xmltools cannot carry turn boundaries and usage"},
		},
		{
			name: "generated nonce and a result that is not the last text",
			in: []event.Event{
				&event.SessionStart{SessionID: "s1"},
				&event.Delta{Kind: event.Text, Text: "hi"},
				&event.BlockEnd{Kind: event.Text},
				&event.RunEnd{IsError: true, Result: "failed badly"},
			},
			want:     "hi\n<ai-agent-" + fnvHex("s1") + `-FINAL status="failure" format="markdown">` + "\nfailed badly\n</ai-agent-" + fnvHex("s1") + "-FINAL>",
			warnings: []string{"xmltools cannot carry session metadata"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, warnings, err := encode(t, tt.cfg, tt.in)
			if err != nil {
				t.Errorf("Close: %v", err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("text (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warnings, warnings); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

func fnvHex(s string) string {
	e := NewEncoder(nil, nil)
	e.seed = s
	return e.nonceFor("")
}

// samples are the decoder's samples that read back alike (cut off or
// invalid ones do not).
var samples = eventtest.TextProtocol{
	Dir: "../../testdata/xmltools",
	Decoder: func(r io.Reader, source string, tools []toolset.Tool) event.Decoder {
		return xmltools.NewDecoder(r, &xmltools.Config{Source: source, Tools: tools})
	},
	Cut: func(name string) bool {
		return strings.Contains(name, "truncated") || strings.Contains(name, "invalid")
	},
}

// TestRoundTrip decodes each sample, encodes the events and decodes the
// text again: the events must not change.
func TestRoundTrip(t *testing.T) {
	t.Parallel()
	samples.RoundTrip(t, samples.Cut, func(t *testing.T, evs []event.Event) (string, error) {
		// The nonce is given: the first tag of a sample may carry no
		// call id to take it from.
		text, _, err := encode(t, &Config{Nonce: "7f3a9c21"}, evs)
		return text, err
	})
}

// BenchmarkEncode encodes the samples' events, repeated to about 1 MB of
// text.
func BenchmarkEncode(b *testing.B) {
	samples.BenchEncode(b, func(w io.Writer) event.Encoder { return NewEncoder(w, &Config{Nonce: "7f3a9c21"}) })
}

// TestIdentity: text laid out as this encoder writes it reads back and is
// written again byte for byte: no newline after the last close tag, no
// status the FINAL tag did not have.
func TestIdentity(t *testing.T) {
	t.Parallel()
	const call = `<ai-agent-7f3a9c21-0001 tool="x">{"a":1}</ai-agent-7f3a9c21-0001>`
	const meta = `<ai-agent-7f3a9c21-META plugin="slack">{"c":1}</ai-agent-7f3a9c21-META>`
	for _, in := range []string{
		"Checking.\n" + call,
		call + "\nthen text",
		call + "\n" + `<ai-agent-7f3a9c21-FINAL format="markdown">Done.</ai-agent-7f3a9c21-FINAL>`,
		`<ai-agent-7f3a9c21-FINAL format="json">` + "\n{}\n" + `</ai-agent-7f3a9c21-FINAL>`,
		`<ai-agent-7f3a9c21-FINAL status="partial" format="md">Half.</ai-agent-7f3a9c21-FINAL>`,
		meta,
		"<think>plan</think>\n" + meta + "\nafter",
	} {
		t.Run(in, func(t *testing.T) {
			t.Parallel()
			var evs []event.Event
			for _, it := range eventtest.Collect(xmltools.NewDecoder(strings.NewReader(in), nil)) {
				if it.Err != "" {
					t.Fatalf("decode: %s", it.Err)
				}
				evs = append(evs, it.Event)
			}
			got, _, err := encode(t, &Config{Nonce: "7f3a9c21"}, evs)
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(in, got); diff != "" {
				t.Errorf("xmltools -> xmltools (-in +out):\n%s", diff)
			}
		})
	}
}
