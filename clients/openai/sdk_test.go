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
}

// TestSDK converts every corpus run to both OpenAI formats and has the
// SDK read them back. It needs node on PATH and the openai npm package
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
		paths, _ := filepath.Glob(filepath.Join("../../testdata", f.Name, "*"))
		for _, p := range paths {
			base := filepath.Base(p)
			switch filepath.Ext(p) {
			case ".sse", ".jsonl", ".txt":
			default:
				continue
			}
			if strings.Contains(base, "hand-bad") || strings.Contains(base, "truncated") || strings.Contains(base, "framing") {
				continue // inputs cut off or broken on purpose
			}
			in, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			name := f.Name + "/" + base
			expected := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+".expected.jsonl")
			if err := os.WriteFile(expected, assembleJSON(t, f, in), 0o644); err != nil {
				t.Fatal(err)
			}
			for _, to := range []string{"openai-chat", "openai-responses"} {
				tf, _ := convert.Lookup(to)
				var out bytes.Buffer
				enc := tf.NewEncoder(&out, &format.Options{})
				dec := f.NewDecoder(bytes.NewReader(in), &format.Options{Source: p})
				if err := convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(error) bool { return true }}); err != nil {
					t.Fatalf("%s to %s: %v", p, to, err)
				}
				if err := enc.Close(); err != nil {
					t.Fatalf("%s to %s: close: %v", p, to, err)
				}
				output := filepath.Join(dir, strings.ReplaceAll(name, "/", "_")+"."+to+".sse")
				if err := os.WriteFile(output, out.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
				runs = append(runs, run{Name: name, Format: to, Output: output, Expected: expected})
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
