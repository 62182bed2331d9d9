package jsonenv

import (
	"bytes"
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/agentmeta"
	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
)

// refMetaInit is the meta_init payload through encoding/json, as the
// encoder wrote it before AppendInit.
func refMetaInit(ev *event.SessionStart) []byte {
	m := agentmeta.Init{
		Format: "json", AgentUUID: ev.Agent, Model: ev.Model, SessionID: ev.SessionID,
		Tools: ev.Tools, Cwd: ev.Cwd, ParentToolID: ev.ParentToolID, Name: ev.Name, Description: ev.Description,
	}
	m.UserQuery, _ = json.Marshal(ev.Prompt)
	if ev.ParentAgent != "" {
		m.ParentAgentUUID = &ev.ParentAgent
	}
	return marshalNoHTML(m)
}

// refMetaFinal is the meta_final payload through encoding/json.
func refMetaFinal(ev *event.RunEnd) []byte {
	m := agentmeta.Final{
		StopReason: agentmeta.OptString(ev.StopReason), TotalSteps: ev.Turns, TotalCostUSD: ev.CostUSD,
		DurationMS: ev.DurationMS, IsError: ev.IsError, Errors: ev.Errors, Result: ev.Result,
	}
	if u := ev.Usage; u != nil {
		m.CumulativeUsage = &agentmeta.Usage{
			InputTokens: u.InputTokens, OutputTokens: u.OutputTokens,
			CacheReadInputTokens: u.CacheReadTokens, CacheCreationInputTokens: u.CacheWriteTokens,
			ReasoningOutputTokens: u.ReasoningTokens, ServiceTier: u.ServiceTier, Has: u.Has,
		}
	}
	return marshalNoHTML(m)
}

// refErrorPayload is errorPayload as it was written with json.Unmarshal
// and encoding/json.
func refErrorPayload(ev *event.Error) []byte {
	var p wire.ErrorPayload
	if len(ev.Raw) > 0 && json.Unmarshal(ev.Raw, &p) == nil && p.Type == ev.Type && p.Message == ev.Message {
		return ev.Raw
	}
	var se struct {
		Error     *string `json:"error"`
		Message   string  `json:"message"`
		Traceback *string `json:"traceback"`
	}
	if ev.Fatal && len(ev.Raw) > 0 && json.Unmarshal(ev.Raw, &se) == nil && se.Error != nil && se.Traceback != nil &&
		*se.Error == ev.Type && se.Message == ev.Message {
		return ev.Raw
	}
	return []byte(marshal(wire.ErrorPayload{Type: ev.Type, Message: ev.Message}))
}

// metaStrings are strings around what encoding/json escapes.
var metaStrings = []string{
	"", "plain", `"quoted" \ back\slash`, "line\nbreak\r\ttab\b\f", "\x00\x01\x1f\x7f", "<&>'", "a<b>c&d",
	"é测🦊", "\u2028\u2029", "\ufffd", "bad \xff utf8 \xed\xa0\x80 \xc2", "\xf4\x90\x80\x80", "\xe2<\x80>\xa8&",
	strings.Repeat("long plain text ", 40) + "é",
}

var metaCosts = []float64{0, 0.00066, 1, 1.5, 12345.678, 1e-7, 1e21, 1e20, -2.5e-9, 123456789e-15, math.MaxFloat64, math.SmallestNonzeroFloat64, math.NaN(), math.Inf(-1)}

// checkQuoted checks that q is plain escaped as the envelope's delta
// holds it (jsontext.AppendString, without the quotes).
func checkQuoted(t *testing.T, plain, q []byte) {
	t.Helper()
	want := jsontext.AppendString(nil, string(plain))
	if diff := cmp.Diff(string(want[1:len(want)-1]), string(q)); diff != "" {
		t.Fatalf("quoted form of %q (-AppendString +quoted):\n%s", plain, diff)
	}
}

func checkMetaInit(t *testing.T, w *metaWriter, ev *event.SessionStart) {
	t.Helper()
	got := w.spelling(plain).AppendInit([]byte("x")[:0], ev.Agent, ev)
	if diff := cmp.Diff(string(refMetaInit(ev)), string(got)); diff != "" {
		t.Fatalf("AppendInit(%+v) (-encoding/json +append):\n%s", ev, diff)
	}
	checkQuoted(t, got, w.spelling(quoted).AppendInit(nil, ev.Agent, ev))
}

func checkMetaFinal(t *testing.T, w *metaWriter, ev *event.RunEnd) {
	t.Helper()
	got, ok := w.spelling(plain).AppendFinal(nil, ev)
	if !ok {
		if c := ev.CostUSD; c == nil || !math.IsNaN(*c) && !math.IsInf(*c, 0) {
			t.Fatalf("AppendFinal(%+v) declined", ev)
		}
		got = marshalMetaFinal(ev)
	} else {
		q, _ := w.spelling(quoted).AppendFinal(nil, ev)
		checkQuoted(t, got, q)
	}
	if diff := cmp.Diff(string(refMetaFinal(ev)), string(got)); diff != "" {
		t.Fatalf("AppendFinal(%+v) (-encoding/json +append):\n%s", ev, diff)
	}
}

func checkErrorPayload(t *testing.T, w *metaWriter, r *jsontext.Reader, ev *event.Error) {
	t.Helper()
	got, ok := sourceError(r, new(wire.ErrorPayload), ev)
	if !ok {
		got = w.appendErrorObject([]byte("scratch")[:0], ev.Type, ev.Message, plain)
		checkQuoted(t, got, w.appendErrorObject(nil, ev.Type, ev.Message, quoted))
	}
	if diff := cmp.Diff(string(refErrorPayload(ev)), string(got)); diff != "" {
		t.Fatalf("error payload of %+v (-encoding/json +append):\n%s", ev, diff)
	}
}

func TestAppendMeta(t *testing.T) {
	t.Parallel()
	var r jsontext.Reader
	var w metaWriter
	for i, s := range metaStrings {
		o := metaStrings[(i+1)%len(metaStrings)]
		c := metaCosts[i%len(metaCosts)]
		for _, ev := range []*event.SessionStart{
			{},
			{Prompt: s, Model: o},
			{Agent: s, Prompt: o, ParentAgent: s, Model: s, SessionID: o, Tools: []string{s, o}, Cwd: s, ParentToolID: o, Name: s, Description: o},
			{Tools: []string{}},
			{Tools: []string{s}},
			{ParentAgent: o, Name: s},
		} {
			checkMetaInit(t, &w, ev)
		}
		for _, ev := range []*event.RunEnd{
			{},
			{StopReason: s, Result: o},
			{
				StopReason: s, Turns: i, DurationMS: int64(i) * 1000, CostUSD: &c, IsError: true, Errors: []string{s, o}, Result: s,
				Usage: &event.Usage{InputTokens: 1, OutputTokens: 2, CacheReadTokens: 3, CacheWriteTokens: 4, ReasoningTokens: 5, ServiceTier: o, Has: event.HasInput | event.HasOutput | event.HasCacheRead | event.HasCacheWrite | event.HasReasoning},
			},
			{Usage: &event.Usage{}, Errors: []string{}},
			{Usage: &event.Usage{ServiceTier: s}, CostUSD: &c},
			{Turns: -1, DurationMS: -5, Errors: []string{""}},
		} {
			checkMetaFinal(t, &w, ev)
		}
		raw := string(w.appendErrorObject(nil, s, o, plain))
		for _, ev := range []*event.Error{
			{Type: s, Message: o},
			{Type: s, Message: o, Raw: json.RawMessage(raw)},
			{Type: o, Message: s, Raw: json.RawMessage(raw)},
			{Type: s, Message: o, Raw: json.RawMessage(`{"TYPE":` + string(jsontext.AppendString(nil, s)) + `,"message":` + string(jsontext.AppendString(nil, o)) + `}`)},
			{Type: s, Message: o, Raw: json.RawMessage(`{"type":"error","error":{"type":"x"}}`)},
			{Type: s, Message: o, Raw: json.RawMessage(`["not an object"]`)},
			{Type: s, Message: o, Raw: json.RawMessage(raw[:len(raw)/2])},
			{Type: s, Message: o, Fatal: true, Raw: json.RawMessage(`{"error":` + string(jsontext.AppendString(nil, s)) + `,"message":` + string(jsontext.AppendString(nil, o)) + `,"traceback":""}`)},
		} {
			checkErrorPayload(t, &w, &r, ev)
		}
	}
	for _, c := range metaCosts {
		checkMetaFinal(t, &w, &event.RunEnd{CostUSD: &c})
	}
}

func FuzzAppendMeta(f *testing.F) {
	for i, s := range metaStrings {
		f.Add(s, metaStrings[(i+1)%len(metaStrings)], metaCosts[i%len(metaCosts)], int64(i), uint8(i), []byte(`{"type":"a","message":"b"}`))
	}
	var r jsontext.Reader
	var w metaWriter
	f.Fuzz(func(t *testing.T, a, b string, cost float64, n int64, mask uint8, raw []byte) {
		in := &event.SessionStart{Agent: b, Prompt: a, Model: b}
		end := &event.RunEnd{StopReason: a, Result: b, Turns: int(n % 1000), DurationMS: n}
		if mask&1 != 0 {
			in.ParentAgent, end.CostUSD = b, &cost
		}
		if mask&2 != 0 {
			in.SessionID, in.Cwd = a, b
			end.Usage = &event.Usage{InputTokens: n, OutputTokens: n / 2, CacheReadTokens: n % 7, ServiceTier: b, Has: event.HasInput | event.HasOutput | event.HasCacheRead}
		}
		if mask&4 != 0 {
			in.ParentToolID, in.Name, in.Description = b, a, b
			end.IsError, end.Errors = true, []string{b, a}
		}
		if mask&8 != 0 {
			in.Tools = strings.Split(a, "\x00")
		}
		checkMetaInit(t, &w, in)
		checkMetaFinal(t, &w, end)
		checkErrorPayload(t, &w, &r, &event.Error{Type: a, Message: b, Raw: raw, Fatal: mask&16 != 0})
	})
}

// TestBuiltEnvelopes checks that a payload built quoted is written as
// payload writes its plain text, whether or not it fits one envelope.
func TestBuiltEnvelopes(t *testing.T) {
	t.Parallel()
	cost := 0.25
	for _, max := range []int{0, 40, 90, 120, 200, 400, 1000} {
		for _, n := range []int{0, 1, 10, 50, 100, 150, 300, 2000, 5000} {
			s := strings.Repeat(`a"b\c<`, n/6+1)[:n]
			var w metaWriter
			for _, ev := range []event.Event{
				&event.SessionStart{Agent: "ag", Prompt: s, Model: "m"},
				&event.SessionStart{Agent: "ag", Prompt: "p", Cwd: s},
				&event.Error{Agent: "ag", Type: "t", Message: s},
				&event.TurnEnd{Agent: "ag", Error: "e" + s},
				&event.RunEnd{Agent: "ag", Result: s, CostUSD: &cost},
			} {
				var got, want bytes.Buffer
				cfg := &Config{MaxChunkBytes: max}
				if err := NewEncoder(&got, cfg).Encode(ev); err != nil {
					t.Fatal(err)
				}
				ref := NewEncoder(&want, cfg)
				var typ string
				var text []byte
				switch ev := ev.(type) {
				case *event.SessionStart:
					typ, text = wire.TypeMetaInit, w.spelling(plain).AppendInit(nil, ev.Agent, ev)
				case *event.Error:
					typ, text = wire.TypeError, w.appendErrorObject(nil, ev.Type, ev.Message, plain)
				case *event.TurnEnd:
					typ, text = wire.TypeError, w.appendErrorObject(nil, "turn_failed", ev.Error, plain)
				case *event.RunEnd:
					typ = wire.TypeMetaFinal
					text, _ = w.spelling(plain).AppendFinal(nil, ev)
				}
				ref.payload(typ, "ag", string(text), true)
				if diff := cmp.Diff(want.String(), got.String()); diff != "" {
					t.Fatalf("MaxChunkBytes %d, %T of %d bytes (-payload +built):\n%s", max, ev, n, diff)
				}
			}
		}
	}
}
