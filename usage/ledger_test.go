package usage_test

import (
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/usage"
)

func TestLedger(t *testing.T) {
	t.Parallel()
	tok := func(in int64) usage.Tokens { return usage.Tokens{Input: in} }
	l := usage.NewLedger()
	l.Add(usage.Entry{Key: "m1 r1", Tokens: tok(10), Run: "a"}, "m1")
	l.Add(usage.Entry{Key: "m1 r1", Tokens: tok(12), Run: "a"}, "m1")                  // the same message, more complete: kept
	l.Add(usage.Entry{Key: "m1 r1", Tokens: tok(11), Run: "b"}, "m1")                  // a copy with less: not
	l.Add(usage.Entry{Key: "m2 r2", Tokens: tok(50), Sidechain: true, Run: "a"}, "m2") // a sidechain's copy ...
	l.Add(usage.Entry{Key: "m2 r2", Tokens: tok(5), Run: "b"}, "m2")                   // ... gives way to the main agent's
	l.Add(usage.Entry{Key: "m2 r9", Tokens: tok(7), Sidechain: true, Run: "c"}, "m2")  // a sidechain's replay under a new request id
	l.Add(usage.Entry{Tokens: tok(1)}, "")
	l.Add(usage.Entry{Tokens: tok(1)}, "") // no key: each counts
	want := []usage.Entry{
		{Key: "m1 r1", Tokens: tok(12), Run: "a"},
		{Key: "m2 r2", Tokens: tok(5), Run: "b"},
		{Tokens: tok(1)},
		{Tokens: tok(1)},
	}
	if diff := cmp.Diff(want, l.Entries()); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	// One ledger per input, merged in order, keeps what one ledger keeps.
	a, b, m := usage.NewLedger(), usage.NewLedger(), usage.NewLedger()
	a.Add(usage.Entry{Key: "m1 r1", Tokens: tok(10), Run: "a"}, "m1")
	a.Add(usage.Entry{Key: "m1 r1", Tokens: tok(12), Run: "a"}, "m1")
	a.Add(usage.Entry{Key: "m2 r2", Tokens: tok(50), Sidechain: true, Run: "a"}, "m2")
	b.Add(usage.Entry{Key: "m1 r1", Tokens: tok(11), Run: "b"}, "m1")
	b.Add(usage.Entry{Key: "m2 r2", Tokens: tok(5), Run: "b"}, "m2")
	m.Merge(a)
	m.Merge(b)
	if diff := cmp.Diff(want[:2], m.Entries()); diff != "" {
		t.Errorf("merged (-want +got):\n%s", diff)
	}
}

func TestSummarize(t *testing.T) {
	t.Parallel()
	at := func(s string) time.Time {
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	e := func(when, session, model string, in int64) usage.Entry {
		var tm time.Time
		if when != "" {
			tm = at(when)
		}
		return usage.Entry{Time: tm, CLI: "claude", Project: "p", Session: session, Model: model, Tokens: usage.Tokens{Input: in}, Run: session + ".jsonl"}
	}
	entries := []usage.Entry{
		e("2026-11-23T22:30:00Z", "s1", "claude-opus-4-8", 1), // Monday 23 in UTC, 24 in Tokyo
		e("2026-11-24T01:10:00Z", "s1", "claude-opus-4-8[1m]", 2),
		e("2026-11-24T03:30:00Z", "s1", "claude-opus-4-8", 4),  // 5.5 h after the block's 22:00 start: a new block at 03:00
		e("2026-11-24T09:00:00Z", "s2", "claude-haiku-4-5", 8), // and at 09:00
		e("2026-12-01T10:00:00Z", "s2", "claude-haiku-4-5", 16),
		e("", "s3", "", 32), // undated (a stdout)
	}
	tokyo, err := time.LoadLocation("Asia/Tokyo")
	if err != nil {
		t.Fatal(err)
	}
	type kv struct {
		Key string
		In  int64
	}
	tests := []struct {
		by   string
		loc  *time.Location
		want []kv
	}{
		{usage.ByDay, time.UTC, []kv{{"2026-11-23", 1}, {"2026-11-24", 14}, {"2026-12-01", 16}, {"unknown", 32}}},
		{usage.ByDay, tokyo, []kv{{"2026-11-24", 15}, {"2026-12-01", 16}, {"unknown", 32}}},
		{usage.ByWeek, time.UTC, []kv{{"2026-11-22", 15}, {"2026-11-29", 16}, {"unknown", 32}}},
		{usage.ByMonth, time.UTC, []kv{{"2026-11", 15}, {"2026-12", 16}, {"unknown", 32}}},
		{usage.ByBlock, time.UTC, []kv{{"2026-11-23T22:00:00Z", 3}, {"2026-11-24T03:00:00Z", 4}, {"2026-11-24T09:00:00Z", 8}, {"2026-12-01T10:00:00Z", 16}, {"unknown", 32}}},
		{usage.ByModel, time.UTC, []kv{{"(no model)", 32}, {"claude-haiku-4-5", 24}, {"claude-opus-4-8", 7}}},
		// Newest first; undated last.
		{usage.BySession, time.UTC, []kv{{"p/s2", 24}, {"p/s1", 7}, {"p/s3", 32}}},
	}
	for _, tt := range tests {
		rows, total, err := usage.Summarize(entries, tt.by, tt.loc, defaultPrices(t))
		if err != nil {
			t.Fatal(err)
		}
		var got []kv
		for _, r := range rows {
			got = append(got, kv{r.Key, r.Input})
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("by %s in %s (-want +got):\n%s", tt.by, tt.loc, diff)
		}
		if total.Input != 63 || total.Messages != 6 {
			t.Errorf("by %s: total %d in %d messages, want 63 in 6", tt.by, total.Input, total.Messages)
		}
	}
	if _, _, err := usage.Summarize(entries, "year", time.UTC, defaultPrices(t)); err == nil {
		t.Error("by year: no error")
	}
}

func TestModelName(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{"claude-opus-4-8[1m]": "claude-opus-4-8", "claude-opus-4-8": "claude-opus-4-8", "[x]": "[x]", "": ""} {
		if got := usage.ModelName(in); got != want {
			t.Errorf("ModelName(%q) = %q, want %q", in, got, want)
		}
	}
}
