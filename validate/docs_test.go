package validate

import (
	"os"
	"strings"
	"testing"
)

// TestRulesDocumented: docs/validate.md has a row for every rule.
func TestRulesDocumented(t *testing.T) {
	t.Parallel()
	doc, err := os.ReadFile("../docs/validate.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range Rules {
		row := "| `" + r.ID + "` | `" + r.Name + "` | "
		if !strings.Contains(string(doc), row) {
			t.Errorf("docs/validate.md has no row %q", row)
		}
		if r.Doc == "" {
			t.Errorf("rule %s has no doc line", r.ID)
		}
	}
}
