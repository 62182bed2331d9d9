package convert_test

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// logEncoder writes what it is given as one line per event, and says
// whether it marks abandons itself (convert.AbandonMarker).
type logEncoder struct {
	out   *[]string
	marks bool
}

func (l logEncoder) Encode(ev event.Event) error {
	var s string
	switch ev := ev.(type) {
	case *event.BlockStart:
		s = "start " + ev.Agent + " " + string(ev.Kind)
	case *event.Delta:
		s = "delta " + ev.Agent + " " + ev.Text
	case *event.BlockEnd:
		s = "end " + ev.Agent + " " + string(ev.Kind)
	case *event.Notice:
		s = "notice " + ev.Agent + " " + ev.Kind
	case *event.Error:
		s = "error " + ev.Agent
	default:
		s = fmt.Sprintf("%T %s", ev, ev.AgentID())
	}
	*l.out = append(*l.out, s)
	return nil
}

func (l logEncoder) Close() error         { *l.out = append(*l.out, "close"); return nil }
func (l logEncoder) Cut() error           { *l.out = append(*l.out, "cut"); return event.ErrTruncated }
func (l logEncoder) Flush() error         { *l.out = append(*l.out, "flush"); return nil }
func (l logEncoder) MarksAbandoned() bool { return l.marks }

// TestAbandonHold: what a source abandons never reaches a target that
// cannot mark it; the rest leaves, in order, as soon as it is known not
// to be abandoned; nothing is held for a source that cannot abandon or a
// target that marks abandons itself.
func TestAbandonHold(t *testing.T) {
	t.Parallel()
	start := func(a string) event.Event { return &event.BlockStart{Agent: a, Kind: event.Text} }
	delta := func(a, s string) event.Event { return &event.Delta{Agent: a, Kind: event.Text, Text: s} }
	end := func(a string) event.Event { return &event.BlockEnd{Agent: a, Kind: event.Text} }
	abandon := func(a string) event.Event { return &event.Notice{Agent: a, Kind: event.NoticeAbandoned} }
	turn := &event.TurnStart{Agent: "a"}
	flush := event.Event(nil) // Flush, between events
	abandons := format.Format{Name: "src", Abandons: true}
	never := format.Format{Name: "src"}
	tests := []struct {
		name   string
		from   format.Format
		marks  bool
		live   bool
		evs    []event.Event
		cut    bool
		want   []string // per event, then for the end: what the encoder was given then
		warned []string
	}{
		{
			name: "abandoned: dropped, the notice passed on",
			from: abandons,
			evs:  []event.Event{turn, start("a"), delta("a", "Hal"), flush, abandon("a"), start("a"), delta("a", "Whole"), end("a")},
			want: []string{
				"*event.TurnStart a", "", "", "flush", "notice a abandoned", "", "",
				"start a text, delta a Whole, end a text", "close",
			},
			warned: []string{"t cannot carry abandoned partial messages (dropped)"},
		},
		{
			name: "held until its end, what follows held behind it",
			from: abandons,
			evs:  []event.Event{start("a"), delta("a", "x"), start("b"), delta("b", "y"), end("b"), end("a")},
			want: []string{"", "", "", "", "", "start a text, delta a x, start b text, delta b y, end b text, end a text", "close"},
		},
		{
			name:   "another agent's abandon drops its blocks only",
			from:   abandons,
			evs:    []event.Event{start("a"), delta("a", "x"), start("b"), delta("b", "y"), abandon("b"), end("a")},
			want:   []string{"", "", "", "", "", "start a text, delta a x, notice b abandoned, end a text", "close"},
			warned: []string{"t cannot carry abandoned partial messages (dropped)"},
		},
		{
			name: "an error cuts the block short: it leaves",
			from: abandons,
			evs:  []event.Event{start("a"), delta("a", "x"), &event.Error{Agent: "a"}, abandon("a")},
			want: []string{"", "", "start a text, delta a x, error a", "notice a abandoned", "close"},
		},
		{
			name:   "a block begun again ends the first",
			from:   abandons,
			evs:    []event.Event{start("a"), delta("a", "x"), start("a"), abandon("a")},
			want:   []string{"", "", "start a text, delta a x", "notice a abandoned", "close"},
			warned: []string{"t cannot carry abandoned partial messages (dropped)"},
		},
		{
			name:   "a delta with no start opens its block",
			from:   abandons,
			evs:    []event.Event{delta("a", "x"), abandon("a")},
			want:   []string{"", "notice a abandoned", "close"},
			warned: []string{"t cannot carry abandoned partial messages (dropped)"},
		},
		{
			name:   "a block's deltas after its end open it again, held anew",
			from:   abandons,
			evs:    []event.Event{start("a"), delta("a", "x"), end("a"), delta("a", "y"), abandon("a")},
			want:   []string{"", "", "start a text, delta a x, end a text", "", "notice a abandoned", "close"},
			warned: []string{"t cannot carry abandoned partial messages (dropped)"},
		},
		{
			name:   "a delta after its block's abandon opens a new one",
			from:   abandons,
			evs:    []event.Event{start("a"), delta("a", "x"), abandon("a"), delta("a", "y"), end("a")},
			want:   []string{"", "", "notice a abandoned", "", "delta a y, end a text", "close"},
			warned: []string{"t cannot carry abandoned partial messages (dropped)"},
		},
		{
			name:   "two agents' deltas in turn: each to its own block",
			from:   abandons,
			evs:    []event.Event{start("a"), start("b"), delta("a", "x"), delta("b", "y"), delta("a", "z"), abandon("b"), end("a")},
			want:   []string{"", "", "", "", "", "", "start a text, delta a x, delta a z, notice b abandoned, end a text", "close"},
			warned: []string{"t cannot carry abandoned partial messages (dropped)"},
		},
		{
			name: "cut: what is held leaves, the block stays open",
			from: abandons,
			evs:  []event.Event{start("a"), delta("a", "x")},
			cut:  true,
			want: []string{"", "", "start a text, delta a x, cut"},
		},
		{
			name: "closed: what is held leaves",
			from: abandons,
			evs:  []event.Event{start("a"), delta("a", "x")},
			want: []string{"", "", "start a text, delta a x, close"},
		},
		{
			name: "a source that cannot abandon: nothing held",
			from: never,
			evs:  []event.Event{start("a"), delta("a", "x"), abandon("a")},
			want: []string{"start a text", "delta a x", "notice a abandoned", "close"},
		},
		{
			name:  "a target that marks abandons: nothing held",
			from:  abandons,
			marks: true,
			evs:   []event.Event{start("a"), delta("a", "x"), abandon("a")},
			want:  []string{"start a text", "delta a x", "notice a abandoned", "close"},
		},
		{
			name: "live: a flush lets what is held go, the rest of the block streams",
			from: abandons,
			live: true,
			evs:  []event.Event{start("a"), delta("a", "x"), flush, delta("a", "y"), end("a")},
			want: []string{"", "", "start a text, delta a x, flush", "delta a y", "end a text", "close"},
		},
		{
			name:   "live: an abandon after a flush cannot take back what left: warned",
			from:   abandons,
			live:   true,
			evs:    []event.Event{start("a"), delta("a", "x"), flush, delta("a", "y"), abandon("a"), start("a"), delta("a", "z"), end("a")},
			want:   []string{"", "", "start a text, delta a x, flush", "delta a y", "notice a abandoned", "", "", "start a text, delta a z, end a text", "close"},
			warned: []string{"t cannot carry abandoned partial messages of a live input (written as they arrived, before the source gave them up: they read back as content)"},
		},
		{
			name:   "live: an abandon before a flush is dropped",
			from:   abandons,
			live:   true,
			evs:    []event.Event{start("a"), delta("a", "x"), abandon("a"), flush},
			want:   []string{"", "", "notice a abandoned", "flush", "close"},
			warned: []string{"t cannot carry abandoned partial messages (dropped)"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var log, warned []string
			h := convert.HoldAbandoned(logEncoder{&log, tt.marks}, tt.from, convert.Format{Format: format.Format{Name: "t"}},
				func(err error) { warned = append(warned, err.Error()) })
			h.SetLive(tt.live)
			var got []string
			step := func() {
				got = append(got, strings.Join(log, ", "))
				log = log[:0]
			}
			for _, ev := range tt.evs {
				if ev == nil {
					if err := h.Flush(); err != nil {
						t.Fatal(err)
					}
				} else if err := h.Encode(ev); err != nil {
					t.Fatal(err)
				}
				step()
			}
			if err := event.End(h, tt.cut); err != nil && !tt.cut {
				t.Fatal(err)
			}
			step()
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("events passed on after each (-want +got):\n%s", diff)
			}
			if diff := cmp.Diff(tt.warned, warned); diff != "" {
				t.Errorf("warnings (-want +got):\n%s", diff)
			}
		})
	}
}

// TestAbandonHoldCap: past MaxAbandonHold what is held leaves (bounded),
// and the abandon of a block written so is warned about, never silently
// read back as content.
func TestAbandonHoldCap(t *testing.T) {
	t.Parallel()
	var log, warned []string
	h := convert.HoldAbandoned(logEncoder{out: &log}, format.Format{Abandons: true}, convert.Format{Format: format.Format{Name: "t"}},
		func(err error) { warned = append(warned, err.Error()) })
	encode := func(ev event.Event) {
		t.Helper()
		if err := h.Encode(ev); err != nil {
			t.Fatal(err)
		}
	}
	encode(&event.BlockStart{Agent: "a", Kind: event.Text})
	chunk := strings.Repeat("x", 1000)
	n := 0
	for len(log) == 0 {
		encode(&event.Delta{Agent: "a", Kind: event.Text, Text: chunk})
		if n++; n > convert.MaxAbandonHold/len(chunk)+1 {
			t.Fatalf("%d bytes of deltas held, past MaxAbandonHold (%d)", n*len(chunk), convert.MaxAbandonHold)
		}
	}
	if len(log) != n+1 {
		t.Fatalf("past the cap %d events passed on, want all %d held", len(log), n+1)
	}
	encode(&event.Delta{Agent: "a", Kind: event.Text, Text: "y"})
	if got := log[len(log)-1]; got != "delta a y" {
		t.Errorf("a delta of the block written past the cap: %q passed on, want it at once", got)
	}
	encode(&event.Notice{Agent: "a", Kind: event.NoticeAbandoned})
	want := []string{fmt.Sprintf("t cannot carry abandoned partial messages held past %d bytes (written before the source gave them up: they read back as content)", convert.MaxAbandonHold)}
	if diff := cmp.Diff(want, warned); diff != "" {
		t.Errorf("warnings (-want +got):\n%s", diff)
	}
}

// TestAbandonedRecordings: two recordings with a retried message (made
// from the corpus's partial-plain-text run and its Anthropic body, as
// testdata/abandoned/README.md says), converted to every format as
// convert does (through HoldAbandoned) and read back, give the text
// assemble gives of the source: what the source abandoned is dropped,
// or marked so that the target's reader drops it, never read back as
// content.
func TestAbandonedRecordings(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"claude-retry.jsonl", "anthropic-retry.sse"} {
		in, err := os.ReadFile(filepath.Join("testdata", "abandoned", name))
		if err != nil {
			t.Fatal(err)
		}
		from, _ := convert.Lookup("claude")
		if strings.HasSuffix(name, ".sse") {
			from, _ = convert.Lookup("anthropic")
		}
		want, abandoned := texts(t, in, from)
		if abandoned == 0 {
			t.Fatalf("%s: no abandoned message: the test tests nothing", name)
		}
		for _, to := range convert.Formats() {
			if to.NewEncoder == nil || to.NewDecoder == nil {
				continue
			}
			t.Run(name+"/"+to.Name, func(t *testing.T) {
				t.Parallel()
				var out bytes.Buffer
				enc := convert.HoldAbandoned(to.NewEncoder(&out, &format.Options{}), from.Format, to, nil)
				if err := convert.Pipe(from.NewDecoder(bytes.NewReader(in), &format.Options{}), enc, nil); err != nil {
					t.Fatal(err)
				}
				if err := enc.Close(); err != nil {
					t.Fatal(err)
				}
				got, _ := texts(t, out.Bytes(), to)
				if got != want {
					t.Errorf("text read back %q, want the source's %q\noutput:\n%s", got, want, out.String())
				}
			})
		}
	}
}

// texts returns the text of the text blocks in (format f) assembles to,
// joined (targets split and merge blocks their own way), and the number
// of abandoned notices.
func texts(t *testing.T, in []byte, f convert.Format) (string, int) {
	t.Helper()
	var b strings.Builder
	abandoned := 0
	asm := assemble.New(0)
	dec := f.NewDecoder(bytes.NewReader(in), &format.Options{})
	err := convert.Pipe(dec, eventFunc(func(ev event.Event) error {
		bs, err := asm.Add(ev)
		for _, bl := range bs {
			switch {
			case bl.Type == assemble.TypeText:
				b.WriteString(bl.Text)
			case bl.Type == assemble.TypeNotice && bl.Kind == event.NoticeAbandoned:
				abandoned++
			}
		}
		return err
	}), nil)
	if err != nil {
		t.Fatalf("read %s back: %v", f.Name, err)
	}
	for _, bl := range asm.Flush() {
		if bl.Type == assemble.TypeText {
			b.WriteString(bl.Text)
		}
	}
	return b.String(), abandoned
}

type eventFunc func(event.Event) error

func (f eventFunc) Encode(ev event.Event) error { return f(ev) }
func (eventFunc) Close() error                  { return nil }

// listDecoder yields its events, then its error.
type listDecoder struct {
	evs []event.Event
	err error
}

func (d *listDecoder) Next() (event.Event, error) {
	if len(d.evs) == 0 {
		return nil, d.err
	}
	ev := d.evs[0]
	d.evs = d.evs[1:]
	return ev, nil
}

// TestPipeStopReleasesHold: an input that stops before its end (a
// problem Pipe is told to stop at) writes what the abandon hold kept,
// through Guard too: it was read, never abandoned.
func TestPipeStopReleasesHold(t *testing.T) {
	t.Parallel()
	var log []string
	to := convert.Format{Format: format.Format{Name: "t"}}
	hold := convert.HoldAbandoned(logEncoder{&log, false}, format.Format{Name: "src", Abandons: true}, to, func(error) {})
	dec := &listDecoder{
		evs: []event.Event{&event.BlockStart{Agent: "a", Kind: event.Text}, &event.Delta{Agent: "a", Kind: event.Text, Text: "x"}},
		err: &event.ParseError{Source: "in", Line: 3, Column: 1, Offset: -1, Err: errors.New("bad")},
	}
	if err := convert.Pipe(dec, convert.Guard(hold, to, func(error) {}), nil); err == nil {
		t.Fatal("Pipe: no error, want the problem it stopped at")
	}
	if diff := cmp.Diff([]string{"start a text", "delta a x"}, log); diff != "" {
		t.Errorf("written (-want +got):\n%s", diff)
	}
}
