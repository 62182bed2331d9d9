package validate

import (
	"flag"
	"os"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite the rule table of docs/validate.md")

// ruleTable is the rule table of docs/validate.md, made from Rules.
func ruleTable() string {
	var b strings.Builder
	b.WriteString("| id | name | formats | rule |\n| --- | --- | --- | --- |\n")
	for _, r := range Rules {
		f := "all"
		if r.Formats != nil {
			f = strings.Join(r.Formats, ", ")
		}
		if r.NotFor != nil {
			f += " but " + strings.Join(r.NotFor, ", ")
		}
		b.WriteString("| `" + r.ID + "` | `" + r.Name + "` | " + f + " | " + r.Doc + " |\n")
	}
	return b.String()
}

// TestRulesDocumented: the rule table of docs/validate.md is Rules (go
// test -run TestRulesDocumented -update rewrites it).
func TestRulesDocumented(t *testing.T) {
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
	t.Errorf("the rule table of %s is stale: go test ./validate -run TestRulesDocumented -update", path)
}
