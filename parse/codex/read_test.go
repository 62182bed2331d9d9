package codex

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/internal/jsontext"
	wire "github.com/agentstream/agentstream/internal/wire/codex"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// lineSeeds are the corpus's lines and a few odd ones (the readers'
// seeds are internal/wire/codex's).
func lineSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../testdata/codex/*.jsonl")
	return wiretest.JSONLines(t, files,
		`{"type":"item.completed","item":{"id":"a","type":"agent_message","text":"x","id":"b"}}`,
		`{"type":"item.completed","item":{"id":"m","type":"mcp_tool_call","arguments":{"id":1},"id":"n"}}`,
		`{"type":"item.started","item":{"id":"c","type":"collab_tool_call","tool":"spawn_agent","agents_states":{"a":{}}}}`,
	)
}

// TestFirstID: an item's id is the value of its first id member, as
// encoding/json reads it (the last one's when it has one id member).
func TestFirstID(t *testing.T) {
	t.Parallel()
	for _, s := range append(lineSeeds(t),
		[]byte(`{"item":{"id":"a","type":"web_search","id":"b"}}`), []byte(`{"item":{"id":"a\\\"b","id":"c"}}`), []byte(`{"item":{"type":"x","id":"a","id":"b"}}`),
		[]byte(`{"item":{"id":"a","ID":"b"}}`), []byte(`{"item":{"ID":"b","id":"a"}}`), []byte(`{"item":{"id":"\u0061","q":{"id":"c"}}}`),
		[]byte(`{"item":{"q":"\"id\"","id":"a"}}`), []byte(`{"item":{"id":null,"id":"a"}}`), []byte(`{"item":{"id":"a","id":null}}`),
	) {
		checkFirstID(t, s)
	}
}

func checkFirstID(t *testing.T, line []byte) {
	var l struct{ Item json.RawMessage }
	if json.Unmarshal(line, &l) != nil || !utf8.Valid(l.Item) {
		return
	}
	var it wire.Item
	if json.Unmarshal(l.Item, &it) != nil {
		return
	}
	want := it.ID
	fs, _ := fields(l.Item)
	var ids []field
	for _, f := range fs {
		if f.Key == "id" {
			ids = append(ids, f)
		}
	}
	if len(ids) > 1 {
		want = ""
		json.Unmarshal(ids[0].Value, &want)
	}
	if got := firstID(l.Item, it.ID); got != want {
		t.Errorf("%s: id %q, want %q", l.Item, got, want)
	}
}

func FuzzFirstID(f *testing.F) {
	for _, s := range lineSeeds(f) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, line []byte) { checkFirstID(t, line) })
}

// TestObject: object's one pass writes what objectSlow does.
func TestObject(t *testing.T) {
	t.Parallel()
	var r jsontext.Reader
	drop := []string{"id", "type", "item_type", "status", "tool", "agents_states"}
	for _, s := range append(lineSeeds(t),
		[]byte(`{"item":{"id":"a","id":"b","x<y":1,"type":"t","q":{"id":2}}}`),
		[]byte(`{"item":{"a\u0041":1,"id":"x"}}`),
		[]byte(`{"item":{ "a" : [1, 2] , "id" : "x" }}`),
	) {
		var l struct{ Item json.RawMessage }
		if json.Unmarshal(s, &l) != nil || len(l.Item) == 0 || l.Item[0] != '{' {
			continue
		}
		for n := range drop {
			if diff := cmp.Diff(string(objectSlow(l.Item, drop[:n]...)), string(object(&r, l.Item, drop[:n]...))); diff != "" {
				t.Errorf("%s without %v (-slow +one pass):\n%s", l.Item, drop[:n], diff)
			}
		}
	}
}

// TestMCPPart: mcpPart's one pass gives what mcpPartSlow does.
func TestMCPPart(t *testing.T) {
	t.Parallel()
	var r jsontext.Reader
	for _, b := range []string{
		`{"type":"text","text":"a"}`, `{"type":"text","text":"a","x":1}`, `{"type":"text"}`,
		`{"type":"text","text":null}`, `{"text":"a","type":"text","type":7}`, `{"type":"image","data":"AA==","mimeType":"image/png"}`,
		`{"type":"image","data":"AA==","mimeType":"image/png","text":"x"}`, `{"type":"image","data":"AA=="}`,
		`{"type":"resource","resource":{"uri":"u"}}`, `{"type":"Text","Text":"a"}`, `{"type":"text","te\u0078t":"a"}`,
		`{ "type" : "text" , "text" : "a" }`, `[1]`, `"s"`, `{}`, `{"type":"text","text":"a","type":"image"}`,
	} {
		if diff := cmp.Diff(mcpPartSlow([]byte(b)), mcpPart(&r, []byte(b))); diff != "" {
			t.Errorf("%s (-slow +one pass):\n%s", b, diff)
		}
	}
}

// agentStates are agents_states values, odd ones included.
var agentStates = []string{
	`{}`, `{"a":{"status":"running","message":null}}`, `{"a":{"status":"completed","message":"done"}}`,
	`{"b":{"message":"2"},"a":{"message":"1"},"c":{"message":"3"}}`, `{"a":{"message":"x"},"a":{"status":"running"}}`,
	`{"a":{"message":"x","message":null}}`, `{"a":{"message":"x","Message":"y"}}`, `{"a":null,"b":{"message":""}}`,
	`{"a":{"status":1,"message":"x"}}`, `{"a":{"status":null,"message":"x\n\u00e9"}}`, `{"a":"x"}`, `{"a":{"message":1}}`,
	`{"\u0061":{"message":"x"}}`, `{"A":{"message":"x"}}`, `{"a":{"message":"x","other":[1,{"m":2}]}}`, `[]`, `null`,
	`{"a":{"message":"x"}`, ` { "a" : { "message" : "x" } } `,
}

// TestAgentMessages: agentMessages's one pass gives what
// agentMessagesSlow does, whatever the receivers.
func TestAgentMessages(t *testing.T) {
	t.Parallel()
	var d Decoder
	for _, states := range agentStates {
		for _, recv := range [][]string{nil, {"a"}, {"c", "a"}, {"a", "a"}, {"z"}} {
			it := &wire.Item{AgentsStates: json.RawMessage(states), ReceiverThreadIDs: recv}
			if diff := cmp.Diff(agentMessagesSlow(it), d.agentMessages(it)); diff != "" {
				t.Errorf("%s, receivers %q (-slow +one pass):\n%s", states, recv, diff)
			}
		}
	}
}

func FuzzAgentMessages(f *testing.F) {
	for _, s := range agentStates {
		f.Add([]byte(s), "a")
	}
	f.Fuzz(func(t *testing.T, states []byte, recv string) {
		if !utf8.Valid(states) {
			return // the decoder's input went through badutf8.Fix
		}
		var d Decoder
		it := &wire.Item{AgentsStates: states, ReceiverThreadIDs: strings.Split(recv, ",")}
		if diff := cmp.Diff(agentMessagesSlow(it), d.agentMessages(it)); diff != "" {
			t.Errorf("%s, receivers %q (-slow +one pass):\n%s", states, recv, diff)
		}
	})
}

// TestResetLine: resetLine zeroes every field of a Line but the item's
// Item, which the reader zeroes when the line has an item.
func TestResetLine(t *testing.T) {
	t.Parallel()
	var l wire.Line
	fill(reflect.ValueOf(&l).Elem())
	resetLine(&l)
	l.Item.Item = wire.Item{}
	if !reflect.ValueOf(l).IsZero() {
		t.Errorf("resetLine left %+v", l)
	}
}

// fill sets every exported field of v, down to the leaves, to a value
// other than zero.
func fill(v reflect.Value) {
	switch v.Kind() {
	case reflect.String:
		v.SetString("x")
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Int, reflect.Int64:
		v.SetInt(1)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem())
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0))
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i))
			}
		}
	}
}

// TestFailedAgain: a turn.failed line that repeats the error line before
// it gives the message that line alone gives, whatever the text between
// the shapes holds (members after the message too), and a line that only
// looks alike is read.
func TestFailedAgain(t *testing.T) {
	t.Parallel()
	const start = `{"type":"thread.started","thread_id":"th"}` + "\n" + `{"type":"turn.started"}` + "\n"
	failedErr := func(in string) (msg string, repeated bool) {
		d := NewDecoder(strings.NewReader(in), nil)
		for _, it := range eventtest.Collect(d) {
			if e, ok := it.Event.(*event.TurnEnd); ok {
				msg = e.Error
			}
		}
		return msg, d.ln.Type != wire.TypeTurnFailed // the turn.failed line was not read
	}
	tests := []struct {
		name, text string // the message's text, as written
		failed     string // the turn.failed line's, if not the same
		repeated   bool   // the turn.failed line is taken as repeated
	}{
		{"plain", `overloaded`, "", true},
		{"escapes", `{\"error\": \"x\\\"\u00e9\"}`, "", true},
		{"members after", `a","x":{"message":"b"},"y":"`, "", true},
		{"message again", `a","message":"b`, "", true},
		{"message null, then again", `a","message":null,"message":"b`, "", true},
		{"message null", `a","message":null,"z":"`, "", false}, // an error line without a message
		{"empty", ``, "", false},
		{"another message", `overloaded`, `overloaded!`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			failed := tt.failed
			if failed == "" {
				failed = tt.text
			}
			line := `{"type":"turn.failed","error":{"message":"` + failed + `"}}` + "\n"
			want, _ := failedErr(start + line)
			got, repeated := failedErr(start + `{"type":"error","message":"` + tt.text + `"}` + "\n" + line)
			if got != want || repeated != tt.repeated {
				t.Errorf("turn.failed's error %q (repeated: %v), want %q (%v)", got, repeated, want, tt.repeated)
			}
		})
	}
}

// TestStringLines: a thread.started or an error line as Codex writes it,
// whose string decode takes without reading the line whole (lineString),
// gives the events the line read whole gives (the same line with a space
// after its brace, which lineString does not take); a line that only
// looks alike is read whole, and so gives the same events and problems.
func TestStringLines(t *testing.T) {
	t.Parallel()
	decode := func(line string) (events []byte, whole bool) {
		d := NewDecoder(strings.NewReader(line+"\n"), &Config{Source: "in", Agent: "cfg"})
		var b strings.Builder
		for _, it := range eventtest.Collect(d) {
			if it.Err != "" {
				fmt.Fprintf(&b, "error: %s\n", it.Err)
			} else {
				b.Write(dump([]event.Event{it.Event}, nil))
			}
		}
		return []byte(b.String()), d.ln.Type != ""
	}
	tests := []struct {
		name, s string // the string, as written
		whole   bool   // the line is read whole
	}{
		{"uuid", `"0199a213-81c0-7800-8aa1-bbab2a035a9c"`, false},
		{"empty", `""`, false},
		{"escapes", `"a\"b\\c\u00e9\n"`, false},
		{"not ASCII", `"thé"`, false},
		{"space before", ` "a"`, false},
		{"null", `null`, true},
		{"members after", `"a","thread_id":"b","message":"c"`, true},
		{"session id after", `"","session_id":"s"`, true},
		{"cut", `"a\"`, false}, // not a line: no type
	}
	for _, prefix := range []string{threadPrefix, errorPrefix} {
		for _, tt := range tests {
			t.Run(prefix+tt.name, func(t *testing.T) {
				t.Parallel()
				line := prefix + tt.s + `}`
				got, whole := decode(line)
				want, _ := decode("{ " + line[1:])
				// (An Unknown event keeps the line: the space taken out.)
				want = bytes.ReplaceAll(want, []byte(`"Raw":"{ `), []byte(`"Raw":"{`))
				if diff := cmp.Diff(string(want), string(got)); diff != "" || whole != tt.whole {
					t.Errorf("%s: read whole %v, want %v; events differ (-want +got):\n%s", line, whole, tt.whole, diff)
				}
			})
		}
	}
}
