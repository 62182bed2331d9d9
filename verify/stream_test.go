package verify

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
)

// feed compares a and b with a Stream given their blocks in the order
// order picks (0 for A's next block, 1 for B's).
func feed(a, b Side, o *Options, order func(s *Stream) int) (*Report, error) {
	s := NewStream(a, b, o)
	blocks := [2][]*assemble.Block{a.Blocks, b.Blocks}
	for len(blocks[0]) > 0 || len(blocks[1]) > 0 {
		k := order(s)
		if len(blocks[k]) == 0 {
			k = 1 - k
		}
		if err := s.Add(k, blocks[k][0]); err != nil {
			return nil, err
		}
		blocks[k] = blocks[k][1:]
	}
	return s.Report(), nil
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// mustDetect returns the format of the recording at path.
func mustDetect(t *testing.T, path string) convert.Format {
	t.Helper()
	f, _, err := convert.Detect(bufio.NewReader(strings.NewReader(readFile(t, path))))
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// TestStreamOrder: the report does not depend on the order the two sides'
// blocks come in, whatever the two streams (equal, different, in two
// formats), and is Compare's.
func TestStreamOrder(t *testing.T) {
	t.Parallel()
	var files []string
	for _, g := range []string{"../testdata/xml/*.sse", "../testdata/jsonenv/*.sse", "../testdata/claude/*.jsonl"} {
		fs, err := filepath.Glob(g)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, fs...)
	}
	if len(files) < 10 {
		t.Fatalf("only %d recordings", len(files))
	}
	sides := make([]Side, len(files))
	for i, f := range files {
		sides[i] = readSideQuiet(t, f, readFile(t, f), mustDetect(t, f))
	}
	orders := map[string]func(*Stream) int{
		"A first": func(*Stream) int { return 0 },
		"B first": func(*Stream) int { return 1 },
		"Next":    (*Stream).Next,
	}
	alternate := 0
	orders["alternately"] = func(*Stream) int { alternate++; return alternate % 2 }
	for i, a := range sides {
		for _, b := range []Side{a, sides[(i+1)%len(sides)], sides[(i+7)%len(sides)]} {
			want := Compare(a, b, &Options{Usage: true})
			for name, order := range orders {
				got, err := feed(a, b, &Options{Usage: true}, order)
				if err != nil {
					t.Fatal(err)
				}
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("%s vs %s, %s (-Compare +Stream):\n%s", a.Name, b.Name, name, diff)
				}
			}
			// At most two agents open: the others are compared as they
			// stand and let go of, which changes no report.
			got, err := feed(a, b, &Options{Usage: true, MaxAgents: 2}, (*Stream).Next)
			if le := (*LimitError)(nil); errors.As(err, &le) {
				continue // an agent comes back after it was let go of
			}
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s vs %s, two agents open (-Compare +Stream):\n%s", a.Name, b.Name, diff)
			}
		}
	}
}

// TestStreamLetGo: agents one after the other (runs concatenated), some
// different, compared with two or three agents open at a time: the same
// report as Compare's.
func TestStreamLetGo(t *testing.T) {
	t.Parallel()
	run := func(k int, b bool) []*assemble.Block {
		ag := fmt.Sprintf("a%d", k)
		model := "m"
		if b && k == 3 {
			model = ""
		}
		out := []*assemble.Block{
			{Agent: ag, Type: assemble.TypeMetaInit, Model: model, Name: "sub"},
			{Agent: ag, Type: assemble.TypeText, Text: fmt.Sprintf("text %d", k)},
			{Agent: ag, Type: assemble.TypeToolCall, ID: fmt.Sprintf("c%d", k), Name: "Read", Input: []byte(`{"a":1}`)},
			{Agent: ag, Type: assemble.TypeToolResult, ID: fmt.Sprintf("c%d", k), Name: "Read", Content: new(string)},
			{Agent: ag, Type: assemble.TypeText, Text: "done"},
		}
		switch {
		case b && k == 7:
			out[1].Text += " changed"
		case b && k == 13:
			out = slices.Delete(out, 2, 3)
		case b && k == 20:
			out = append(out, &assemble.Block{Agent: ag, Type: assemble.TypeText, Text: "extra"})
		case b && k == 21:
			out[1], out[4] = out[4], out[1]
		}
		stop := "end_turn"
		if b && k == 30 {
			stop = "max_tokens"
		}
		return append(out, &assemble.Block{Agent: ag, Type: assemble.TypeMetaFinal, StopReason: stop})
	}
	var a, b Side
	a.Format, b.Format = "jsonenv", "jsonenv"
	for k := range 40 {
		a.Blocks = append(a.Blocks, run(k, false)...)
		b.Blocks = append(b.Blocks, run(k, true)...)
	}
	want := Compare(a, b, nil)
	if want.Equal || len(want.NotCompared) == 0 {
		t.Fatalf("the test's streams: %s", lines(want))
	}
	for _, open := range []int{2, 3} {
		got, err := feed(a, b, &Options{MaxAgents: open}, (*Stream).Next)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%d agents open (-Compare +Stream):\n%s", open, diff)
		}
	}
}

// TestStreamBoundedState counts what a Stream holds for the hostile
// inputs of docs/limits.md, generated block by block: it stays within
// the caps, and an input past one is not answered (a LimitError, never
// equal).
func TestStreamBoundedState(t *testing.T) {
	t.Parallel()
	const n = 1_000_000
	caps := &Options{MaxAgents: DefaultMaxAgents, MaxHeld: DefaultMaxHeld, MaxHeldBytes: DefaultMaxHeldBytes}
	text := func(agent string) *assemble.Block {
		return &assemble.Block{Agent: agent, Type: assemble.TypeText, Text: "x", Truncated: true}
	}
	call := func(i int) *assemble.Block {
		return &assemble.Block{Type: assemble.TypeToolCall, ID: fmt.Sprintf("c%d", i), Name: "Read", Input: []byte("{}")}
	}
	held := func(s *Stream) int {
		m := 0
		for _, p := range s.pairs {
			for _, ag := range p.ag {
				if ag != nil {
					m += len(ag.blocks)
				}
			}
		}
		return m
	}
	t.Run("1M agents", func(t *testing.T) {
		// Equal: compared as they go; each agent let go of, or the filter
		// of those let go of says a new one may be one (a LimitError).
		t.Parallel()
		s := NewStream(Side{Format: "jsonenv"}, Side{Format: "jsonenv"}, caps)
		var err error
		i := 0
		for ; i < n && err == nil; i++ {
			b := text(fmt.Sprintf("a%d", i))
			if err = s.Add(0, b); err == nil {
				err = s.Add(1, b)
			}
			if len(s.pairs) > DefaultMaxAgents || len(s.sides[0].byID) > DefaultMaxAgents || s.lru.Len() > DefaultMaxAgents {
				t.Fatalf("%d agents held, %d ids; the cap is %d", len(s.pairs), len(s.sides[0].byID), DefaultMaxAgents)
			}
		}
		if le := (*LimitError)(nil); err != nil && !errors.As(err, &le) {
			t.Fatal(err)
		}
		if i <= 10*DefaultMaxAgents {
			t.Errorf("stopped after %d agents: %v", i, err)
		}
		if err == nil {
			if r := s.Report(); !r.Equal || r.A.Agents != n {
				t.Errorf("%d equal agents: %s", n, lines(r))
			}
		}
	})
	t.Run("an agent let go of comes back", func(t *testing.T) {
		t.Parallel()
		s := NewStream(Side{Format: "jsonenv"}, Side{Format: "jsonenv"}, caps)
		for i := range DefaultMaxAgents + 10 {
			b := text(fmt.Sprintf("a%d", i))
			if err := errors.Join(s.Add(0, b), s.Add(1, b)); err != nil {
				t.Fatal(err)
			}
		}
		if le := (*LimitError)(nil); !errors.As(s.Add(0, text("a0")), &le) {
			t.Errorf("a block of agent a0, let go of, is compared")
		}
	})
	t.Run("agents one side has", func(t *testing.T) {
		t.Parallel()
		s := NewStream(Side{Format: "jsonenv"}, Side{Format: "jsonenv"}, caps)
		var err error
		for i := 0; i < n && err == nil; i++ {
			err = s.Add(0, text(fmt.Sprintf("a%d", i)))
		}
		if le := (*LimitError)(nil); !errors.As(err, &le) {
			t.Fatalf("1M agents of A held: %v", err)
		}
		if len(s.pairs) > DefaultMaxAgents+1 {
			t.Errorf("%d agents held; the cap is %d", len(s.pairs), DefaultMaxAgents)
		}
	})
	t.Run("equal calls", func(t *testing.T) {
		// Equal streams: nothing is held, however long (100k calls here,
		// as a block's canonical form costs more than a cap check).
		t.Parallel()
		const n = n / 10
		s := NewStream(Side{Format: "jsonenv"}, Side{Format: "jsonenv"}, caps)
		for i := range n {
			for k := range 2 {
				if err := s.Add(k, call(i)); err != nil {
					t.Fatal(err)
				}
			}
			if h := held(s); h != 0 {
				t.Fatalf("after %d equal calls, %d blocks held", i+1, h)
			}
		}
		r := s.Report()
		if !r.Equal || r.A.Blocks != n || r.B.Blocks != n {
			t.Errorf("equal streams of %d calls: %s", n, lines(r))
		}
	})
	t.Run("1M calls on one side", func(t *testing.T) {
		t.Parallel()
		s := NewStream(Side{Format: "jsonenv"}, Side{Format: "jsonenv"}, caps)
		if err := s.Add(1, text("")); err != nil {
			t.Fatal(err)
		}
		var err error
		for i := 0; i < n && err == nil; i++ {
			err = s.Add(0, call(i))
		}
		if le := (*LimitError)(nil); !errors.As(err, &le) {
			t.Fatalf("1M calls held: %v", err)
		}
		if h := held(s); h > DefaultMaxHeld+1 {
			t.Errorf("%d blocks held; the cap is %d", h, DefaultMaxHeld)
		}
	})
	t.Run("large blocks on one side", func(t *testing.T) {
		t.Parallel()
		s := NewStream(Side{Format: "jsonenv"}, Side{Format: "jsonenv"}, caps)
		big := string(make([]byte, 1<<20))
		var err error
		for i := 0; i < n && err == nil; i++ {
			err = s.Add(0, &assemble.Block{Type: assemble.TypeText, Text: big + fmt.Sprint(i)})
		}
		if le := (*LimitError)(nil); !errors.As(err, &le) {
			t.Fatalf("1M large blocks held: %v", err)
		}
		if s.bytes > DefaultMaxHeldBytes+3<<20 {
			t.Errorf("%d bytes held; the cap is %d", s.bytes, DefaultMaxHeldBytes)
		}
	})
}

// TestStreamCut: a side said cut off makes equal content not equal,
// unless AllowCut; the summary names it; different content stays
// different either way.
func TestStreamCut(t *testing.T) {
	t.Parallel()
	text := func(s string) []*assemble.Block {
		return []*assemble.Block{{Agent: "a", Type: assemble.TypeText, Text: s}}
	}
	for _, tt := range []struct {
		name      string
		a, b      string
		cut       []int
		allow     bool
		wantEqual bool
	}{
		{"whole", "x", "x", nil, false, true},
		{"A cut", "x", "x", []int{0}, false, false},
		{"both cut", "x", "x", []int{0, 1}, false, false},
		{"both cut, allowed", "x", "x", []int{0, 1}, true, true},
		{"cut and different, allowed", "x", "y", []int{1}, true, false},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			s := NewStream(Side{Format: "jsonenv"}, Side{Format: "jsonenv"}, &Options{AllowCut: tt.allow})
			for _, k := range tt.cut {
				s.Cut(k)
			}
			for k, bs := range [][]*assemble.Block{text(tt.a), text(tt.b)} {
				for _, b := range bs {
					if err := s.Add(k, b); err != nil {
						t.Fatal(err)
					}
				}
			}
			r := s.Report()
			if r.Equal != tt.wantEqual {
				t.Errorf("Equal = %v, want %v", r.Equal, tt.wantEqual)
			}
			if got, want := []bool{r.A.Cut, r.B.Cut}, []bool{slices.Contains(tt.cut, 0), slices.Contains(tt.cut, 1)}; !slices.Equal(got, want) {
				t.Errorf("Cut of A, B = %v, want %v", got, want)
			}
		})
	}
}
