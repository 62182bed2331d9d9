package openairesp

import (
	"bytes"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"strconv"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/openai"
	wire "github.com/agentstream/agentstream/internal/wire/openai/respwire"
)

// TestFastDeltas: the delta events, which the encoder writes without
// encoding/json, are the bytes encoding/json writes for textDelta,
// summaryDelta and argsDelta.
func TestFastDeltas(t *testing.T) {
	t.Parallel()
	tricky := []string{
		`plain`, `"q" \ / <a href="x">&amp;</a>`, "\x00\x01\b\f\n\r\t\x1f\x7f", "line\u2028sep\u2029", "bad \xff\xfe utf8 \xc3",
		"é日👩‍💻 " + string(bytes.Repeat([]byte("€"), 30)),
	}
	for _, s := range tricky {
		for idx, id := range []string{"msg_1", "é\"<"} {
			fast, slow := NewEncoder(new(bytes.Buffer), nil), NewEncoder(new(bytes.Buffer), nil)
			fast.deltas(wire.EvTextDelta, id, idx, `"content_index":`, 0, s, `,"logprobs":[]`, nil)
			fast.deltas(wire.EvSummaryDelta, id, idx, `"summary_index":`, 0, s, "", nil)
			fast.argDeltas(wire.EvArgsDelta, id, idx, s)
			for rest := s; rest != ""; {
				var p string
				p, rest = openai.Cut(rest)
				slow.event(wire.EvTextDelta, textDelta{Type: wire.EvTextDelta, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, Delta: p, Logprobs: []any{}})
			}
			for rest := s; rest != ""; {
				var p string
				p, rest = openai.Cut(rest)
				slow.event(wire.EvSummaryDelta, summaryDelta{Type: wire.EvSummaryDelta, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, Delta: p})
			}
			for rest := s; rest != ""; {
				var p string
				p, rest = openai.Cut(rest)
				slow.event(wire.EvArgsDelta, argsDelta{Type: wire.EvArgsDelta, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, Delta: p})
			}
			got, want := fast.b.W.(*bytes.Buffer).String(), slow.b.W.(*bytes.Buffer).String()
			if got != want {
				t.Errorf("%q: fast events\n%s\nencoding/json\n%s", s, got, want)
			}
		}
	}
}

// TestFastDone: the done events of a text, refusal and summary part,
// which the encoder writes from the part's text escaped once, are the
// bytes encoding/json writes for textDone, refusalDone, summaryDone,
// partEvent and summaryPartEvent, and the part kept for the item is
// encoding/json's.
func TestFastDone(t *testing.T) {
	t.Parallel()
	tricky := []string{
		``, `plain`, `"q" \ / <a href="x">&amp;</a>`, "\x00\x01\b\f\n\r\t\x1f\x7f", "line\u2028sep\u2029", "bad \xff\xfe utf8 \xc3",
		"é日👩‍💻 " + string(bytes.Repeat([]byte("€"), 30)),
	}
	anns := [][]json.RawMessage{nil, {json.RawMessage(`{"type":"url_citation","url":"u"}`), json.RawMessage(`{"type":"file_path"}`)}}
	for _, s := range tricky {
		for idx, id := range []string{"msg_1", "é\"<"} {
			for _, refusal := range []bool{false, true} {
				for _, a := range anns {
					fast, slow := NewEncoder(new(bytes.Buffer), nil), NewEncoder(new(bytes.Buffer), nil)
					b := fast.newBlock(id)
					b.refusal, b.annotations, b.parts, b.escBad = refusal, a, []json.RawMessage{json.RawMessage(`{}`)}, true
					b.at(idx)
					b.text = append(b.text, s...)
					fast.finishPart(b)
					var p any
					if refusal {
						p = refusalPart{Type: wire.PartRefusal, Refusal: s}
						slow.event(wire.EvRefusalDone, refusalDone{Type: wire.EvRefusalDone, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, ContentIndex: 1, Refusal: s})
					} else {
						if a == nil {
							a = []json.RawMessage{}
						}
						p = textPart{Type: wire.PartOutputText, Annotations: a, Logprobs: []any{}, Text: s}
						slow.event(wire.EvTextDone, textDone{Type: wire.EvTextDone, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, ContentIndex: 1, Text: s, Logprobs: []any{}})
					}
					slow.event(wire.EvPartDone, partEvent{Type: wire.EvPartDone, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, ContentIndex: 1, Part: p})
					got, want := fast.b.W.(*bytes.Buffer).String(), slow.b.W.(*bytes.Buffer).String()
					if got != want {
						t.Errorf("%q: fast events\n%s\nencoding/json\n%s", s, got, want)
					}
					raw, err := openai.Marshal(p)
					if err != nil {
						t.Fatal(err)
					}
					if got := b.parts[1]; !bytes.Equal(got, raw) {
						t.Errorf("%q: part %s, encoding/json %s", s, got, raw)
					}
				}
			}
			fast, slow := NewEncoder(new(bytes.Buffer), nil), NewEncoder(new(bytes.Buffer), nil)
			fast.think = fast.newBlock(id)
			fast.think.escBad = true
			fast.think.at(idx)
			fast.think.text = append(fast.think.text, s...)
			fast.endSummary("")
			p := part{Type: wire.PartSummaryText, Text: s}
			slow.event(wire.EvSummaryDone, summaryDone{Type: wire.EvSummaryDone, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, Text: s})
			slow.event(wire.EvSummaryPartDone, summaryPartEvent{Type: wire.EvSummaryPartDone, Seq: slow.nextSeq(), ItemID: id, OutputIndex: idx, Part: p})
			got, want := fast.b.W.(*bytes.Buffer).String(), slow.b.W.(*bytes.Buffer).String()
			if got != want {
				t.Errorf("%q: fast summary events\n%s\nencoding/json\n%s", s, got, want)
			}
			if raw, _ := openai.Marshal(p); !bytes.Equal(fast.think.parts[0], raw) {
				t.Errorf("%q: summary part %s, encoding/json %s", s, fast.think.parts[0], raw)
			}
		}
	}
}

// TestPartOfDeltas: the part written at the end of a text streamed as
// deltas is encoding/json's for the whole text, also when a delta is not
// valid UTF-8 on its own (a sequence split between deltas, which the
// whole text escapes differently from its pieces).
func TestPartOfDeltas(t *testing.T) {
	t.Parallel()
	pieces := []string{
		"", "plain", `"q" \ <a>&amp;`, "\x00\x1f\x7f", "\u2028", "é日👩‍💻", "\xe2\x82", "\xac and on", "\xff", `\ufffd \\ufffd`, "\ufffd",
		string(bytes.Repeat([]byte("€"), 40)), strings.Repeat("x", 100) + "\xff",
	}
	for _, a := range pieces {
		for _, b := range pieces {
			for _, kind := range []event.BlockKind{event.Text, event.Thinking} {
				e := NewEncoder(new(bytes.Buffer), nil)
				e.delta(&event.Delta{Kind: kind, Text: a})
				e.delta(&event.Delta{Kind: kind, Text: b})
				var got json.RawMessage
				var p any
				if kind == event.Text {
					blk := e.text
					e.finishPart(blk)
					got = blk.parts[0]
					p = textPart{Type: wire.PartOutputText, Annotations: []json.RawMessage{}, Logprobs: []any{}, Text: a + b}
				} else {
					blk := e.think
					e.endSummary("")
					got = blk.parts[0]
					p = part{Type: wire.PartSummaryText, Text: a + b}
				}
				want, err := openai.Marshal(p)
				if err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(got, want) {
					t.Errorf("%q + %q: part %s, encoding/json %s", a, b, got, want)
				}
			}
		}
	}
}

// TestEventTypes: every event type of respwire, which appendTypeHead
// copies without escaping, is written as it is in a JSON string.
func TestEventTypes(t *testing.T) {
	t.Parallel()
	f, err := parser.ParseFile(token.NewFileSet(), "../../internal/wire/openai/respwire/wire.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			for i, name := range v.Names {
				lit, ok := v.Values[i].(*ast.BasicLit)
				if !strings.HasPrefix(name.Name, "Ev") || !ok {
					continue
				}
				typ, err := strconv.Unquote(lit.Value)
				if err != nil {
					t.Fatal(err)
				}
				n++
				if got := string(jsontext.AppendMarshalString(nil, typ)); got != `"`+typ+`"` {
					t.Errorf("%s = %s is written %s in a JSON string", name.Name, lit.Value, got)
				}
			}
		}
	}
	if n < 20 {
		t.Errorf("found %d event types in respwire, want them all", n)
	}
}

// TestItemEvent: the item events, which the encoder writes by hand, are
// the bytes encoding/json writes for itemEvent.
func TestItemEvent(t *testing.T) {
	t.Parallel()
	for _, typ := range []evType{evItemAdded, evItemDone} {
		for _, idx := range []int{0, 7, 1234} {
			for _, raw := range []string{`{}`, `{"id":"é\"<","type":"message","content":[]}`} {
				fast, slow := NewEncoder(new(bytes.Buffer), nil), NewEncoder(new(bytes.Buffer), nil)
				fast.seq, slow.seq = int64(idx), int64(idx)
				fast.itemEvent(typ, idx, []byte(raw))
				slow.event(typ.name, itemEvent{Type: typ.name, Seq: slow.nextSeq(), OutputIndex: idx, Item: json.RawMessage(raw)})
				if got, want := fast.b.W.(*bytes.Buffer).String(), slow.b.W.(*bytes.Buffer).String(); got != want {
					t.Errorf("itemEvent\n%s\nencoding/json\n%s", got, want)
				}
			}
		}
	}
}

// TestFunctionCall: the events of a function call, which the encoder
// writes by hand but for its deltas, are the bytes encoding/json writes
// for itemEvent, argsDelta, argsDone and functionItem.
func TestFunctionCall(t *testing.T) {
	t.Parallel()
	tricky := []string{
		``, `{}`, `{"a":"\u003c\"q\""}`, `plain`, `"q" \ / <a href="x">&amp;</a>`, "\x00\x1f\x7f\n", "line\u2028sep", "bad \xff\xfe utf8 \xc3",
		"é日👩‍💻 " + strings.Repeat("€", 40),
	}
	for _, args := range tricky {
		for _, s := range []string{"call_1", "é\"<\u2029"} {
			fast, slow := NewEncoder(new(bytes.Buffer), nil), NewEncoder(new(bytes.Buffer), nil)
			fast.functionCall("fc_"+s, &event.ToolCall{ID: s, Name: "f" + s}, args)
			item := functionItem{ID: "fc_" + s, Type: wire.ItemFunctionCall, Status: openai.StatusInProgress, CallID: s, Name: "f" + s}
			itemEv := func(typ string) {
				raw, err := openai.Marshal(item)
				if err != nil {
					t.Fatal(err)
				}
				slow.event(typ, itemEvent{Type: typ, Seq: slow.nextSeq(), Item: raw})
			}
			itemEv(wire.EvItemAdded)
			for rest := args; rest != ""; {
				var p string
				p, rest = openai.Cut(rest)
				slow.event(wire.EvArgsDelta, argsDelta{Type: wire.EvArgsDelta, Seq: slow.nextSeq(), ItemID: item.ID, Delta: p})
			}
			slow.event(wire.EvArgsDone, argsDone{Type: wire.EvArgsDone, Seq: slow.nextSeq(), ItemID: item.ID, Arguments: args})
			item.Status, item.Arguments = openai.StatusCompleted, args
			itemEv(wire.EvItemDone)
			if got, want := fast.b.W.(*bytes.Buffer).String(), slow.b.W.(*bytes.Buffer).String(); got != want {
				t.Errorf("%q: function call events\n%s\nencoding/json\n%s", args, got, want)
			}
		}
	}
}

// TestMessageItem: the message items, which the encoder writes by hand,
// are the bytes encoding/json writes for messageItem.
func TestMessageItem(t *testing.T) {
	t.Parallel()
	for _, id := range []string{"msg_1", "é\"<\u2028", ""} {
		for _, parts := range [][]json.RawMessage{nil, {json.RawMessage(`{"type":"output_text","text":"x"}`), json.RawMessage(`{}`)}} {
			e := NewEncoder(new(bytes.Buffer), nil)
			b := e.newBlock(id)
			b.parts = parts
			for _, c := range []struct {
				got  []byte
				want messageItem
			}{
				{appendMessageAdded([]byte("prefix"), b), messageItem{ID: id, Type: wire.ItemMessage, Status: openai.StatusInProgress, Role: "assistant", Content: []json.RawMessage{}}},
				{appendMessageDone([]byte("prefix"), b), messageItem{ID: id, Type: wire.ItemMessage, Status: openai.StatusCompleted, Role: "assistant", Content: parts}},
			} {
				want, err := openai.Marshal(c.want)
				if err != nil {
					t.Fatal(err)
				}
				if string(c.got) != "prefix"+string(want) {
					t.Errorf("message item %s, encoding/json %s", c.got, want)
				}
			}
		}
	}
}

// TestEmptyParts: the parts the added events carry are encoding/json's.
func TestEmptyParts(t *testing.T) {
	t.Parallel()
	for got, v := range map[string]any{
		emptyTextPart:    textPart{Type: wire.PartOutputText, Annotations: []json.RawMessage{}, Logprobs: []any{}},
		emptyRefusalPart: refusalPart{Type: wire.PartRefusal},
		emptySummaryPart: part{Type: wire.PartSummaryText},
	} {
		if want, err := openai.Marshal(v); err != nil || got != string(want) {
			t.Errorf("%s, encoding/json %s (%v)", got, want, err)
		}
	}
}

// The shapes of the events and parts the encoder writes by hand (deltas,
// done events, added parts), field order as the API writes them: what
// the tests compare its bytes with, through encoding/json.
type (
	partEvent struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		ContentIndex int    `json:"content_index"`
		Part         any    `json:"part"`
	}
	textDelta struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		ContentIndex int    `json:"content_index"`
		Delta        string `json:"delta"`
		Logprobs     []any  `json:"logprobs"`
	}
	textDone struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		ContentIndex int    `json:"content_index"`
		Text         string `json:"text"`
		Logprobs     []any  `json:"logprobs"`
	}
	summaryPartEvent struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		SummaryIndex int    `json:"summary_index"`
		Part         part   `json:"part"`
	}
	summaryDelta struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		SummaryIndex int    `json:"summary_index"`
		Delta        string `json:"delta"`
	}
	summaryDone struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		SummaryIndex int    `json:"summary_index"`
		Text         string `json:"text"`
	}
	part struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	textPart struct {
		Type        string            `json:"type"`
		Annotations []json.RawMessage `json:"annotations"`
		Logprobs    []any             `json:"logprobs"`
		Text        string            `json:"text"`
	}
	refusalPart struct {
		Type    string `json:"type"`
		Refusal string `json:"refusal"`
	}
	refusalDone struct {
		Type         string `json:"type"`
		Seq          int64  `json:"sequence_number"`
		ItemID       string `json:"item_id"`
		OutputIndex  int    `json:"output_index"`
		ContentIndex int    `json:"content_index"`
		Refusal      string `json:"refusal"`
	}
	argsDelta struct {
		Type        string `json:"type"`
		Seq         int64  `json:"sequence_number"`
		ItemID      string `json:"item_id"`
		OutputIndex int    `json:"output_index"`
		Delta       string `json:"delta"`
	}
)

// TestResponseText: responses of other ids, objects, creation times and
// models, written one after the other by one encoder (which writes a
// turn's id and model once), are encoding/json's.
func TestResponseText(t *testing.T) {
	t.Parallel()
	base := outResponse{ID: "resp_1", Object: "response", CreatedAt: 5, Status: openai.StatusInProgress, Model: "m", Output: []json.RawMessage{}}
	var rs []outResponse
	for i, change := range []func(*outResponse){
		func(*outResponse) {},
		func(r *outResponse) { r.ID = "resp_2\"é" },
		func(r *outResponse) { r.Object = "other" },
		func(r *outResponse) { r.CreatedAt = 0 },
		func(r *outResponse) { r.Model = "" },
		func(r *outResponse) {
			r.Status, r.IncompleteDetails = openai.StatusIncomplete, &incomplete{Reason: "max_output_tokens"}
		},
	} {
		r := base
		r.Output = []json.RawMessage{json.RawMessage(`{"n":` + strconv.Itoa(i) + `}`)}
		change(&r)
		rs = append(rs, r, base)
	}
	fast, slow := NewEncoder(new(bytes.Buffer), nil), NewEncoder(new(bytes.Buffer), nil)
	for _, r := range rs {
		fast.respEvents(&r, evCompleted)
		want, err := openai.Marshal(respEvent{Type: wire.EvCompleted, Seq: slow.nextSeq(), Response: r})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(slow.b.W, "event: %s\ndata: %s\n\n", wire.EvCompleted, want)
	}
	if got, want := fast.b.W.(*bytes.Buffer).String(), slow.b.W.(*bytes.Buffer).String(); got != want {
		t.Errorf("respEvents\n%s\nencoding/json\n%s", got, want)
	}
}

// sameResponse checks that the events about r, written from its bytes
// made once, are encoding/json's.
func sameResponse(t *testing.T, r outResponse) {
	t.Helper()
	fast, slow := NewEncoder(new(bytes.Buffer), nil), NewEncoder(new(bytes.Buffer), nil)
	fast.respEvents(&r, evCreated, evInProgress)
	for _, typ := range []string{wire.EvCreated, wire.EvInProgress} {
		want, err := openai.Marshal(respEvent{Type: typ, Seq: slow.nextSeq(), Response: r})
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(slow.b.W, "event: %s\ndata: %s\n\n", typ, want)
	}
	if got, want := fast.b.W.(*bytes.Buffer).String(), slow.b.W.(*bytes.Buffer).String(); got != want {
		t.Errorf("respEvents\n%s\nencoding/json\n%s", got, want)
	}
}
