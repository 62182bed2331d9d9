package codex

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
)

func lineSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../testdata/codex/*.jsonl")
	var seeds [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			seeds = append(seeds, bytes.Clone(sc.Bytes()))
		}
	}
	for _, s := range []string{
		`{"type":"item.completed","item":{"id":"a","type":"command_execution","command":"ls","exit_code":1,"exit_code":null,"status":"completed"}}`,
		`{"type":"item.completed","item":{"id":"a","type":"agent_message","text":"x\u00e9\ud800","id":"b"}}`,
		`{"type":"item.completed","item":{"id":"a","type":"command_execution","exit_code":1.5}}`,
		`{"type":"turn.completed","usage":{"input_tokens":5,"output_tokens":null,"other":[1]}}`,
		`{"type":"error","message":"boom","message":null}`,
		`{"type":"item.started","item":"x"}`,
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// compareLine checks that what the one-pass reader decodes is what
// json.Unmarshal gives (the item included), and reports whether it
// decoded data.
func compareLine(t *testing.T, data []byte) bool {
	t.Helper()
	var d Decoder
	var got Line
	d.jr.Reset(data)
	if !d.readLineFields(&d.jr, &got) || !d.jr.End() {
		return false
	}
	var want Line
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: one pass decodes what json.Unmarshal refuses: %v", data, err)
	}
	if got.itemOK {
		var wi Item
		if err := json.Unmarshal(want.Item, &wi); err != nil {
			t.Fatalf("%s: item decoded in one pass, json.Unmarshal says %v", data, err)
		}
		if diff := cmp.Diff(wi, got.item); diff != "" {
			t.Errorf("%s: item differs (-json +one pass):\n%s", data, diff)
		}
	}
	got.item, got.itemOK = Item{}, false
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(Line{})); diff != "" {
		t.Errorf("%s: differs (-json +one pass):\n%s", data, diff)
	}
	return true
}

func TestReadLineSeeds(t *testing.T) {
	t.Parallel()
	fast := 0
	for _, s := range lineSeeds(t) {
		if compareLine(t, s) {
			fast++
		}
	}
	if fast < 20 {
		t.Errorf("only %d lines decoded in one pass", fast)
	}
}

func FuzzReadLine(f *testing.F) {
	for _, s := range lineSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compareLine(t, data) })
}

// TestReadLineKnowsEveryField: a field added to Line must be read by
// readLineFields too, which would otherwise skip it (Item's reader fails
// on any field it does not know, which is safe).
func TestReadLineKnowsEveryField(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("read.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{Line{}, Usage{}} {
		for _, name := range jsontext.FieldNames(v) {
			if !bytes.Contains(src, []byte(`case "`+name+`"`)) {
				t.Errorf("%T field %q is not read by read.go", v, name)
			}
		}
	}
}
