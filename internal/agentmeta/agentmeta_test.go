package agentmeta

import (
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// payloads are meta_init and meta_final payloads, ordinary and odd: each
// must read the same in one pass as through encoding/json.
var payloads = []string{
	`{"format": "xml", "user_query": "Write \"hi\" \u00e9", "agent_uuid": "a", "parent_agent_uuid": null, "model": "m", "message_history": [{"role": "user", "content": [1.5e3, true, null]}]}`,
	`{"format":"json","user_query":{"text":"q"},"agent_uuid":"b","parent_agent_uuid":"a","tools":["x","y"],"cwd":"/","session_id":"s","parent_tool_use_id":"t","name":"n","description":"d"}`,
	`{"user_query": null, "tools": [], "Model": "caps", "MODEL2": 1}`,
	`{"user_query": 12, "tools": null, "agent_uuid": null}`,
	`{"user_query": "a", "user_query": "b", "agent_uuid": "x", "agent_uuid": "y"}`,
	`{"Agent_UUID": "folded"}`,
	`{"agent_uuid": "\ud800 lone", "name": "bad \xff utf8"}`,
	`{"tools": ["a", null]}`,
	`{"tools": "a"}`,
	`null`, `[]`, `"s"`, ``, `{`, `{"a":1} x`, ` {"model": "m"} `, `{"k\u0061y": 1}`,
	`{"conversation_history": [{"content": [{"text": "x\n"}]}], "stop_reason": "end_turn", "total_steps": 3, "generated_files": null, "cost": {"total_cost": 0.25, "currency": "USD"}, "cumulative_usage": {"input_tokens": 10, "output_tokens": 20, "cache_read_input_tokens": 1, "other": [1]}}`,
	`{"stop_reason": "x", "cost": {"total_cost": 1, "currency": "EUR"}}`,
	`{"cost": {"total_cost": 1, "currency": null}, "total_cost_usd": 2.5, "duration_ms": 7, "is_error": true, "errors": ["e"], "result": "r"}`,
	`{"cost": {"total_cost": "1"}}`, `{"cost": {"total_cost": 1, "currency": 5}}`, `{"cost": [1]}`, `{"cost": 1e400}`,
	`{"cost": {"total_cost": 1}, "cost": null}`, `{"cost": {"total_cost": 1, "total_cost": true}}`,
	`{"cost": {"Total_Cost": 1}}`, `{"cost": {"t\u006ftal_cost": 1}}`,
	`{"generated_files": [1e400]}`, `{"cost": {"a": 1e-400, "b": 1E308, "c": -2.5E+2, "d": 1E309, "total_cost": 2}}`,
	`{"generated_files": [` + "1" + strings.Repeat("0", 299) + `, -` + strings.Repeat("9", 299) + `.5]}`,
	`{"generated_files": [` + "1" + strings.Repeat("0", 309) + `], "stop_reason": "x"}`, `{"stop_reason": "x", "cost": {"a": ` + strings.Repeat("9", 400) + `}}`, `{"generated_files": {"a": [-0.5e-3]}}`, `{"conversation_history": 1e400}`,
	`{"total_steps": 1.0}`, `{"total_steps": 9223372036854775807}`, `{"total_steps": null, "duration_ms": "1"}`,
	`{"cumulative_usage": null}`, `{"cumulative_usage": {"input_tokens": 1}, "cumulative_usage": {"output_tokens": 2}}`,
	`{"cumulative_usage": {"Input_Tokens": 1}}`, `{"cumulative_usage": {"service_tier": "standard", "output_tokens": 2}}`, `{"cumulative_usage": {"Service_Tier": "x"}}`, `{"cumulative_usage": {"service_tier": null}}`, `{"cumulative_usage": {"service_tier": 5}}`, `{"cumulative_usage": 3}`, `{"errors": []}`, `{"errors": null}`,
	`{"is_error": null, "result": null, "stop_reason": null, "total_cost_usd": null}`, `{"Stop_Reason": "x"}`,
}

// corpusPayloads adds the data attributes of the XML recordings.
func corpusPayloads(t *testing.T) []string {
	files, _ := filepath.Glob("../../testdata/xml/*.sse")
	re := regexp.MustCompile(`<meta_(?:init|final) data="([^"]*)"`)
	out := payloads
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			out = append(out, unquot.Replace(string(m[1])))
		}
	}
	return out
}

// unquot undoes the attribute escaping of the recordings.
var unquot = strings.NewReplacer("&quot;", `"`, "&lt;", "<", "&gt;", ">", "&#x27;", "'", "&amp;", "&")

func TestOnePass(t *testing.T) {
	t.Parallel()
	var c Reader // one for all: each payload is read after the others
	for _, p := range corpusPayloads(t) {
		checkSame(t, &c, p)
	}
}

// checkSame checks p, made valid UTF-8 as the decoders make their input.
// c reads in one pass, after what it read before.
func checkSame(t *testing.T, c *Reader, p string) {
	t.Helper()
	p = strings.ToValidUTF8(p, "\uFFFD")
	fastEv, fastM, fastOK := c.sessionStart("A", []byte(p), true)
	slowEv, slowM, slowOK := new(Reader).sessionStart("A", []byte(p), false)
	if diff := cmp.Diff([]any{slowEv, slowM, slowOK}, []any{fastEv, fastM, fastOK}, cmpopts.IgnoreUnexported(Init{})); diff != "" {
		t.Errorf("SessionStart(%q) (-encoding/json +one pass):\n%s", p, diff)
	}
	if diff := cmp.Diff(new(Reader).runEnd("A", []byte(p), false), c.runEnd("A", []byte(p), true)); diff != "" {
		t.Errorf("RunEnd(%q) (-encoding/json +one pass):\n%s", p, diff)
	}
}

func FuzzOnePass(f *testing.F) {
	for _, p := range payloads {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, p string) {
		// Read after a payload with a tools list and other strings to
		// reuse, and twice: after itself.
		var c Reader
		checkSame(t, &c, payloads[1])
		checkSame(t, &c, p)
		checkSame(t, &c, p)
	})
}

// TestSpellKeys checks that the key constants are as many as the fields
// of Init, Final and Usage, each spelled from its tag.
func TestSpellKeys(t *testing.T) {
	t.Parallel()
	k := SpellKeys("'", "=", ";", "f")
	var got []string
	for i, s := range k.key {
		if s == "" {
			t.Fatalf("key %d not spelled", i)
		}
		got = append(got, s)
	}
	n := 0
	for _, typ := range []reflect.Type{reflect.TypeFor[Init](), reflect.TypeFor[Final](), reflect.TypeFor[Usage]()} {
		for i := range typ.NumField() {
			if typ.Field(i).Tag.Get("json") != "-" && typ.Field(i).IsExported() {
				n++
			}
		}
	}
	if n != numKeys {
		t.Fatalf("%d fields written, %d keys", n, numKeys)
	}
	want := []string{"{'format'='f'", ";'user_query'=", ";'agent_uuid'=", "'stop_reason'=", "'input_tokens'=", ";'service_tier'="}
	for _, w := range want {
		if !slices.Contains(got, w) {
			t.Errorf("no key %q in %q", w, got)
		}
	}
}
