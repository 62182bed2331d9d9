package claudesession_test

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
	"github.com/agentstream/agentstream/parse/claudesession"
)

func readUsage(t *testing.T, r io.Reader) []claudesession.Usage {
	t.Helper()
	var out []claudesession.Usage
	if err := claudesession.ReadUsage(r, func(u *claudesession.Usage) { out = append(out, *u) }); err != nil {
		t.Fatal(err)
	}
	return out
}

func ts(s string) time.Time {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		panic(err)
	}
	return t
}

func ptr[T any](v T) *T { return &v }

func TestReadUsage(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		want     []claudesession.Usage
	}{
		{
			"assistant line",
			`{"parentUuid":null,"isSidechain":false,"cwd":"/w","sessionId":"s1","version":"2.1.197","message":{"id":"msg_1","model":"claude-opus-4-8","role":"assistant","content":[{"type":"text","text":"\"usage\" in text"}],"usage":{"input_tokens":42,"output_tokens":7,"cache_creation_input_tokens":30,"cache_read_input_tokens":100,"cache_creation":{"ephemeral_5m_input_tokens":10,"ephemeral_1h_input_tokens":20}}},"requestId":"req_1","type":"assistant","uuid":"u1","timestamp":"2026-11-23T19:43:28.897Z"}`,
			[]claudesession.Usage{{
				Time: ts("2026-11-23T19:43:28.897Z"), SessionID: "s1", MessageID: "msg_1", RequestID: "req_1", Model: "claude-opus-4-8",
				Cwd: "/w", Version: "2.1.197", CacheWrite1h: 20,
				Tokens: event.Usage{InputTokens: 42, OutputTokens: 7, CacheWriteTokens: 30, CacheReadTokens: 100, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasCacheWrite},
			}},
		},
		{
			"a subagent's line, and its own cost",
			`{"isSidechain":true,"agentId":"a1","sessionId":"s1","type":"assistant","timestamp":"2026-11-23T19:43:29Z","requestId":"r","costUSD":0.25,"message":{"id":"m","model":"claude-haiku-4-5","usage":{"input_tokens":1,"output_tokens":2}}}`,
			[]claudesession.Usage{{
				Time: ts("2026-11-23T19:43:29Z"), SessionID: "s1", AgentID: "a1", Sidechain: true, MessageID: "m", RequestID: "r",
				Model: "claude-haiku-4-5", CostUSD: ptr(0.25), Tokens: event.Usage{InputTokens: 1, OutputTokens: 2, Has: event.HasInput | event.HasOutput},
			}},
		},
		{
			"a progress line of an older version: the subagent's message inside",
			`{"sessionId":"s1","version":"1.2.3","type":"progress","data":{"message":{"type":"assistant","timestamp":"2026-03-10T06:00:01.000Z","message":{"model":"claude-haiku-4-5-20251001","id":"msg_h","usage":{"input_tokens":20,"output_tokens":2}},"requestId":"req_h"}},"timestamp":"2026-03-10T06:00:01.001Z"}`,
			[]claudesession.Usage{{
				Time: ts("2026-03-10T06:00:01Z"), SessionID: "s1", Version: "1.2.3", MessageID: "msg_h", RequestID: "req_h",
				Model: "claude-haiku-4-5-20251001", Progress: true, Tokens: event.Usage{InputTokens: 20, OutputTokens: 2, Has: event.HasInput | event.HasOutput},
			}},
		},
		{
			"keys in capitals: encoding/json decides, as it matches them",
			`{"Type":"assistant","TimeStamp":"2026-01-01T00:00:00Z","message":{"id":"m","usage":{"input_tokens":3,"output_tokens":1}}}`,
			[]claudesession.Usage{{Time: ts("2026-01-01T00:00:00Z"), MessageID: "m", Tokens: event.Usage{InputTokens: 3, OutputTokens: 1, Has: event.HasInput | event.HasOutput}}},
		},
		{
			"no usage, no timestamp, a user line, a cut last line: nothing",
			`{"type":"user","timestamp":"2026-01-01T00:00:00Z","message":{"role":"user","content":"usage"}}` + "\n" +
				`{"type":"assistant","message":{"id":"m","usage":{"input_tokens":1}}}` + "\n" +
				`{"type":"assistant","timestamp":"2026-01-01T00:00:00Z","message":{"id":"m","usage":{"input_tok`,
			nil,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if diff := cmp.Diff(tt.want, readUsage(t, strings.NewReader(tt.in))); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Every session log of testdata read whole, one byte at a time and in
// halves gives the same usage; and as many lines as the log has assistant
// lines with usage.
func TestReadUsageReaders(t *testing.T) {
	t.Parallel()
	names, err := filepath.Glob(filepath.Join("..", "..", "testdata", "claude-session", "*.jsonl"))
	if err != nil || len(names) == 0 {
		t.Fatalf("no testdata: %v", err)
	}
	for _, name := range names {
		data, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		want := readUsage(t, bytes.NewReader(data))
		n := 0
		for _, l := range bytes.Split(data, []byte("\n")) {
			if bytes.Contains(l, []byte(`"type":"assistant"`)) && bytes.Contains(l, []byte(`"usage":{`)) && bytes.Contains(l, []byte(`"timestamp"`)) && bytes.HasSuffix(bytes.TrimSpace(l), []byte("}")) {
				n++
			}
		}
		if len(want) != n {
			t.Errorf("%s: %d usage lines, want %d", name, len(want), n)
		}
		for _, r := range []struct {
			name string
			r    io.Reader
		}{{"OneByteReader", iotest.OneByteReader(bytes.NewReader(data))}, {"HalfReader", iotest.HalfReader(bytes.NewReader(data))}} {
			if diff := cmp.Diff(want, readUsage(t, r.r)); diff != "" {
				t.Errorf("%s through %s (-whole +got):\n%s", name, r.name, diff)
			}
		}
	}
}

func TestReadUsageError(t *testing.T) {
	t.Parallel()
	err := claudesession.ReadUsage(iotest.ErrReader(io.ErrClosedPipe), func(*claudesession.Usage) {})
	if err != io.ErrClosedPipe {
		t.Errorf("err = %v, want the reader's", err)
	}
}

// A line longer than the reader's buffer, between two short ones, and a
// last line without a line end.
func TestReadUsageLongLine(t *testing.T) {
	t.Parallel()
	mk := func(id, text string) string {
		return `{"type":"assistant","timestamp":"2026-01-01T00:00:00Z","requestId":"r","message":{"id":"` + id + `","content":[{"type":"text","text":"` + text + `"}],"usage":{"input_tokens":1,"output_tokens":2}}}`
	}
	in := mk("a", "x") + "\n" + mk("b", strings.Repeat("y", 600<<10)) + "\n" + mk("c", "z")
	var ids []string
	for _, u := range readUsage(t, strings.NewReader(in)) {
		ids = append(ids, u.MessageID)
	}
	if diff := cmp.Diff([]string{"a", "b", "c"}, ids); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
}

// Lines that report usage but are not JSON: the others are read, and the
// bad ones reported once, at the first one's offset.
func TestReadUsageBadLines(t *testing.T) {
	t.Parallel()
	good := `{"type":"assistant","timestamp":"2026-01-01T00:00:00Z","message":{"id":"m","usage":{"input_tokens":1}}}`
	in := good + "\n" + `not json "usage"` + "\n" + good + "\n" + `{"usage": oops}` + "\n"
	var n int
	err := claudesession.ReadUsage(strings.NewReader(in), func(*claudesession.Usage) { n++ })
	var pe *event.ParseError
	if !errors.As(err, &pe) || !errors.Is(err, event.ErrSyntax) || pe.Offset != int64(len(good)+1) || !strings.Contains(err.Error(), "2 line(s)") {
		t.Errorf("err = %v, want a ParseError at offset %d for 2 lines", err, len(good)+1)
	}
	if n != 2 {
		t.Errorf("%d lines read, want 2", n)
	}
}
