package usage_test

import (
	"fmt"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/usage"
)

func Example() {
	c := usage.NewCounter()
	for _, ev := range []event.Event{
		&event.SessionStart{Agent: "a", Model: "claude-sonnet-4-5"},
		&event.TurnEnd{Agent: "a", MessageID: "m1", Usage: &event.Usage{InputTokens: 1000, OutputTokens: 10}},
		// The same message again, with its final usage: it replaces the first.
		&event.TurnEnd{Agent: "a", MessageID: "m1", Usage: &event.Usage{InputTokens: 1000, OutputTokens: 100}},
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
