package usage

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestBlockBounded: a summary by block holds at most MaxBlockCalls calls,
// each without its strings (the models' and runs' names are held once),
// and says so past the cap instead of growing.
func TestBlockBounded(t *testing.T) {
	t.Parallel()
	s, err := NewSummary(ByBlock, time.UTC, &Prices{})
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 11, 1, 0, 0, 0, 0, time.UTC)
	cost := 0.5
	n := MaxBlockCalls + 1000
	for i := range n {
		e := Entry{
			Time: t0.Add(time.Duration(i) * time.Second), Model: fmt.Sprintf("m%d", i%3), Run: "run.jsonl",
			Key: fmt.Sprintf("msg_%d", i), Session: fmt.Sprintf("s%d", i), Tokens: Tokens{Input: 1},
		}
		if i%2 == 0 {
			e.CostUSD = &cost
		}
		s.Add(&e)
	}
	if got := len(s.block); got > MaxBlockCalls {
		t.Errorf("calls held by block = %d, want at most %d", got, MaxBlockCalls)
	}
	if diff := cmp.Diff(4, len(s.strs)); diff != "" {
		t.Errorf("names held (-want +got):\n%s", diff)
	}
	if !errors.Is(s.Err(), ErrTooManyBlockCalls) {
		t.Errorf("Err() = %v, want ErrTooManyBlockCalls", s.Err())
	}
}

// TestBlockRowsAsEntries: the rows by block of what a summary keeps of
// each call are those of the calls themselves (Summarize's rows before the
// calls were kept compact): time, model, run, tokens and cost survive.
func TestBlockRowsAsEntries(t *testing.T) {
	t.Parallel()
	t0 := time.Date(2026, 11, 1, 9, 30, 0, 0, time.FixedZone("x", 3600))
	c1, c2 := 0.25, 1.5
	entries := []Entry{
		{Time: t0, Model: "claude-sonnet-4-5", Run: "a", Tokens: Tokens{Input: 10, Output: 2}, CostUSD: &c1},
		{Time: t0.Add(time.Hour), Model: "gpt-5", Run: "b", Tokens: Tokens{Input: 3, CacheRead: 7}},
		{Time: t0.Add(7 * time.Hour), Model: "gpt-5", Run: "a", Tokens: Tokens{Output: 5}, CostUSD: &c2},
		{Model: "claude-sonnet-4-5", Run: "c", Tokens: Tokens{Input: 1}},
	}
	s, err := NewSummary(ByBlock, time.UTC, &Prices{})
	if err != nil {
		t.Fatal(err)
	}
	want, wantTotal := map[string]Row{}, Row{}
	for i := range entries {
		s.Add(&entries[i])
	}
	rows, total := s.Rows()
	// The same rows grouped by hand: blocks from 08:00 UTC (two calls), from
	// 15:00 UTC (one), and the undated one.
	byKey := map[string][]Entry{
		"2026-11-01T08:00:00Z": entries[:2],
		"2026-11-01T15:00:00Z": entries[2:3],
		unknownTime:            entries[3:],
	}
	for k, es := range byKey {
		g, _ := NewSummary(ByRun, time.UTC, &Prices{})
		for i := range es {
			g.add(&es[i], k)
		}
		r, _ := g.Rows()
		want[k] = r[0]
	}
	got := map[string]Row{}
	for _, r := range rows {
		got[r.Key] = r
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("rows by block (-want +got):\n%s", diff)
	}
	all, _ := NewSummary(ByRun, time.UTC, &Prices{})
	for i := range entries {
		all.Add(&entries[i])
	}
	_, wantTotal = all.Rows()
	if diff := cmp.Diff(wantTotal, total); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
}
