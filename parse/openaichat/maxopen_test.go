package openaichat

import (
	"errors"
	"io"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
)

// drain reads dec to its end, calling each after every Next, and returns
// the problems wrapping event.ErrTooManyOpen and the events of type T.
func drain(t *testing.T, dec *Decoder, each func()) (capped []string, events []event.Event) {
	t.Helper()
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			return capped, events
		}
		switch {
		case errors.Is(err, event.ErrTooManyOpen):
			capped = append(capped, err.Error())
		case err != nil:
			t.Fatalf("Next: %v", err)
		default:
			events = append(events, ev)
		}
		each()
	}
}

// TestMaxOpenChoices: a completion with more distinct choices than the
// cap keeps state for the cap only; the oldest choices are ended early
// and the first time is reported once, positioned.
func TestMaxOpenChoices(t *testing.T) {
	t.Parallel()
	const n = openset.DefaultMax + 100
	var in strings.Builder
	for i := range n {
		in.WriteString(chunk("c", `[{"index":`+strconv.Itoa(i)+`,"delta":{"content":"x"}}]`, ""))
	}
	in.WriteString("data: [DONE]\n\n")
	dec := NewDecoder(strings.NewReader(in.String()), &Config{Source: "in"})
	most := 0
	capped, events := drain(t, dec, func() {
		if r := dec.resp; r != nil {
			most = max(most, len(r.choices.list), len(r.choices.keys), len(r.choices.m))
		}
	})
	if most != openset.DefaultMax {
		t.Errorf("at most %d choices held, want %d", most, openset.DefaultMax)
	}
	want := "in:" + strconv.Itoa(2*openset.DefaultMax+1) + ":1: more than 1024 choices in completion c; ended the oldest, choice 0, early (later ones are not reported)"
	if len(capped) != 1 || capped[0] != want {
		t.Errorf("reports %q, want one %q", capped, want)
	}
	ends := 0
	for _, ev := range events {
		if te, ok := ev.(*event.TurnEnd); ok {
			ends++
			if ends <= 100 && !strings.HasPrefix(te.Error, "ended early") {
				t.Errorf("TurnEnd %d of %s: error %q", ends, te.Agent, te.Error)
			}
		}
	}
	if ends != n {
		t.Errorf("%d TurnEnds for %d choices", ends, n)
	}
}

// TestMaxOpenToolCalls: a choice with more distinct tool call indexes
// than the cap keeps the cap; the oldest are emitted early.
func TestMaxOpenToolCalls(t *testing.T) {
	t.Parallel()
	const n = openset.DefaultMax + 100
	var in strings.Builder
	for i := range n {
		in.WriteString(chunk("c", `[{"index":0,"delta":{"tool_calls":[{"index":`+strconv.Itoa(i)+`,"id":"t`+strconv.Itoa(i)+`","type":"function","function":{"name":"f","arguments":"{}"}}]}}]`, ""))
	}
	in.WriteString(chunk("c", `[{"index":0,"delta":{},"finish_reason":"tool_calls"}]`, ""))
	in.WriteString("data: [DONE]\n\n")
	dec := NewDecoder(strings.NewReader(in.String()), &Config{Source: "in"})
	most := 0
	capped, events := drain(t, dec, func() {
		if r := dec.resp; r != nil && len(r.choices.list) > 0 {
			c := r.choices.list[0]
			most = max(most, len(c.tools.list), len(c.tools.keys), len(c.tools.m))
		}
	})
	if most != openset.DefaultMax {
		t.Errorf("at most %d tool calls held, want %d", most, openset.DefaultMax)
	}
	if len(capped) != 1 || !strings.Contains(capped[0], "more than 1024 tool calls in choice 0; emitted the oldest, index 0") {
		t.Errorf("reports %q", capped)
	}
	calls := 0
	for _, ev := range events {
		if tc, ok := ev.(*event.ToolCall); ok {
			if tc.ID != "t"+strconv.Itoa(calls) {
				t.Fatalf("tool call %d is %s", calls, tc.ID)
			}
			calls++
		}
	}
	if calls != n {
		t.Errorf("%d tool calls of %d", calls, n)
	}
}

// TestManyChoicesInOneChunk: one chunk of 200,000 choices (about 9 MB)
// is turned into events a few hundred at a time: the decoder never
// queues them all (1,000,000 events), keeps state for the cap's choices only, reports the
// cap once, and gives the events the same chunk split into small ones
// gives.
func TestManyChoicesInOneChunk(t *testing.T) {
	t.Parallel()
	const n = 200_000
	var choices strings.Builder
	choices.WriteByte('[')
	for i := range n {
		if i > 0 {
			choices.WriteByte(',')
		}
		choices.WriteString(`{"index":` + strconv.Itoa(i) + `,"delta":{"content":"x"}}`)
	}
	choices.WriteByte(']')
	in := chunk("c", choices.String(), "") + "data: [DONE]\n\n"
	dec := NewDecoder(strings.NewReader(in), &Config{Source: "in"})
	queued, held := 0, 0
	capped, events := drain(t, dec, func() {
		queued = max(queued, dec.drv.Queued())
		if r := dec.resp; r != nil {
			held = max(held, len(r.choices.list), len(r.choices.m))
		}
	})
	// The end of the response ends the choices held at once: two events
	// each.
	if limit := lazyBatch + 2*openset.DefaultMax; queued > limit {
		t.Errorf("%d events queued at once, want at most %d", queued, limit)
	}
	if held > openset.DefaultMax {
		t.Errorf("%d choices held, want at most %d", held, openset.DefaultMax)
	}
	if len(capped) != 1 || !strings.HasPrefix(capped[0], "in:1:1: more than 1024 choices") {
		t.Errorf("reports %q, want the cap once, at the chunk", capped)
	}
	// The same choices in chunks under wire.LazyBytes, read at once.
	var small strings.Builder
	for lo := 0; lo < n; lo += 10_000 {
		var part strings.Builder
		part.WriteByte('[')
		for i := lo; i < lo+10_000; i++ {
			if i > lo {
				part.WriteByte(',')
			}
			part.WriteString(`{"index":` + strconv.Itoa(i) + `,"delta":{"content":"x"}}`)
		}
		part.WriteByte(']')
		small.WriteString(chunk("c", part.String(), ""))
	}
	small.WriteString("data: [DONE]\n\n")
	_, want := drain(t, NewDecoder(strings.NewReader(small.String()), &Config{Source: "in"}), func() {})
	if len(events) != len(want) {
		t.Fatalf("%d events, want %d", len(events), len(want))
	}
	for i := range events {
		if !reflect.DeepEqual(want[i], events[i]) {
			t.Fatalf("event %d (-small chunks +one chunk):\n%s", i, cmp.Diff(want[i], events[i]))
		}
	}
}
