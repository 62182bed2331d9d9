package corpustest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/acp"
	"github.com/agentstream/agentstream/parse/anthropic"
	"github.com/agentstream/agentstream/parse/claude"
	"github.com/agentstream/agentstream/parse/codex"
	"github.com/agentstream/agentstream/parse/gemini"
	"github.com/agentstream/agentstream/parse/geminisession"
	"github.com/agentstream/agentstream/parse/jsonenv"
	"github.com/agentstream/agentstream/parse/opencode"
	"github.com/agentstream/agentstream/parse/xmlstream"
)

// recording is one recorded stream and the format it is in.
type recording struct {
	path string
	f    format.Format
}

// recordings lists every stream of the formats below in ../../../testdata
// and in the shared corpus: the directory names the format; in the
// corpus's sessions/ the file name does (the CLIs' stdout; the session
// logs are another format), and in its gemini/ too (<run>.session.jsonl
// is the session log; gemini-raw-* are the model server's bodies).
func recordings(t testing.TB) []recording {
	t.Helper()
	byDir := map[string]format.Format{
		"jsonenv": jsonenv.Format(), "xml": xmlstream.Format(), "claude": claude.Format(),
		"codex": codex.Format(), "anthropic": anthropic.Format(), "gemini": gemini.Format(),
		"gemini-session": geminisession.Format(), "opencode": opencode.Format(), "acp": acp.Format(),
	}
	var out []recording
	for _, root := range []string{"../../../testdata", "../../../../shared/corpus"} {
		if _, err := os.Stat(root); err != nil {
			continue
		}
		for dir, f := range byDir {
			for _, ext := range []string{"*.sse", "*.jsonl", "*.json"} {
				files, _ := filepath.Glob(filepath.Join(root, dir, ext))
				for _, p := range files {
					base := filepath.Base(p)
					switch {
					case strings.Contains(base, "-raw-") || strings.HasSuffix(base, ".client.jsonl"):
						continue // another format kept beside the folder's (the model's bodies, an ACP client's side)
					case dir != "gemini":
					case strings.Contains(base, ".session."):
						out = append(out, recording{p, byDir["gemini-session"]})
						continue
					}
					out = append(out, recording{p, f})
				}
			}
		}
		files, _ := filepath.Glob(filepath.Join(root, "sessions", "*.jsonl"))
		for _, p := range files {
			base := filepath.Base(p)
			switch {
			case strings.Contains(base, ".session"):
			case strings.HasPrefix(base, "claude-"):
				out = append(out, recording{p, byDir["claude"]})
			case strings.HasPrefix(base, "codex-"):
				out = append(out, recording{p, byDir["codex"]})
			}
		}
	}
	if len(out) == 0 {
		t.Fatal("no recordings found")
	}
	return out
}

// decoded is what a decoder made of an input: the assembled blocks and
// the problems, ErrWarning excluded.
type decoded struct {
	blocks   []*assemble.Block
	problems []error
}

func decode(t testing.TB, f format.Format, name string, in []byte) decoded {
	t.Helper()
	dec := f.NewDecoder(bytes.NewReader(in), &format.Options{Source: name})
	a := assemble.New(0)
	var d decoded
	for range 10*len(in) + 100 {
		ev, err := dec.Next()
		if err == io.EOF {
			d.blocks = append(d.blocks, a.Flush()...)
			return d
		}
		if err != nil {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("%s: not a positioned error: %v", name, err)
			}
			if !errors.Is(err, event.ErrWarning) {
				d.problems = append(d.problems, err)
			}
			continue
		}
		bs, err := a.Add(ev)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		d.blocks = append(d.blocks, bs...)
	}
	t.Fatalf("%s: the decoder does not end", name)
	return d
}

// texts returns the text of the text and thinking blocks per agent and
// kind, in order.
func texts(bs []*assemble.Block) map[string][]string {
	m := map[string][]string{}
	for _, b := range bs {
		if b.Type == assemble.TypeText || b.Type == assemble.TypeThinking {
			k := b.Agent + "\x00" + b.Type
			m[k] = append(m[k], b.Text)
		}
	}
	return m
}

// TestTruncatedRecordings cuts every recording at 20 offsets (seeded, so
// the same offsets every run) and checks what the decoder makes of the
// prefix: a cut inside a line is reported (a truncation or a positioned
// problem), and nothing is invented: each text and thinking block of the
// prefix is a prefix of the same block of the whole stream.
func TestTruncatedRecordings(t *testing.T) {
	t.Parallel()
	for _, rec := range recordings(t) {
		name := filepath.Base(filepath.Dir(rec.path)) + "/" + filepath.Base(rec.path)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			in, err := os.ReadFile(rec.path)
			if err != nil {
				t.Fatal(err)
			}
			if len(in) < 2 {
				t.Skip("too short to cut")
			}
			full := texts(decode(t, rec.f, name, in).blocks)
			rng := rand.New(rand.NewPCG(uint64(len(in)), 12))
			for range 20 {
				cut := 1 + rng.IntN(len(in)-1)
				got := decode(t, rec.f, name, in[:cut])
				// A cut at a line end (before or after it) leaves whole
				// units: without an end marker it cannot be told from a
				// stream that ended there, unless a block is open.
				atEnd := strings.ContainsRune("\r\n", rune(in[cut-1])) || strings.ContainsRune("\r\n", rune(in[cut]))
				if !atEnd && len(got.problems) == 0 {
					t.Errorf("cut at %d of %d (inside a line): no truncation or problem reported", cut, len(in))
				}
				for k, ts := range texts(got.blocks) {
					agent, kind, _ := strings.Cut(k, "\x00")
					for i, s := range ts {
						if i >= len(full[k]) {
							t.Errorf("cut at %d: %s block %d of agent %q is not in the whole stream: %q", cut, kind, i, agent, clip(s))
							continue
						}
						if !strings.HasPrefix(full[k][i], s) {
							t.Errorf("cut at %d: %s block %d of agent %q is not a prefix of the whole block:\n got %q\nwhole %q",
								cut, kind, i, agent, clip(s), clip(full[k][i]))
						}
					}
				}
			}
		})
	}
}

func clip(s string) string {
	if len(s) > 200 {
		return s[:100] + fmt.Sprintf("…(%d bytes)…", len(s)-200) + s[len(s)-100:]
	}
	return s
}
