package codexsession_test

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/codexsession"
)

func readUsage(t *testing.T, r io.Reader) []codexsession.Usage {
	t.Helper()
	var out []codexsession.Usage
	if err := codexsession.ReadUsage(r, func(u *codexsession.Usage) { out = append(out, *u) }); err != nil {
		t.Fatal(err)
	}
	return out
}

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

const (
	meta    = `{"timestamp":"2026-11-23T19:43:54.620Z","ordinal":0,"type":"session_meta","payload":{"id":"t1","cwd":"/home/dev/w","source":"exec","base_instructions":{"text":"token_count"}}}`
	context = `{"timestamp":"2026-11-23T19:43:54.700Z","ordinal":5,"type":"turn_context","payload":{"cwd":"/home/dev/w","model":"gpt-5.5","summary":"auto"}}`
)

func count(ts string, last, total string) string {
	return `{"timestamp":"` + ts + `","ordinal":9,"type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":` + total + `,"last_token_usage":` + last + `},"rate_limits":null}}`
}

func TestReadUsage(t *testing.T) {
	t.Parallel()
	u1 := `{"input_tokens":1200,"cached_input_tokens":200,"cache_write_input_tokens":0,"output_tokens":12,"reasoning_output_tokens":5,"total_tokens":1212}`
	u2 := `{"input_tokens":2400,"cached_input_tokens":1000,"cache_write_input_tokens":0,"output_tokens":20,"reasoning_output_tokens":0,"total_tokens":2420}`
	tests := []struct {
		name string
		in   []string
		want []codexsession.Usage
	}{
		{
			"last_token_usage of each count, the turn's model",
			[]string{meta, context, count("2026-11-23T19:43:55.000Z", u1, u1), `{"timestamp":"x","type":"event_msg","payload":{"type":"token_count","info":null}}`, count("2026-11-23T19:43:56.000Z", u2, u2)},
			[]codexsession.Usage{
				{
					Time: at("2026-11-23T19:43:55Z"), ThreadID: "t1", Model: "gpt-5.5", Cwd: "/home/dev/w", Key: "2026-11-23T19:43:55.000Z 1200 200 0 12 5",
					Tokens: event.Usage{InputTokens: 1200, CacheReadTokens: 200, OutputTokens: 12, ReasoningTokens: 5, Has: all},
				},
				{
					Time: at("2026-11-23T19:43:56Z"), ThreadID: "t1", Model: "gpt-5.5", Cwd: "/home/dev/w", Key: "2026-11-23T19:43:56.000Z 2400 1000 0 20 0",
					Tokens: event.Usage{InputTokens: 2400, CacheReadTokens: 1000, OutputTokens: 20, Has: all},
				},
			},
		},
		{
			"no last_token_usage: the growth of the totals",
			[]string{
				meta, context,
				`{"timestamp":"2026-11-23T19:43:55Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":100,"output_tokens":10}}}}`,
				`{"timestamp":"2026-11-23T19:43:57Z","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":250,"output_tokens":15}}}}`,
			},
			[]codexsession.Usage{
				{Time: at("2026-11-23T19:43:55Z"), ThreadID: "t1", Model: "gpt-5.5", Cwd: "/home/dev/w", Key: "2026-11-23T19:43:55Z 100 0 0 10 0", Tokens: event.Usage{InputTokens: 100, OutputTokens: 10, Has: event.HasInput | event.HasOutput}},
				{Time: at("2026-11-23T19:43:57Z"), ThreadID: "t1", Model: "gpt-5.5", Cwd: "/home/dev/w", Key: "2026-11-23T19:43:57Z 250 0 0 15 0", Tokens: event.Usage{InputTokens: 150, OutputTokens: 5, Has: event.HasInput | event.HasOutput}},
			},
		},
		{
			"a subagent's rollout replays its parent's counts in its first second: left out",
			[]string{
				`{"timestamp":"2026-11-23T19:50:00.000Z","type":"session_meta","payload":{"id":"child","source":{"subagent":{"thread_spawn":{"parent_thread_id":"t1","depth":1}}}}}`,
				context,
				count("2026-11-23T19:50:00.100Z", u1, u1), count("2026-11-23T19:50:00.200Z", u2, u2),
				count("2026-11-23T19:50:03.000Z", u1, u2),
			},
			[]codexsession.Usage{{
				Time: at("2026-11-23T19:50:03Z"), ThreadID: "child", ParentThread: "t1", Model: "gpt-5.5",
				Key: "2026-11-23T19:50:03.000Z 2400 1000 0 20 0", Tokens: event.Usage{InputTokens: 1200, CacheReadTokens: 200, OutputTokens: 12, ReasoningTokens: 5, Has: all},
			}},
		},
		{
			"keys in another order: read all the same",
			[]string{
				`{"payload":{"id":"t1","type":"x"},"type":"session_meta","timestamp":"2026-11-23T19:43:54Z"}`,
				`{"payload":{"model":"gpt-5.4"},"type":"turn_context","timestamp":"2026-11-23T19:43:54Z"}`,
				`{"payload":{"info":{"last_token_usage":{"input_tokens":5,"output_tokens":1}},"type":"token_count"},"type":"event_msg","timestamp":"2026-11-23T19:43:55Z"}`,
			},
			[]codexsession.Usage{{Time: at("2026-11-23T19:43:55Z"), ThreadID: "t1", Model: "gpt-5.4", Key: "2026-11-23T19:43:55Z 5 0 0 1 0", Tokens: event.Usage{InputTokens: 5, OutputTokens: 1, Has: event.HasInput | event.HasOutput}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, readUsage(t, strings.NewReader(strings.Join(tt.in, "\n")+"\n"))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Every rollout of testdata read whole, one byte at a time and in halves
// gives the same usage.
func TestReadUsageReaders(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob(filepath.Join("..", "..", "testdata", "codex-session", "*.jsonl"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	some := 0
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want := readUsage(t, bytes.NewReader(data))
		some += len(want)
		for _, r := range []struct {
			name string
			r    io.Reader
		}{{"OneByteReader", iotest.OneByteReader(bytes.NewReader(data))}, {"HalfReader", iotest.HalfReader(bytes.NewReader(data))}} {
			if diff := cmp.Diff(want, readUsage(t, r.r)); diff != "" {
				t.Errorf("%s through %s (-whole +got):\n%s", name, r.name, diff)
			}
		}
	}
	if some == 0 {
		t.Error("no usage in any rollout")
	}
}

func TestReadUsageBadLines(t *testing.T) {
	t.Parallel()
	in := meta + "\n" + `{"type":"event_msg","payload":{"type":"token_count", oops}` + "\n" + context + "\n"
	err := codexsession.ReadUsage(strings.NewReader(in), func(*codexsession.Usage) {})
	var pe *event.ParseError
	if !errors.As(err, &pe) || pe.Offset != int64(len(meta)+1) {
		t.Errorf("err = %v, want a ParseError at offset %d", err, len(meta)+1)
	}
}

func TestLooksLikeRollout(t *testing.T) {
	t.Parallel()
	names, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "codex-session", "codex-*.jsonl"))
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			t.Fatal(err)
		}
		if !codexsession.LooksLikeRollout(data) {
			t.Errorf("%s: not a rollout", n)
		}
	}
	for _, s := range []string{"", `{"type":"session_meta"}`, `{"timestamp":"x","type":"event_msg","payload":{"type":"session_meta","payload":{`, `{"type":"thread.started","thread_id":"t"}`} {
		if codexsession.LooksLikeRollout([]byte(s)) {
			t.Errorf("%q: a rollout", s)
		}
	}
}

// all is every count of a usage.
const all = event.HasTokens | event.HasCacheRead | event.HasCacheWrite | event.HasReasoning
