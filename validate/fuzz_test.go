package validate

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/jsonenv"
)

// FuzzCheck: any input gives violations, never a panic or a read error,
// at the wire level and through the decoder alike.
func FuzzCheck(f *testing.F) {
	files, _ := filepath.Glob("../testdata/jsonenv/hand-*")
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		if len(b) < 4<<10 {
			f.Add(string(b))
		}
	}
	f.Add(good)
	f.Fuzz(func(t *testing.T, in string) {
		for _, format := range []string{"jsonenv", "jsonenv-events"} {
			_, err := Check(strings.NewReader(in), &Config{
				Source: "in", Format: testFormat(format),
				NewDecoder: func(r io.Reader) event.Decoder { return jsonenv.NewDecoder(r, nil) },
			})
			if err != nil {
				t.Fatalf("%s: %v", format, err)
			}
		}
	})
}
