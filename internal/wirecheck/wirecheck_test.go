package wirecheck_test

import (
	"errors"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

func TestLines(t *testing.T) {
	t.Parallel()
	boom := errors.New("boom")
	type line struct {
		Text string
		Pos  wirecheck.Pos
	}
	tests := []struct {
		name string
		in   io.Reader
		want []line
		err  error
	}{
		{"lines", strings.NewReader("a\r\n\nbc"), []line{{"a", wirecheck.Pos{Line: 1, Col: 1}}, {"", wirecheck.Pos{Line: 2, Col: 1}}, {"bc", wirecheck.Pos{Line: 3, Col: 1}}}, nil},
		{"over the cap skipped", strings.NewReader("a\n0123456789\nb\n"), []line{{"a", wirecheck.Pos{Line: 1, Col: 1}}, {"b", wirecheck.Pos{Line: 3, Col: 1}}}, nil},
		{"read failure", io.MultiReader(strings.NewReader("a\n"), iotest.ErrReader(boom)), []line{{"a", wirecheck.Pos{Line: 1, Col: 1}}}, boom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := &wirecheck.Checker{Cfg: &format.CheckConfig{Source: "in", MaxEventBytes: 4}}
			var got []line
			for b, p := range c.Lines(tt.in) {
				got = append(got, line{string(b), p})
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("lines (-want +got):\n%s", diff)
			}
			if !errors.Is(c.Err(), tt.err) || (tt.err == nil) != (c.Err() == nil) {
				t.Errorf("Err() = %v, want %v", c.Err(), tt.err)
			}
		})
	}
}
