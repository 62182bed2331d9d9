package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestWriteRepeatedRenumbersIDs(t *testing.T) {
	tests := []struct {
		name string
		unit string
		want []string // the first two copies
	}{{
		name: "prefixed ids, keys left alone",
		unit: `{"id":"msg_01A","call_id":"call_7","tool_use_id":"toolu_9","text":"msg_ in text"}` + "\n",
		want: []string{
			`{"id":"msg_0z01A","call_id":"call_0z7","tool_use_id":"toolu_0z9","text":"msg_ in text"}` + "\n",
			`{"id":"msg_1z01A","call_id":"call_1z7","tool_use_id":"toolu_1z9","text":"msg_ in text"}` + "\n",
		},
	}, {
		name: "uuids keep their length",
		unit: `{"session_id":"0000000a-1111-2222-3333-444444444444"}` + "\n",
		want: []string{
			`{"session_id":"0000000a-1111-2222-3333-444444444444"}` + "\n",
			`{"session_id":"9e3779bb-1111-2222-3333-444444444444"}` + "\n",
		},
	}, {
		name: "unprefixed and vendor-prefixed values of id keys",
		unit: `{"toolCallId":"t1","tool_id":"read_file__read_file_5"}` + "\n",
		want: []string{
			`{"toolCallId":"0zt1","tool_id":"read_0zfile__read_file_5"}` + "\n",
			`{"toolCallId":"1zt1","tool_id":"read_1zfile__read_file_5"}` + "\n",
		},
	}, {
		name: "ids inside escaped JSON and XML attributes",
		unit: `data: {"delta":"{\"id\": \"toolu_1\"}"}` + "\n" + `data: <x id="srvtoolu_2" d="&quot;msg_3&quot;">` + "\n",
		want: []string{
			`data: {"delta":"{\"id\": \"toolu_0z1\"}"}` + "\n" + `data: <x id="srvtoolu_0z2" d="&quot;msg_0z3&quot;">` + "\n",
			`data: {"delta":"{\"id\": \"toolu_1z1\"}"}` + "\n" + `data: <x id="srvtoolu_1z2" d="&quot;msg_1z3&quot;">` + "\n",
		},
	}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "in")
			size := int64(len(tt.want[0]) + 1) // just over one copy: two copies
			if err := writeRepeated(path, unit{text: []byte(tt.unit)}, size); err != nil {
				t.Fatal(err)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want := []byte(tt.want[0] + tt.want[1])
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("copies (-want +got):\n%s", diff)
			}
		})
	}
}

func TestWriteRepeatedDoneOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "in")
	u := unit{text: []byte("data: {\"a\":1}\n\n"), done: true}
	if err := writeRepeated(path, u, 40); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(got, []byte(doneMarker)); n != 1 || !bytes.HasSuffix(got, []byte(doneMarker)) {
		t.Errorf("[DONE] %d times, at the end: %v:\n%s", n, bytes.HasSuffix(got, []byte(doneMarker)), got)
	}
}

func TestDataLines(t *testing.T) {
	dir := t.TempDir()
	in, out := filepath.Join(dir, "in.sse"), filepath.Join(dir, "out.jsonl")
	sse := "event: a\ndata: {\"x\":1}\n\ndata:{\"y\":2}\n\n: comment\ndata: [DONE]\n\n"
	if err := os.WriteFile(in, []byte(sse), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := dataLines(in, out); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("{\"x\":1}\n{\"y\":2}\n", string(got)); diff != "" {
		t.Errorf("data lines (-want +got):\n%s", diff)
	}
}
