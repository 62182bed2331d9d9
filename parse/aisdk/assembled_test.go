package aisdk

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/assemble/assembletest"
)

// sdkResult is one line of testdata/assembled/<version>.jsonl: what the
// ai package's own client (DefaultChatTransport's chunk validation read
// through readUIMessageStream) made of the recording file.
type sdkResult struct {
	File    string `json:"file"`
	Message struct {
		ID       string           `json:"id"`
		Metadata json.RawMessage  `json:"metadata"`
		Role     string           `json:"role"`
		Parts    []map[string]any `json:"parts"`
	} `json:"message"`
	Errors []string `json:"errors"`
}

// TestAssembledAsTheSDK: every recording of the ai 5.x and 7.x corpus
// assembles to the message the SDK's client built of it: its text,
// reasoning, tool and data parts in order, one step per turn, its errors,
// id and metadata.
func TestAssembledAsTheSDK(t *testing.T) {
	t.Parallel()
	refs, _ := filepath.Glob("testdata/assembled/*.jsonl")
	if len(refs) == 0 {
		t.Fatal("no reference files")
	}
	n := 0
	for _, ref := range refs {
		version := strings.TrimSuffix(filepath.Base(ref), ".jsonl")
		b, err := os.ReadFile(ref)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			var want sdkResult
			if err := json.Unmarshal(sc.Bytes(), &want); err != nil {
				t.Fatal(err)
			}
			n++
			path := filepath.Join("../../testdata/aisdk", version+"-"+want.File)
			t.Run(version+"/"+want.File, func(t *testing.T) {
				t.Parallel()
				in, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				blocks := assembletest.Blocks(t, NewDecoder(bytes.NewReader(in), &Config{Source: path}))
				got := messageOf(t, blocks)
				var wantParts []any
				steps := 0
				for _, p := range want.Message.Parts {
					if p["type"] == "step-start" {
						steps++
						continue
					}
					if p["type"] == "reasoning" {
						delete(p, "id") // 7.x keeps the part id, which the blocks do not
					}
					wantParts = append(wantParts, any(p))
				}
				if diff := cmp.Diff(wantParts, got.parts); diff != "" {
					t.Errorf("parts (-sdk +assembled):\n%s", diff)
				}
				if got.steps != steps {
					t.Errorf("%d turn ends, the SDK made %d steps", got.steps, steps)
				}
				if diff := cmp.Diff(want.Errors, got.errors); diff != "" {
					t.Errorf("errors (-sdk +assembled):\n%s", diff)
				}
				if got.id != want.Message.ID {
					t.Errorf("message id %q, the SDK's %q", got.id, want.Message.ID)
				}
				if diff := cmp.Diff(jsonValue(t, want.Message.Metadata), got.metadata); diff != "" {
					t.Errorf("metadata (-sdk +assembled):\n%s", diff)
				}
			})
		}
	}
	if n != 10 {
		t.Errorf("%d reference messages, want the corpus's 10", n)
	}
}

// message is what the SDK's client builds of a stream, rebuilt from the
// assembled blocks the way processUIMessageStream builds a UIMessage.
type message struct {
	id       string
	metadata any
	parts    []any
	steps    int
	errors   []string
}

func jsonValue(t *testing.T, raw json.RawMessage) any {
	t.Helper()
	if len(raw) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func messageOf(t *testing.T, blocks []*assemble.Block) message {
	t.Helper()
	var m message
	tools := map[string]map[string]any{}
	meta := func(raw json.RawMessage) {
		var c struct {
			MessageID       *string         `json:"messageId"`
			MessageMetadata json.RawMessage `json:"messageMetadata"`
		}
		if err := json.Unmarshal(raw, &c); err != nil {
			t.Fatal(err)
		}
		if c.MessageID != nil {
			m.id = *c.MessageID
		}
		if v, ok := jsonValue(t, c.MessageMetadata).(map[string]any); ok {
			if m.metadata == nil {
				m.metadata = map[string]any{}
			}
			for k, x := range v {
				m.metadata.(map[string]any)[k] = x
			}
		}
	}
	for _, b := range blocks {
		switch b.Type {
		case assemble.TypeMetaInit, assemble.TypeMetaFinal:
			meta(b.Raw)
		case assemble.TypeTurnEnd:
			m.steps++
		case assemble.TypeText:
			m.parts = append(m.parts, map[string]any{"type": "text", "text": b.Text, "state": "done"})
		case assemble.TypeThinking:
			m.parts = append(m.parts, map[string]any{"type": "reasoning", "text": b.Text, "state": "done"})
		case assemble.TypeToolCall:
			p := map[string]any{"type": "tool-" + b.Name, "toolCallId": b.ID, "state": "input-available", "input": jsonValue(t, b.Input)}
			tools[b.ID] = p
			m.parts = append(m.parts, p)
		case assemble.TypeToolResult:
			p := tools[b.ID]
			if p == nil {
				t.Fatalf("tool result %q before its call", b.ID)
			}
			switch {
			case b.IsError:
				p["state"], p["errorText"] = "output-error", *b.Content
			case b.Structured != nil:
				p["state"], p["output"] = "output-available", jsonValue(t, b.Structured)
			default:
				p["state"], p["output"] = "output-available", *b.Content
			}
		case assemble.TypeError:
			m.errors = append(m.errors, "Error: "+b.Text)
		case assemble.TypeUnknown:
			var c map[string]any
			if err := json.Unmarshal(b.Raw, &c); err != nil {
				t.Fatal(err)
			}
			typ, _ := c["type"].(string)
			if !strings.HasPrefix(typ, "data-") || c["transient"] == true {
				continue
			}
			// A data part with the id of one before it replaces its data.
			replaced := false
			for _, q := range m.parts {
				q := q.(map[string]any)
				if c["id"] != nil && q["type"] == typ && q["id"] == c["id"] {
					q["data"], replaced = c["data"], true
				}
			}
			if !replaced {
				m.parts = append(m.parts, any(c))
			}
		}
	}
	if m.errors == nil {
		m.errors = []string{}
	}
	return m
}
