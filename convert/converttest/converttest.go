// Package converttest helps the tests of packages above convert: it reads a
// recording in the format convert detects and returns its events.
package converttest

import (
	"bufio"
	"bytes"
	"os"
	"testing"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
)

// Recording reads the recording at path, detects its format and returns
// its bytes and the events it decodes to (problems left out).
func Recording(tb testing.TB, path string) ([]byte, []event.Event) {
	tb.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	f, _, err := convert.Detect(bufio.NewReader(bytes.NewReader(data)))
	if err != nil {
		tb.Fatal(err)
	}
	return data, eventtest.Events(eventtest.Collect(f.NewDecoder(bytes.NewReader(data), &format.Options{Source: path})))
}
