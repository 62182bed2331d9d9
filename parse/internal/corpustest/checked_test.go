package corpustest

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/internal/fuzzcheck"
)

// TestPayloadNotes: what a decoder notes of a payload (event.Checked),
// that it is valid JSON or valid, compact JSON, is true, on every
// recording in testdata and in the shared corpus, each read by every
// decoder (a note must be true whatever the input). The decoders that note
// payloads note some there.
func TestPayloadNotes(t *testing.T) {
	t.Parallel()
	var files []string
	for _, root := range []string{"../../../testdata", "../../../../shared/corpus"} {
		_ = filepath.WalkDir(root, func(path string, e fs.DirEntry, err error) error {
			switch filepath.Ext(path) {
			case ".sse", ".jsonl", ".json":
				if err == nil && !e.IsDir() {
					files = append(files, path)
				}
			}
			return nil
		})
	}
	if len(files) < 100 {
		t.Fatalf("%d recordings found", len(files))
	}
	for _, f := range convert.Formats() {
		t.Run(f.Name, func(t *testing.T) {
			t.Parallel()
			n := 0
			for _, path := range files {
				in, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				for ev, err := range events(f.NewDecoder(bytes.NewReader(in), &format.Options{Source: path})) {
					if err != nil {
						continue
					}
					noted, err := fuzzcheck.Notes(ev)
					if err != nil {
						t.Errorf("%s: %v", path, err)
					}
					if noted {
						n++
					}
				}
			}
			switch f.Name {
			case "aisdk", "gemini", "acp", "opencode", "claude", "codex":
				if n == 0 {
					t.Error("no payload noted")
				}
			}
		})
	}
}

// TestNotesCatch: fuzzcheck.Notes finds a note that is not true.
func TestNotesCatch(t *testing.T) {
	t.Parallel()
	spaced, compact, bad := json.RawMessage(`{"a": 1}`), json.RawMessage(`{"a":1}`), json.RawMessage(`{"a":`)
	tests := []struct {
		ev   event.Event
		want bool // an error
	}{
		{&event.ToolCall{Input: spaced, Checked: event.ValidJSON(spaced)}, false},
		{&event.ToolCall{Input: compact, Checked: event.CompactJSON(compact)}, false},
		{&event.ToolCall{Input: spaced, Checked: event.CompactJSON(spaced)}, true},
		{&event.ToolCall{Input: bad, Checked: event.ValidJSON(bad)}, true},
		{&event.Unknown{Raw: bad, Checked: event.ValidJSON(bad)}, true},
		{&event.RunEnd{Meta: bytes.Clone(compact), Checked: event.CompactJSON(compact)}, true}, // a note of no payload
		{&event.RunEnd{Meta: bad}, false},
	}
	for i, tt := range tests {
		if _, err := fuzzcheck.Notes(tt.ev); (err != nil) != tt.want {
			t.Errorf("%d: Notes(%T) = %v, want an error: %v", i, tt.ev, err, tt.want)
		}
	}
}
