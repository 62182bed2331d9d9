package gemini

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestModelsOrder: the per-model stats keep their order on the wire both
// ways (a Go map would sort them), and Marshal writes as JSON.stringify
// does.
func TestModelsOrder(t *testing.T) {
	t.Parallel()
	in := `{"total_tokens":3,"input_tokens":2,"output_tokens":1,"cached":0,"input":2,"duration_ms":5,"tool_calls":0,"models":{"z-router":{"total_tokens":1,"input_tokens":1,"output_tokens":0,"cached":0,"input":1},"a-main":{"total_tokens":2,"input_tokens":1,"output_tokens":1,"cached":0,"input":1}}}`
	var s StreamStats
	if err := json.Unmarshal([]byte(in), &s); err != nil {
		t.Fatal(err)
	}
	if got := []string{s.Models[0].Name, s.Models[1].Name}; !cmp.Equal(got, []string{"z-router", "a-main"}) {
		t.Errorf("order %q", got)
	}
	out, err := Marshal(s)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(in, string(out)); diff != "" {
		t.Errorf("(-in +out):\n%s", diff)
	}
	var bad StreamStats
	err = json.Unmarshal([]byte(`{"models":[1]}`), &bad)
	if te, ok := err.(*json.UnmarshalTypeError); !ok || te.Value != "array" {
		t.Errorf("models as an array: %v", err)
	}
	if b, _ := Marshal("<a> & b"); string(b) != `"<a> & b"` {
		t.Errorf("Marshal escapes HTML: %s", b)
	}
}
