package verify

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
)

// TestLacksDoc: the table of docs/verify.md lists, for every format read
// (a row may name several), exactly its Lacks.
func TestLacksDoc(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../docs/verify.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := map[string][]string{}
	for _, line := range strings.Split(string(b), "\n") {
		cells := strings.Split(line, "|")
		if len(cells) != 4 {
			continue
		}
		var lacks []string
		for _, c := range strings.Split(cells[2], ",") {
			lacks = append(lacks, strings.Trim(strings.TrimSpace(c), "`"))
		}
		for _, name := range strings.Split(cells[1], ",") {
			doc[strings.TrimSpace(name)] = lacks
		}
	}
	for _, f := range convert.Formats() {
		if f.NewDecoder == nil {
			continue
		}
		var want []string
		for _, c := range f.Lacks {
			want = append(want, string(c))
		}
		got, ok := doc[f.Name]
		if !ok {
			t.Errorf("docs/verify.md has no row for %s: | %s | `%s` |", f.Name, f.Name, strings.Join(want, "`, `"))
			continue
		}
		slices.Sort(want)
		slices.Sort(got)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("docs/verify.md: the row of %s is not its Lacks (-Lacks +doc):\n%s", f.Name, diff)
		}
	}
}
