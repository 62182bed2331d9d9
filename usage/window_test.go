package usage

import (
	"math/rand/v2"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// TestWindowBounded adds a million calls (boundedN), one at a time, each seen on
// two lines as Claude writes them (the second with more tokens), to the
// ledger usage reads into, summed by day as it lets go of them: it holds
// at most Window entries and MaxForgotten hashes, the summary
// a group per day, and every call counts once.
func TestWindowBounded(t *testing.T) {
	t.Parallel()
	const n = boundedN
	day := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	prices, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	sum, err := NewSummary(ByDay, time.UTC, prices)
	if err != nil {
		t.Fatal(err)
	}
	l := NewWindow(Window, MaxForgotten, sum.Add)
	peak, peakGone := 0, 0
	for i := range n {
		id := "msg_" + strconv.Itoa(i)
		e := Entry{Time: day.Add(time.Duration(i) * time.Second), Key: id + "\x00req", Model: "m", Tokens: Tokens{Input: 1}}
		l.Add(e, id)
		e.Tokens.Output = 1
		l.Add(e, id)
		held, gone := l.Held()
		peak, peakGone = max(peak, held), max(peakGone, gone)
	}
	l.Flush()
	if peak > Window || peakGone > MaxForgotten {
		t.Errorf("held %d entries and %d hashes at once; want at most %d and %d", peak, peakGone, Window, MaxForgotten)
	}
	if l.Forgot() != (2*n > Window+MaxForgotten) || l.Late() != 0 {
		t.Errorf("Forgot %v, Late %d; want %v, 0", l.Forgot(), l.Late(), 2*n > Window+MaxForgotten)
	}
	rows, total := sum.Rows()
	if want := n / 86400; len(rows) != want+1 || total.Messages != n || total.Input != n || total.Output != n {
		t.Errorf("%d rows, %d messages, %d in, %d out; want %d rows, %d each", len(rows), total.Messages, total.Input, total.Output, want+1, n)
	}
}

// TestWindowLate: a call's line that comes after the ledger let go of
// the call is dropped, whichever of its key or its message id (a
// sidechain's replay) tells it, and counted as late when it would have
// replaced the line kept.
func TestWindowLate(t *testing.T) {
	t.Parallel()
	var out []string
	l := NewWindow(2, 100, func(e *Entry) { out = append(out, e.Key) })
	l.Add(Entry{Key: "m1 r1", Tokens: Tokens{Input: 1}}, "m1")
	l.Add(Entry{Key: "m2 r2"}, "m2")
	l.Add(Entry{Key: "m3 r3"}, "m3")                           // lets go of m1
	l.Add(Entry{Key: "m1 r1", Tokens: Tokens{Input: 5}}, "m1") // more tokens: late
	l.Add(Entry{Key: "m1 r1"}, "m1")                           // fewer: dropped, as it would be
	l.Add(Entry{Key: "m1 r9", Sidechain: true}, "m1")          // a sidechain's replay: dropped, as it would be
	l.Add(Entry{Key: "m1 r8"}, "m1")                           // not a sidechain's: another call
	l.Flush()
	if diff := cmp.Diff([]string{"m1 r1", "m2 r2", "m3 r3", "m1 r8"}, out); diff != "" {
		t.Errorf("let go of (-want +got):\n%s", diff)
	}
	if l.Late() != 1 || l.Forgot() {
		t.Errorf("Late %d, Forgot %v; want 1, false", l.Late(), l.Forgot())
	}
}

// TestWindowSameAsLedger: when no call's lines are further apart than
// the window, the windowed ledger summed as it lets go gives the rows a
// ledger of every entry gives, for every grouping.
func TestWindowSameAsLedger(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	base := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	type line struct {
		e   Entry
		msg string
	}
	var lines []line
	for i := range 5000 {
		id := "m" + strconv.Itoa(i)
		e := Entry{
			Time: base.Add(time.Duration(i) * 7 * time.Minute), Session: "s" + strconv.Itoa(i%13), Run: "r" + strconv.Itoa(i%5),
			Model: []string{"claude-opus-4-8", "x", ""}[i%3], Key: id + " q", Tokens: Tokens{Input: int64(rng.IntN(1000)), Output: int64(rng.IntN(100))},
		}
		if i%4 == 0 {
			e.Key = "" // no key: each counts
		}
		if i%9 == 0 {
			c := 0.25 * float64(i%7)
			e.CostUSD = &c
		}
		lines = append(lines, line{e, id})
		if i%3 == 0 && i > 20 { // a line of a call a little before, more or less complete, maybe a sidechain's
			p := lines[len(lines)-1-rng.IntN(20)]
			p.e.Tokens.Output += int64(rng.IntN(3)) - 1
			p.e.Sidechain = rng.IntN(4) == 0
			lines = append(lines, p)
		}
	}
	prices, err := Default()
	if err != nil {
		t.Fatal(err)
	}
	for _, by := range Groupings {
		all := NewLedger()
		sum, err := NewSummary(by, time.UTC, prices)
		if err != nil {
			t.Fatal(err)
		}
		win := NewWindow(64, 1000, sum.Add)
		for _, l := range lines {
			all.Add(l.e, l.msg)
			win.Add(l.e, l.msg)
		}
		win.Flush()
		wantRows, wantTotal, err := Summarize(all.Entries(), by, time.UTC, prices)
		if err != nil {
			t.Fatal(err)
		}
		rows, total := sum.Rows()
		if diff := cmp.Diff(wantRows, rows); diff != "" {
			t.Errorf("by %s: rows (-ledger +window):\n%s", by, diff)
		}
		if diff := cmp.Diff(wantTotal, total); diff != "" {
			t.Errorf("by %s: total (-ledger +window):\n%s", by, diff)
		}
		if win.Late() != 0 {
			t.Errorf("by %s: %d late lines", by, win.Late())
		}
	}
}
