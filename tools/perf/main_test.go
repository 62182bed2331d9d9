package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
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

// TestLoadUnitsRenumbersRecordings: two recordings of one producer that
// share ids (a scripted server gives every run the same message id) are
// told apart in the unit, so that a decoder reads the unit as separate
// runs rather than as one message started twice; copies of the unit are
// told apart again, on top.
func TestLoadUnitsRenumbersRecordings(t *testing.T) {
	corpus := t.TempDir()
	for _, s := range sources { // every source needs a recording
		f := filepath.Join(corpus, strings.ReplaceAll(s.corpus[0], "*", "x"))
		if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(f, []byte("{}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(corpus, "claude")
	if err := os.Remove(filepath.Join(dir, "x.jsonl")); err != nil {
		t.Fatal(err)
	}
	rec := `{"session_id":"0000000a-1111-2222-3333-444400000001","message":{"id":"msg_01A"}}` + "\n"
	for _, name := range []string{"a.jsonl", "b.jsonl"} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(rec), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	units, err := loadUnits(corpus, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	want := `{"session_id":"0000000a-1111-2222-3333-444400000001","message":{"id":"msg_0y01A"}}` + "\n" +
		`{"session_id":"0000000a-1111-2222-3333-44449e3779b2","message":{"id":"msg_1y01A"}}` + "\n"
	if diff := cmp.Diff(want, string(units["claude"].text)); diff != "" {
		t.Fatalf("unit (-want +got):\n%s", diff)
	}
	path := filepath.Join(t.TempDir(), "in")
	if err := writeRepeated(path, units["claude"], int64(len(want)+len("0z0z")+1)); err != nil { // two copies
		t.Fatal(err)
	}
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	second := `{"session_id":"9e3779bb-1111-2222-3333-444400000001","message":{"id":"msg_1z0y01A"}}` + "\n" +
		`{"session_id":"9e3779bb-1111-2222-3333-44449e3779b2","message":{"id":"msg_1z1y01A"}}` + "\n"
	if !bytes.HasSuffix(got, []byte(second)) {
		t.Errorf("second copy: got\n%s\nwant it to end with\n%s", got, second)
	}
}
