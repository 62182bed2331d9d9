package usage_test

import (
	"bufio"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/convert/converttest"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/usage"
)

func ptr[T any](v T) *T { return &v }

// runOf reads a recording of ../testdata through its detected decoder.
func runOf(t *testing.T, name string) usage.Run {
	t.Helper()
	f, err := os.Open(filepath.Join("..", "testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	br := bufio.NewReader(f)
	from, _, err := convert.Detect(br)
	if err != nil {
		t.Fatal(err)
	}
	dec := from.NewDecoder(br, &format.Options{Source: name})
	c := usage.NewCounter()
	for {
		ev, err := dec.Next()
		if err != nil {
			break
		}
		c.Add(ev)
	}
	r := c.Run()
	r.Name = name
	return r
}

func defaultPrices(t *testing.T) *usage.Prices {
	t.Helper()
	p, err := usage.Default()
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var approx = cmpopts.EquateApprox(0, 1e-12)

// The totals below are computed by hand from the recordings' lines.
func TestCorpusTotals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		file string
		want usage.Row
	}{
		// claude/partial-subagent.jsonl: line 3 message_start of
		// msg_013yZtHC (claude-opus-4-8) has input_tokens 42, line 34 its
		// message_delta output_tokens 47; line 43 msg_01Sfs1dZ has 42,
		// line 53 output 15. The subagent's message carries no usage.
		// 42+42 = 84 in, 47+15 = 62 out, 2 messages. The result line's
		// total_cost_usd is 0.00334: the stream's own cost.
		{"claude/partial-subagent.jsonl", usage.Row{
			Key: "claude/partial-subagent.jsonl", Runs: 1, Messages: 2,
			Tokens: usage.Tokens{Input: 84, Output: 62}, CostUSD: ptr(0.00334), CostSource: usage.SourceStream,
		}},
		// claude/tooluse.jsonl: the assistant lines carry no final usage;
		// the result line says input_tokens 84, output_tokens 50,
		// total_cost_usd 0.00167: one run-end total, counted as one.
		{"claude/tooluse.jsonl", usage.Row{
			Key: "claude/tooluse.jsonl", Runs: 1, Messages: 1,
			Tokens: usage.Tokens{Input: 84, Output: 50}, CostUSD: ptr(0.00167), CostSource: usage.SourceStream,
		}},
		// codex/multi-shell.jsonl: one turn.completed with input_tokens
		// 2400, cached_input_tokens 0, output_tokens 26,
		// reasoning_output_tokens 0. Codex names no model: unpriced.
		{"codex/multi-shell.jsonl", usage.Row{
			Key: "codex/multi-shell.jsonl", Runs: 1, Messages: 1,
			Tokens: usage.Tokens{Input: 2400, Output: 26}, CostSource: usage.SourceNone, Unpriced: []string{usage.NoModel},
		}},
		// codex/shell.jsonl: turn.completed input 2400, output 32,
		// reasoning_output_tokens 10.
		{"codex/shell.jsonl", usage.Row{
			Key: "codex/shell.jsonl", Runs: 1, Messages: 1,
			Tokens: usage.Tokens{Input: 2400, Output: 32, Reasoning: 10}, CostSource: usage.SourceNone, Unpriced: []string{usage.NoModel},
		}},
		// anthropic/tooluse-turn1.sse: line 2 message_start, model
		// claude-opus-4-8, input_tokens 42; line 74 message_delta
		// output_tokens 38. No cost in the stream: the table's Opus 4.8
		// prices, $5/M in and $25/M out: 42*5/1e6 + 38*25/1e6 =
		// 0.00021 + 0.00095 = 0.00116.
		{"anthropic/tooluse-turn1.sse", usage.Row{
			Key: "anthropic/tooluse-turn1.sse", Runs: 1, Messages: 1,
			Tokens: usage.Tokens{Input: 42, Output: 38}, CostUSD: ptr(0.00116), CostSource: usage.SourceTable,
		}},
		// jsonenv/tooluse.sse: no turn usage; meta_final (line 37) has
		// cumulative_usage 84 in / 50 out and cost.total_cost 0.001002.
		{"jsonenv/tooluse.sse", usage.Row{
			Key: "jsonenv/tooluse.sse", Runs: 1, Messages: 1,
			Tokens: usage.Tokens{Input: 84, Output: 50}, CostUSD: ptr(0.001002), CostSource: usage.SourceStream,
		}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			t.Parallel()
			rows, _, err := usage.Report([]usage.Run{runOf(t, tt.file)}, usage.ByRun, defaultPrices(t))
			if err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff([]usage.Row{tt.want}, rows, approx); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Two runs by model: Claude's stream cost stays whole (all its messages
// are of one model); the Anthropic body is priced from the table.
func TestReportByModel(t *testing.T) {
	t.Parallel()
	runs := []usage.Run{runOf(t, "claude/partial-subagent.jsonl"), runOf(t, "anthropic/tooluse-turn1.sse"), runOf(t, "codex/shell.jsonl")}
	rows, total, err := usage.Report(runs, usage.ByModel, defaultPrices(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []usage.Row{
		// codex/shell.jsonl, see TestCorpusTotals.
		{Key: usage.NoModel, Runs: 1, Messages: 1, Tokens: usage.Tokens{Input: 2400, Output: 32, Reasoning: 10}, CostSource: usage.SourceNone, Unpriced: []string{usage.NoModel}},
		// 84+42 in, 62+38 out; 0.00334 (stream) + 0.00116 (table).
		{Key: "claude-opus-4-8", Runs: 2, Messages: 3, Tokens: usage.Tokens{Input: 126, Output: 100}, CostUSD: ptr(0.0045), CostSource: usage.SourceMixed},
	}
	if diff := cmp.Diff(want, rows, approx); diff != "" {
		t.Errorf("rows (-want +got):\n%s", diff)
	}
	wantTotal := usage.Row{Key: "total", Runs: 3, Messages: 4, Tokens: usage.Tokens{Input: 2526, Output: 132, Reasoning: 10}, CostUSD: ptr(0.0045), CostSource: usage.SourceMixed, Unpriced: []string{usage.NoModel}}
	if diff := cmp.Diff(wantTotal, total, approx); diff != "" {
		t.Errorf("total (-want +got):\n%s", diff)
	}
}

func TestCounterDedup(t *testing.T) {
	t.Parallel()
	u := func(in, out int64) *event.Usage {
		return &event.Usage{InputTokens: in, OutputTokens: out, Has: event.HasInput | event.HasOutput}
	}
	c := usage.NewCounter()
	for _, ev := range []event.Event{
		&event.SessionStart{Agent: "a", Model: "claude-sonnet-4-5"},
		&event.TurnStart{Agent: "a", MessageID: "m1", Model: "claude-haiku-4-5"},
		&event.TurnEnd{Agent: "a", MessageID: "m1", Usage: u(10, 1)},
		&event.TurnEnd{Agent: "a", MessageID: "m1", Usage: u(10, 7)}, // Claude repeats a message: the last wins
		&event.TurnEnd{Agent: "a", MessageID: "m2", Usage: u(5, 2)},
		&event.TurnEnd{Agent: "a", Usage: u(1, 1)},
		&event.TurnEnd{Agent: "a", Usage: u(1, 1)}, // no id: each counts
		&event.SessionStart{Agent: "s", ParentAgent: "a"},
		&event.RunEnd{Agent: "s", Usage: u(100, 50)}, // no message usage: the total counts
		&event.RunEnd{Agent: "a", Usage: u(999, 999), CostUSD: ptr(0.5), DurationMS: 1200},
	} {
		c.Add(ev)
	}
	got := c.Run()
	want := usage.Run{
		Model: "claude-sonnet-4-5", MainAgent: "a", Agents: map[string]string{"a": "", "s": "a"},
		Messages: []usage.Message{
			{Agent: "a", ID: "m1", Model: "claude-haiku-4-5", Tokens: usage.Tokens{Input: 10, Output: 7}},
			{Agent: "a", ID: "m2", Model: "claude-sonnet-4-5", Tokens: usage.Tokens{Input: 5, Output: 2}},
			{Agent: "a", Model: "claude-sonnet-4-5", Tokens: usage.Tokens{Input: 1, Output: 1}},
			{Agent: "a", Model: "claude-sonnet-4-5", Tokens: usage.Tokens{Input: 1, Output: 1}},
			{Agent: "s", FromRunEnd: true, Tokens: usage.Tokens{Input: 100, Output: 50}},
		},
		CostUSD: ptr(0.5), DurationMS: 1200, Turns: 4, Ended: true, Events: 10,
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

func TestPriceCost(t *testing.T) {
	t.Parallel()
	p := defaultPrices(t)
	tests := []struct {
		model string
		tok   usage.Tokens
		want  float64
		ok    bool
	}{
		// litellm_prices.json, claude-sonnet-4-5-20250929: input 3e-06,
		// output 1.5e-05, cache write 3.75e-06, cache read 3e-07 per token.
		{"claude-sonnet-4-5-20250929", usage.Tokens{Input: 100000, Output: 10000, CacheWrite: 10000, CacheRead: 10000}, 0.3 + 0.15 + 0.0375 + 0.003, true},
		// Past 200,000 tokens of one kind, that kind's _above_200k_tokens
		// price (6e-06 input): 200K*3e-06 + 50K*6e-06; cache reads and
		// output stay under: 60K*3e-07, 10K*1.5e-05.
		{"claude-sonnet-4-5", usage.Tokens{Input: 250000, CacheRead: 60000, Output: 10000}, 0.6 + 0.3 + 0.018 + 0.15, true},
		// No entry of that name: the longest entry it contains at a
		// boundary (claude-opus-4-8: 5e-06 input).
		{"claude-opus-4-8[1m]", usage.Tokens{Input: 1e6}, 5, true},
		{"anthropic/claude-opus-4-8", usage.Tokens{Input: 1e6}, 5, true},
		// OpenAI: cache reads are inside input: (200K - 50K)*2.5e-06 +
		// 50K*2.5e-07 + 10K*1.5e-05.
		{"gpt-5.4", usage.Tokens{Input: 200000, CacheRead: 50000, Output: 10000}, 0.375 + 0.0125 + 0.15, true},
		// An input over 272K tokens: every token at the
		// _above_272k_tokens prices, (1M - 400K)*5e-06 + 400K*5e-07 +
		// 100K*2.25e-05.
		{"gpt-5.4", usage.Tokens{Input: 1e6, CacheRead: 400000, Output: 100000}, 3 + 0.2 + 2.25, true},
		// One-hour cache writes at twice the input price: 10K*3.75e-06 +
		// 5K*6e-06 (claude-sonnet-4-5).
		{"claude-sonnet-4-5", usage.Tokens{CacheWrite: 15000, CacheWrite1h: 5000}, 0.0375 + 0.03, true},
		{"gpt-5.4-mini", usage.Tokens{Input: 100000, CacheRead: 40000, Output: 10000}, 0.045 + 0.003 + 0.045, true},
		// A version number is not a boundary: gpt-5 does not price gpt-5.9.
		{"gpt-5.9", usage.Tokens{Input: 1}, 0, false},
		{"mystery-model", usage.Tokens{Input: 1}, 0, false},
		{"", usage.Tokens{Input: 1}, 0, false},
	}
	for _, tt := range tests {
		got, ok := p.Cost(tt.model, tt.tok)
		if ok != tt.ok || !cmp.Equal(tt.want, got, approx) {
			t.Errorf("Cost(%q, %+v) = %v, %v; want %v, %v", tt.model, tt.tok, got, ok, tt.want, tt.ok)
		}
	}
}

func TestReadPrices(t *testing.T) {
	t.Parallel()
	p, err := usage.ReadPrices(strings.NewReader(`{"sample_spec": {"input_cost_per_token": "x"},
		"my-model": {"input_cost_per_token": 1e-06, "output_cost_per_token": 2e-06},
		"an-image-model": {"output_cost_per_image": 0.04}}`))
	if err != nil {
		t.Fatal(err)
	}
	// No cache prices: a cache write costs 1.25 and a cache read 0.1 times
	// the input price, as ccusage prices them.
	if got, ok := p.Cost("my-model", usage.Tokens{Input: 1e6, Output: 1e6, CacheRead: 1e6, CacheWrite: 1e6}); !ok || !cmp.Equal(1+2+1.25+0.1, got, approx) {
		t.Errorf("Cost = %v, %v; want 4.35, true", got, ok)
	}
	if _, ok := p.Lookup("an-image-model"); ok {
		t.Error("an entry without token prices is priced")
	}
	for _, bad := range []string{``, `{}`, `[]`, `{"a": {"input_cost_per_token": 1}}`, `{"a": {"input_cost_per_token": -1, "output_cost_per_token": 1}}`} {
		if _, err := usage.ReadPrices(strings.NewReader(bad)); err == nil {
			t.Errorf("ReadPrices(%q): no error", bad)
		}
	}
}

func TestReportBy(t *testing.T) {
	t.Parallel()
	if _, _, err := usage.Report(nil, "week", defaultPrices(t)); err == nil {
		t.Error("Report by week: no error")
	}
}

// BenchmarkCounter counts a recording's events.
func BenchmarkCounter(b *testing.B) {
	name := "claude/partial-subagent.jsonl"
	data, evs := converttest.Recording(b, filepath.Join("..", "testdata", name))
	b.SetBytes(int64(len(data)))
	b.ReportAllocs()
	for b.Loop() {
		c := usage.NewCounter()
		for _, ev := range evs {
			c.Add(ev)
		}
		c.Run()
	}
}

// TestTurnCosts: with no run end that says the cost, the turns' own costs
// (OpenCode's steps) are the run's.
func TestTurnCosts(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name string
		evs  []event.Event
		want *float64
	}{
		{"turns", []event.Event{&event.TurnEnd{CostUSD: ptr(0.25)}, &event.TurnEnd{CostUSD: ptr(0.5)}}, ptr(0.75)},
		{"run end wins", []event.Event{&event.TurnEnd{CostUSD: ptr(0.25)}, &event.RunEnd{CostUSD: ptr(2.0)}}, ptr(2.0)},
		{"none", []event.Event{&event.TurnEnd{}}, nil},
	} {
		c := usage.NewCounter()
		for _, ev := range tt.evs {
			c.Add(ev)
		}
		if diff := cmp.Diff(tt.want, c.Run().CostUSD); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestRunModels: a run's per-model totals come from its top-level agents'
// RunEnd.Models, whatever format the run end came from; a subagent's are
// not the run's.
func TestRunModels(t *testing.T) {
	t.Parallel()
	models := []event.ModelUsage{
		{Model: "a", Usage: event.Usage{InputTokens: 1, OutputTokens: 2, CacheReadTokens: 3, CacheWriteTokens: 4, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasCacheWrite}, CostUSD: ptr(0.5)},
		{Model: "b", Usage: event.Usage{OutputTokens: 5, ReasoningTokens: 1, Has: event.HasOutput | event.HasReasoning}},
	}
	for _, tt := range []struct {
		name string
		evs  []event.Event
		want []usage.ModelTotal
	}{
		{"main", []event.Event{&event.RunEnd{Agent: "m", Models: models}}, []usage.ModelTotal{
			{Model: "a", Tokens: usage.Tokens{Input: 1, Output: 2, CacheRead: 3, CacheWrite: 4}, CostUSD: ptr(0.5)},
			{Model: "b", Tokens: usage.Tokens{Output: 5, Reasoning: 1}},
		}},
		{"subagent", []event.Event{
			&event.SessionStart{Agent: "m"}, &event.SessionStart{Agent: "s", ParentAgent: "m"},
			&event.RunEnd{Agent: "s", Models: models},
		}, nil},
		{"none", []event.Event{&event.RunEnd{Agent: "m", Meta: []byte(`{"type":"result","modelUsage":{"x":{}}}`), MetaKind: "claude"}}, nil},
	} {
		c := usage.NewCounter()
		for _, ev := range tt.evs {
			c.Add(ev)
		}
		if diff := cmp.Diff(tt.want, c.Run().ByModel); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
