package jsonenv

import (
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/wiretest"
)

// metaSeeds are the meta_init and meta_final payloads of the xml
// recordings (their data attributes) and odd ones.
func metaSeeds(t testing.TB) [][]byte {
	files, _ := filepath.Glob("../../../testdata/xml/*.sse")
	re := regexp.MustCompile(`<meta_(?:init|final) data="([^"]*)"`)
	unquot := strings.NewReplacer("&quot;", `"`, "&lt;", "<", "&gt;", ">", "&#x27;", "'", "&amp;", "&")
	var seeds [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range re.FindAllSubmatch(b, -1) {
			seeds = append(seeds, []byte(unquot.Replace(string(m[1]))))
		}
	}
	if len(seeds) < 4 {
		t.Fatalf("%d meta payloads in the xml recordings", len(seeds))
	}
	for _, s := range []string{
		`{"format":"json","user_query":{"text":"q"},"agent_uuid":"b","parent_agent_uuid":"a","tools":["x","y"],"cwd":"/","session_id":"s","parent_tool_use_id":"t","name":"n","description":"d"}`,
		`{"tools":["a"],"tools":["b"]}`, `{"tools":null,"tools":["a",null]}`, `{"Tools":["a"],"MODEL":"m","Model":null}`,
		`{"user_query": null, "parent_agent_uuid": null, "parent_agent_uuid": "p"}`, `{"tools":"a"}`,
		`{"stop_reason": "x", "cost": {"total_cost": 1, "currency": "EUR"}, "generated_files": [1e3, {"a": null}]}`,
		`{"cost": {"total_cost": 1}, "cost": null, "cumulative_usage": {"input_tokens": 1}, "cumulative_usage": {"output_tokens": 2}}`,
		`{"cumulative_usage": {"Input_Tokens": 1, "service_tier": null, "reasoning_output_tokens": 3}, "errors": [], "errors": ["e"]}`,
		`{"cost": {"Total_Cost": 1, "currency": null}}`, `{"cost": {"total_cost": "1"}}`, `{"cost": [1]}`, `{"cost": null}`, `{"total_steps": 1.0}`, `{"cumulative_usage": 3}`, `{"generated_files": [1e400]}`,
	} {
		seeds = append(seeds, []byte(s))
	}
	return seeds
}

// compareMeta checks ReadInit and ReadFinal with json.Unmarshal.
func compareMeta(t *testing.T, data []byte) bool {
	t.Helper()
	init := wiretest.OnePass(t, data, ReadInit, func(got, _ *Init) {
		// What the reader keeps for the next meta_init, not a field.
		got.format, got.agentUUID, got.model, got.sessionID, got.cwd = "", "", "", "", ""
		got.parentToolID, got.name, got.description, got.tools = "", "", "", jsontext.KeptStrings{}
	})
	final := wiretest.OnePass(t, data, ReadFinal, func(got, _ *Final) {
		// The cost the reader parsed, if any, is the raw cost decoded.
		var want *Cost
		if json.Unmarshal(got.Cost, &want) != nil {
			want = nil
		}
		if got.cost == nil {
			want = nil // left to the caller
		}
		if diff := cmp.Diff(want, got.cost); diff != "" {
			t.Errorf("%s: cost (-json +one pass):\n%s", data, diff)
		}
		got.cost = nil
	})
	return init && final
}

func TestReadMetaSeeds(t *testing.T) {
	t.Parallel()
	seeds := metaSeeds(t)
	wiretest.OnePassSeeds(t, seeds, len(seeds)-7, compareMeta)
}

func FuzzReadMeta(f *testing.F) { wiretest.FuzzOnePass(f, metaSeeds(f), compareMeta) }

// TestMetaReadersReadEveryField: each field of the declarations, set
// alone, is read by the generated readers.
func TestMetaReadersReadEveryField(t *testing.T) {
	t.Parallel()
	wiretest.ReadsEveryField(t, ReadInit)
	wiretest.ReadsEveryField(t, ReadFinal)
	wiretest.ReadsEveryField(t, ReadCost)
}
