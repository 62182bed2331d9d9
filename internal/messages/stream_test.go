package messages

import (
	"encoding/json"
	"math"
	"testing"
)

// TestMarshalError: what encoding/json cannot write is an error, not a
// panic.
func TestMarshalError(t *testing.T) {
	t.Parallel()
	for name, v := range map[string]any{
		"invalid raw JSON": toolBlock{Type: BlockToolUse, Input: json.RawMessage("{bad")},
		"NaN":              math.NaN(),
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			if b, err := Marshal(v); err == nil {
				t.Errorf("Marshal = %s, nil; want an error", b)
			}
		})
	}
}
