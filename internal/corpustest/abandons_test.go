package corpustest

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// TestAbandonsDeclared: a format whose reader gives an abandoned message
// (event.NoticeAbandoned) says it can (format.Format.Abandons), or
// convert.AbandonHold would pass what it gives up on as content. Over
// every recording, the retry recordings of convert/testdata/abandoned,
// and what every encoder writes of those read back by its own reader.
func TestAbandonsDeclared(t *testing.T) {
	t.Parallel()
	recs := recordings(t)
	for _, name := range []string{"claude-retry.jsonl", "anthropic-retry.sse"} {
		path := filepath.Join("../../convert/testdata/abandoned", name)
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		from, _ := convert.Lookup("claude")
		if filepath.Ext(name) == ".sse" {
			from, _ = convert.Lookup("anthropic")
		}
		recs = append(recs, recording{path, from, data})
		for _, to := range convert.Formats() {
			if to.NewEncoder == nil || to.NewDecoder == nil {
				continue
			}
			var out bytes.Buffer
			enc := to.NewEncoder(&out, &format.Options{}) // no hold: every abandon reaches the encoder
			if err := convert.Pipe(from.NewDecoder(bytes.NewReader(data), &format.Options{}), enc, nil); err != nil {
				t.Fatal(err)
			}
			_ = enc.Close()
			recs = append(recs, recording{path + " -> " + to.Name, to, out.Bytes()})
		}
	}
	seen := 0
	for _, rec := range recs {
		dec := rec.f.NewDecoder(bytes.NewReader(rec.data), &format.Options{})
		for {
			ev, err := dec.Next()
			if err == io.EOF {
				break
			}
			var perr *event.ParseError
			if err != nil && !errors.As(err, &perr) {
				break
			}
			if n, ok := ev.(*event.Notice); ok && err == nil && n.Kind == event.NoticeAbandoned {
				seen++
				if !rec.f.Abandons {
					t.Errorf("%s: %s gives an abandoned message, but its Format says it cannot (Abandons)", rec.path, rec.f.Name)
				}
				break
			}
		}
	}
	if seen < 4 {
		t.Fatalf("%d inputs give an abandoned message: the test tests too little", seen)
	}
}
