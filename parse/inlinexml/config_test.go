package inlinexml

import (
	"strings"
	"testing"
)

// TestNarrow checks tagTable.narrow, byte by byte as the scanner calls
// it, against the definition: a tag, a proper prefix of one, or neither.
func TestNarrow(t *testing.T) {
	t.Parallel()
	g := compile(&Config{})
	var inputs []string
	for _, tag := range g.top.tags {
		for i := 1; i <= len(tag); i++ {
			inputs = append(inputs, tag[:i], tag[:i]+"x", tag[:i]+">", tag[:i-1]+"z")
		}
	}
	inputs = append(inputs, "<", "<<", "<read_file>>", "<read_filex>", "</read_file>")
	for _, in := range inputs {
		var r tagRange
		r.hi = -1
		for i := 1; i <= len(in); i++ {
			p := in[:i]
			kind, ok := g.top.narrow([]byte(p), &r)
			wantKind, wantOK := tagNone, false
			for j, tag := range g.top.tags {
				if tag == p {
					wantKind, wantOK = g.top.kinds[j], true
					break
				}
				if strings.HasPrefix(tag, p) {
					wantOK = true
				}
			}
			if kind != wantKind || ok != wantOK {
				t.Errorf("narrow(%q) = %d, %v; want %d, %v", p, kind, ok, wantKind, wantOK)
			}
			if !ok {
				break // the scanner stops at the first byte that fits no tag
			}
		}
	}
}
