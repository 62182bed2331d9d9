package claudesession

import (
	"encoding/json"
	"testing"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// TestUsageCountJSON: encoding/json and the one-pass reader decode a
// usage the same, the cache_creation breakdown included (the embedded
// messages.Usage's UnmarshalJSON must not swallow it), and a usage of
// null counts gives none.
func TestUsageCountJSON(t *testing.T) {
	t.Parallel()
	for _, in := range []string{
		`{"input_tokens":3,"output_tokens":4,"cache_creation_input_tokens":5,"cache_creation":{"ephemeral_5m_input_tokens":2,"ephemeral_1h_input_tokens":3}}`,
		`{"input_tokens":null,"output_tokens":null}`,
		`{"cache_creation":null,"output_tokens":1}`,
	} {
		var viaJSON usageCount
		if err := json.Unmarshal([]byte(in), &viaJSON); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		var onePass usageCount
		var r jsontext.Reader
		r.Reset([]byte(in))
		readUsageCount(&r, &onePass)
		if !r.End() {
			t.Fatalf("%s: the one-pass reader failed", in)
		}
		if viaJSON.Usage != onePass.Usage {
			t.Errorf("%s: usage %+v by encoding/json, %+v in one pass", in, viaJSON.Usage, onePass.Usage)
		}
		if (viaJSON.CacheCreation == nil) != (onePass.CacheCreation == nil) ||
			viaJSON.CacheCreation != nil && *viaJSON.CacheCreation != *onePass.CacheCreation {
			t.Errorf("%s: cache_creation %+v by encoding/json, %+v in one pass", in, viaJSON.CacheCreation, onePass.CacheCreation)
		}
		if want := in[len(in)-5:] != "null}"; viaJSON.HasCounts() != want {
			t.Errorf("%s: HasCounts() = %v, want %v", in, viaJSON.HasCounts(), want)
		}
	}
}
