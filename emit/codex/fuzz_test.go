package codex

import (
	"bytes"
	"errors"
	"io"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	parse "github.com/agentstream/agentstream/parse/codex"
)

// FuzzRoundTrip: whatever the decoder makes of an input, the encoder
// writes lines the decoder reads without a syntax problem, and a second
// pass through both changes nothing.
func FuzzRoundTrip(f *testing.F) {
	for _, file := range samples(f, "*.jsonl") {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		once := pass(t, data)
		twice := pass(t, once)
		if diff := cmp.Diff(string(once), string(twice)); diff != "" {
			t.Fatalf("a second pass changed the output (-first +second):\n%s", diff)
		}
	})
}

// pass decodes data, skipping problems, and encodes what it read.
func pass(t *testing.T, data []byte) []byte {
	d := parse.NewDecoder(bytes.NewReader(data), &parse.Config{MaxEventBytes: 4096})
	var out bytes.Buffer
	e := NewEncoder(&out, nil)
	for {
		ev, err := d.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				t.Fatal(err)
			}
			continue
		}
		if err := e.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	e.Close()
	return out.Bytes()
}
