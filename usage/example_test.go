package usage_test

import (
	"fmt"
	"time"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/usage"
)

func Example() {
	c := usage.NewCounter()
	for _, ev := range []event.Event{
		&event.SessionStart{Agent: "a", Model: "claude-sonnet-4-5"},
		&event.TurnEnd{Agent: "a", MessageID: "m1", Usage: &event.Usage{InputTokens: 1000, OutputTokens: 10, Has: event.HasInput | event.HasOutput}},
		// The same message again, with its final usage: it replaces the first.
		&event.TurnEnd{Agent: "a", MessageID: "m1", Usage: &event.Usage{InputTokens: 1000, OutputTokens: 100, Has: event.HasInput | event.HasOutput}},
	} {
		c.Add(ev)
	}
	run := c.Run()
	run.Name = "run.jsonl"
	prices, _ := usage.Default()
	rows, _, _ := usage.Report([]usage.Run{run}, usage.ByRun, prices)
	r := rows[0]
	fmt.Printf("%s: %d messages, %d in, %d out, $%.4f (%s)\n", r.Key, r.Messages, r.Input, r.Output, *r.CostUSD, r.CostSource)
	// Output: run.jsonl: 1 messages, 1000 in, 100 out, $0.0045 (table)
}

// Calls read from two logs, the second a resumed session that copies the
// first's history: each call counts once, dated by its own time.
func ExampleSummarize() {
	l := usage.NewLedger()
	t := func(s string) time.Time { v, _ := time.Parse(time.RFC3339, s); return v }
	for _, e := range []usage.Entry{
		{Time: t("2026-11-23T23:50:00Z"), Session: "s1", Model: "claude-opus-4-8", Key: "msg_1 req_1", Tokens: usage.Tokens{Input: 100, Output: 10}, Run: "s1.jsonl"},
		{Time: t("2026-11-24T00:05:00Z"), Session: "s1", Model: "claude-opus-4-8[1m]", Key: "msg_2 req_2", Tokens: usage.Tokens{Input: 200, Output: 20}, Run: "s1.jsonl"},
		// The resumed log: the same two calls, and one of its own.
		{Time: t("2026-11-23T23:50:00Z"), Session: "s1", Model: "claude-opus-4-8", Key: "msg_1 req_1", Tokens: usage.Tokens{Input: 100, Output: 10}, Run: "s2.jsonl"},
		{Time: t("2026-11-24T00:05:00Z"), Session: "s1", Model: "claude-opus-4-8[1m]", Key: "msg_2 req_2", Tokens: usage.Tokens{Input: 200, Output: 20}, Run: "s2.jsonl"},
		{Time: t("2026-11-24T09:00:00Z"), Session: "s2", Model: "claude-opus-4-8", Key: "msg_3 req_3", Tokens: usage.Tokens{Input: 400, Output: 40}, Run: "s2.jsonl"},
	} {
		l.Add(e, "")
	}
	prices, _ := usage.Default()
	rows, total, _ := usage.Summarize(l.Entries(), usage.ByDay, time.UTC, prices)
	for _, r := range append(rows, total) {
		fmt.Printf("%s: %d calls, %d in, %d out, $%.4f\n", r.Key, r.Messages, r.Input, r.Output, *r.CostUSD)
	}
	// Output:
	// 2026-11-23: 1 calls, 100 in, 10 out, $0.0008
	// 2026-11-24: 2 calls, 600 in, 60 out, $0.0045
	// total: 3 calls, 700 in, 70 out, $0.0053
}
