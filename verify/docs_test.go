package verify

import (
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
)

var update = flag.Bool("update", false, "rewrite docs/verify.md's table of what each format lacks")

// lacksTable is the table of docs/verify.md: a row for every format read,
// in the format table's order, with its Lacks.
func lacksTable() string {
	var b strings.Builder
	b.WriteString("| format | lacks |\n| --- | --- |\n")
	for _, f := range convert.Formats() {
		if f.NewDecoder == nil {
			continue
		}
		var lacks []string
		for _, c := range f.Lacks {
			lacks = append(lacks, "`"+string(c)+"`")
		}
		b.WriteString("| " + f.Name + " | " + strings.Join(lacks, ", ") + " |\n")
	}
	return b.String()
}

// TestLacksDoc: the table of docs/verify.md lists, for every format read,
// exactly its Lacks; `go test ./verify -run TestLacksDoc -update` (make
// docs) writes it, so that adding a format touches no hand-kept row.
func TestLacksDoc(t *testing.T) {
	const path = "../docs/verify.md"
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	start := strings.Index(doc, "| format | lacks |\n")
	if start < 0 {
		t.Fatal("docs/verify.md has no table headed | format | lacks |")
	}
	end := strings.Index(doc[start:], "\n\n")
	if end < 0 {
		end = len(doc) - start
	} else {
		end++ // keep the table's last line end
	}
	got, want := doc[start:start+end], lacksTable()
	if *update {
		if err := os.WriteFile(path, []byte(doc[:start]+want+doc[start+end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("docs/verify.md's table is not the formats' Lacks (run make docs) (-want +got):\n%s", diff)
	}
}
