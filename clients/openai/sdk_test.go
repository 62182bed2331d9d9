// Package sdk_test runs the official openai Node SDK's stream parsers over
// agentstream's openai-chat and openai-responses output (sdk_check.mjs).
package sdk_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/render"
)

type run struct {
	Name     string `json:"name"`
	Format   string `json:"format"`
	Output   string `json:"output"`
	Expected string `json:"expected"`
	// Cut: the input was cut off inside a turn (its decoder reported a
	// truncation after content of the turn), and the SDK must reject our
	// output as it rejects a cut body. A cut after a turn's end leaves
	// whole bodies, which the SDK cannot tell from a run's (the chat
	// body lacks its [DONE], which the SDK does not need).
	Cut bool `json:"cut"`
	// Original is the input itself when it is a body of Format: the SDK's
	// reading of it is what ours must give.
	Original string `json:"original,omitempty"`
}

// TestSDK converts every corpus run to both OpenAI formats and has the
// SDK read them back: content, usage, finish reasons and statuses, errors
// and whether the SDK rejects the body (a cut input must be rejected)
// are compared with the source (sdk_check.mjs). It needs node on PATH and the openai npm package
// in $OPENAI_SDK_DIR (make test-sdk installs it).
func TestSDK(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the openai SDK check needs it (make test-sdk)")
	}
	sdk := os.Getenv("OPENAI_SDK_DIR")
	if sdk == "" {
		t.Skip("OPENAI_SDK_DIR is not set: run make test-sdk, which installs the openai npm package")
	}
	if _, err := os.Stat(filepath.Join(sdk, "package.json")); err != nil {
		t.Fatalf("OPENAI_SDK_DIR %s holds no package: %v", sdk, err)
	}
	dir := t.TempDir()
	var runs []run
	for _, f := range convert.Formats() {
		if f.NewDecoder == nil {
			continue
		}
		var paths []string
		for _, root := range []string{"../../testdata", "../../../shared/corpus"} {
			ps, _ := filepath.Glob(filepath.Join(root, f.Name, "*"))
			paths = append(paths, ps...)
		}
		if f.Name == "openai-chat" || f.Name == "openai-responses" {
			// The corpus keeps both OpenAI bodies in one folder.
			ps, _ := filepath.Glob("../../../shared/corpus/openai/*")
			paths = append(paths, ps...)
		}
		for _, p := range paths {
			base := filepath.Base(p)
			switch filepath.Ext(p) {
			case ".sse", ".jsonl", ".txt":
			default:
				continue
			}
			if strings.Contains(base, "hand-bad") && !strings.Contains(base, "truncated") || strings.Contains(base, "framing") {
				continue // inputs broken on purpose (cut ones are read: a cut stays a cut)
			}
			in, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			if got, _, err := convert.Detect(bufio.NewReader(bytes.NewReader(in))); err != nil || got.Name != f.Name {
				continue // another format's file in the folder
			}
			name := f.Name + "/" + base
			if strings.Contains(p, "shared/corpus") {
				name = "corpus/" + name
			}
			expected := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".expected.jsonl")
			if err := os.WriteFile(expected, assembleJSON(t, f, in), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, to := range []string{"openai-chat", "openai-responses"} {
				tf, _ := convert.Lookup(to)
				var out bytes.Buffer
				enc := tf.NewEncoder(&out, &format.Options{})
				dec := &lastEvent{d: f.NewDecoder(bytes.NewReader(in), &format.Options{Source: p})}
				cut, midTurn := false, false
				if err := convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(err error) bool {
					if errors.Is(err, event.ErrTruncated) {
						cut = true
						switch dec.last.(type) {
						case *event.TurnEnd, *event.RunEnd, *event.Error, nil:
						default:
							midTurn = true
						}
					}
					return true
				}}); err != nil {
					t.Fatalf("%s to %s: %v", p, to, err)
				}
				if err := event.End(enc, cut); err != nil && !cut {
					t.Fatalf("%s to %s: close: %v", p, to, err)
				}
				output := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+"."+to+".sse")
				if err := os.WriteFile(output, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				r := run{Name: name, Format: to, Output: output, Expected: expected, Cut: midTurn}
				if f.Name == to {
					r.Original, _ = filepath.Abs(p)
				}
				runs = append(runs, r)
			}
		}
	}
	manifest := filepath.Join(dir, "manifest.json")
	b, _ := json.Marshal(runs)
	if err := os.WriteFile(manifest, b, 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "sdk_check.mjs", manifest)
	cmd.Env = append(os.Environ(), "OPENAI_SDK_DIR="+sdk)
	out, err := cmd.CombinedOutput()
	t.Logf("%s", out)
	if err != nil {
		t.Fatalf("the openai SDK did not read our output back: %v", err)
	}
	if !bytes.Contains(out, []byte(" runs read by the openai SDK, 0 failures")) || len(runs) == 0 {
		t.Fatal("the check reported nothing")
	}
}

// lastEvent is a decoder that remembers the last event it gave.
type lastEvent struct {
	d    event.Decoder
	last event.Event
}

func (l *lastEvent) Next() (event.Event, error) {
	ev, err := l.d.Next()
	if err == nil {
		l.last = ev
	}
	return ev, err
}

// assembleJSON is `agentstream assemble -o json` of in.
func assembleJSON(t *testing.T, f convert.Format, in []byte) []byte {
	t.Helper()
	dec := f.NewDecoder(bufio.NewReader(bytes.NewReader(in)), &format.Options{})
	asm := assemble.New(0)
	var out bytes.Buffer
	j := render.NewJSON(&out)
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		var perr *event.ParseError
		if errors.As(err, &perr) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		bs, err := asm.Add(ev)
		if err != nil {
			t.Fatal(err)
		}
		for _, b := range bs {
			j.Block(b)
		}
	}
	for _, b := range asm.Flush() {
		j.Block(b)
	}
	return out.Bytes()
}
