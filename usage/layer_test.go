package usage_test

import (
	"go/build"
	"strings"
	"testing"
)

// TestLayer: package usage reads events only; no format's package is
// below it (a format's per-model totals reach it as RunEnd.Models).
func TestLayer(t *testing.T) {
	t.Parallel()
	pkg, err := build.ImportDir(".", 0)
	if err != nil {
		t.Fatal(err)
	}
	const module = "github.com/agentstream/agentstream/"
	for _, imp := range pkg.Imports {
		rest, ok := strings.CutPrefix(imp, module)
		if !ok {
			continue
		}
		if top, _, _ := strings.Cut(rest, "/"); top != "event" && top != "internal" {
			t.Errorf("package usage imports %s; it may import only event and internal packages", imp)
		}
	}
}
