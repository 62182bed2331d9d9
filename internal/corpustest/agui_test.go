package corpustest

import (
	"slices"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/verify"
)

// TestToAGUI: every recording converted to AG-UI carries the same content
// as the recording, given what AG-UI lacks, but for two things
// docs/formats/agui.md lists: a server tool result's own type, which reads
// back as its call's name, and a run end that failed without an error
// event, which reads back with one (AG-UI's only failed run is RUN_ERROR,
// an error with a message).
func TestToAGUI(t *testing.T) {
	t.Parallel()
	to, ok := convert.Lookup("agui")
	if !ok {
		t.Fatal("no format agui")
	}
	for _, rec := range recordings(t) {
		t.Run(rec.path, func(t *testing.T) {
			t.Parallel()
			a := side(t, rec.path, rec.data, rec.f)
			b := side(t, "agui", convertTo(t, rec.data, rec.f, to), to)
			server := slices.ContainsFunc(a.Blocks, func(b *assemble.Block) bool { return b.Type == assemble.TypeServerToolResult })
			failedEnd := slices.ContainsFunc(a.Blocks, func(b *assemble.Block) bool { return b.Type == assemble.TypeMetaFinal && b.IsError }) &&
				!slices.ContainsFunc(a.Blocks, func(b *assemble.Block) bool { return b.Type == assemble.TypeError && b.Fatal })
			for _, d := range verify.Compare(a, b, nil).Differences {
				if server && d.Type == assemble.TypeToolResult && strings.HasPrefix(d.Field, "name") {
					continue
				}
				if failedEnd && d.Type == assemble.TypeError && d.BlockA == 0 {
					continue
				}
				t.Errorf("%s", d.String())
			}
		})
	}
}
