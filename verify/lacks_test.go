package verify

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// TestLacksMatchLosses holds each format's Lacks to what its encoder
// really drops over the recordings in testdata: converted to the JSON
// envelope and to their own format and compared with Strict (every field,
// lacked or not), a recording differs only in what the target lacks; and
// when the encoder reports a loss (*event.LossError), the target lacks
// something the recording has.
func TestLacksMatchLosses(t *testing.T) {
	t.Parallel()
	for _, from := range convert.Formats() {
		if from.NewDecoder == nil {
			continue
		}
		files, _ := filepath.Glob(filepath.Join("../testdata", from.Name, "*"))
		for _, path := range files {
			switch filepath.Ext(path) {
			case ".sse", ".jsonl", ".json", ".txt":
			default:
				continue
			}
			if strings.HasSuffix(path, ".tools.json") || strings.Contains(filepath.Base(path), "hand-bad") {
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, to := range convert.Formats() {
				if to.NewEncoder == nil || (to.Name != "jsonenv" && to.Name != from.Name) {
					continue
				}
				t.Run(from.Name+"/"+filepath.Base(path)+"/"+to.Name, func(t *testing.T) {
					t.Parallel()
					var losses []string
					var out strings.Builder
					enc := to.NewEncoder(&out, &format.Options{Warn: func(err error) {
						if le, ok := err.(*event.LossError); ok {
							losses = append(losses, le.What)
						}
					}})
					dec := from.NewDecoder(strings.NewReader(string(b)), &format.Options{})
					if err := convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(error) bool { return true }}); err != nil {
						t.Fatal(err)
					}
					enc.Close()
					a := readSideQuiet(t, path, string(b), from)
					c := readSideQuiet(t, "converted", out.String(), to)
					r := Compare(a, c, &Options{Strict: true})
					for _, d := range r.Differences {
						if !lacked(to.Lacks, d) {
							t.Errorf("%s is lost but %s's Lacks does not list it: %s", what(d), to.Name, d)
						}
					}
					if len(losses) == 0 {
						return
					}
					has := slices.ContainsFunc(to.Lacks, func(c format.Content) bool {
						return presentIn(string(c), a.Blocks)
					})
					// Some losses are of what no block holds (notices,
					// unknown events, run statistics): only a loss the
					// comparison sees must be in Lacks.
					if !has && len(r.Differences) > 0 {
						t.Errorf("%s reports losses %q, and lacks nothing the recording has", to.Name, losses)
					}
				})
			}
		}
	}
}

// what is the field or block type a difference is about.
func what(d Difference) string {
	if d.Field == "" {
		return d.Type
	}
	f, _, _ := strings.Cut(d.Field, ".")
	f, _, _ = strings.Cut(f, "[")
	return f
}

// lacked reports whether the difference d is about content lacks lists.
func lacked(lacks []format.Content, d Difference) bool {
	w := what(d)
	if slices.Contains(lacks, format.Content(w)) || slices.Contains(lacks, format.Content(d.Type)) {
		return true
	}
	switch w {
	case "citations":
		return slices.Contains(lacks, format.CitationExtras)
	case "stop_reason", "usage", "cost":
		// Without a meta_final the outcome is the turn ends'.
		return slices.Contains(lacks, format.TurnEnd)
	}
	return false
}

// presentIn reports whether field has a value in any of blocks, as the
// report's "not compared" list decides.
func presentIn(field string, blocks []*assemble.Block) bool {
	main := ""
	for _, b := range blocks {
		if b != nil && !(b.Type == assemble.TypeNotice && b.Kind == event.NoticeAbandoned) {
			main = b.Agent
			break
		}
	}
	return slices.ContainsFunc(blocks, func(b *assemble.Block) bool { return b != nil && present(field, b, main) })
}
