package validate

import (
	"flag"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/format"
)

var update = flag.Bool("update", false, "rewrite the rule table of docs/validate.md")

// ruleTable is the rule table of docs/validate.md, made from Rules and
// the rules of every format in convert's table.
func ruleTable() string {
	var b strings.Builder
	b.WriteString("| id | name | formats | rule |\n| --- | --- | --- | --- |\n")
	row := func(r format.Rule, formats string) {
		b.WriteString("| `" + r.ID + "` | `" + r.Name + "` | " + formats + " | " + r.Doc + " |\n")
	}
	for _, r := range Rules() {
		var skip []string
		for _, f := range convert.Formats() {
			if f.NewDecoder != nil && slices.Contains(f.Skips, r.ID) {
				skip = append(skip, f.Name)
			}
		}
		formats := "all"
		if skip != nil {
			formats += " but " + strings.Join(skip, ", ")
		}
		row(r, formats)
	}
	var order []format.Rule
	users := map[string][]string{}
	for _, f := range convert.Formats() {
		for _, r := range f.Rules {
			if users[r.ID] == nil {
				order = append(order, r)
			}
			users[r.ID] = append(users[r.ID], f.Name)
		}
	}
	for _, r := range order {
		row(r, strings.Join(users[r.ID], ", "))
	}
	return b.String()
}

// TestRulesDoc: the rule table of docs/validate.md is Rules (go
// test -run TestRulesDoc -update rewrites it).
func TestRulesDoc(t *testing.T) {
	const path = "../docs/validate.md"
	doc, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(doc)
	start := strings.Index(s, "| id | name | formats | rule |\n")
	end := start + strings.Index(s[max(start, 0):], "\n\n") + 1
	if start < 0 || end <= start {
		t.Fatalf("%s has no rule table", path)
	}
	want := ruleTable()
	if s[start:end] == want {
		return
	}
	if *update {
		if err := os.WriteFile(path, []byte(s[:start]+want+s[end:]), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Errorf("the rule table of %s is stale: go test ./validate -run TestRulesDoc -update", path)
}
