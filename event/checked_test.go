package event_test

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestChecked: a note notes the slice it was made of, not a copy nor
// another slice of it, and says valid or compact as made.
func TestChecked(t *testing.T) {
	t.Parallel()
	p := []byte(`{"a":1}`)
	tests := []struct {
		name           string
		note           event.Checked
		of             []byte
		valid, compact bool
	}{
		{"valid", event.ValidJSON(p), p, true, false},
		{"compact", event.CompactJSON(p), p, true, true},
		{"a copy", event.CompactJSON(p), bytes.Clone(p), false, false},
		{"a prefix", event.CompactJSON(p), p[:len(p)-1], false, false},
		{"a suffix", event.CompactJSON(p), p[1:], false, false},
		{"empty", event.CompactJSON(p[:0]), p[:0], false, false},
		{"none", event.Checked{}, p, false, false},
	}
	for _, tt := range tests {
		if got := tt.note.Valid(tt.of); got != tt.valid {
			t.Errorf("%s: Valid = %v, want %v", tt.name, got, tt.valid)
		}
		if got := tt.note.Compact(tt.of); got != tt.compact {
			t.Errorf("%s: Compact = %v, want %v", tt.name, got, tt.compact)
		}
	}
}

// TestCheckedNotCompared: go-cmp compares events without their notes, and
// encoding/json does not write them.
func TestCheckedNotCompared(t *testing.T) {
	t.Parallel()
	raw := json.RawMessage(`{"type":"x"}`)
	got := &event.Unknown{Format: "f", Raw: raw, Checked: event.CompactJSON(raw)}
	want := &event.Unknown{Format: "f", Raw: raw}
	if got.Checked == want.Checked {
		t.Fatal("no note to leave out")
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	a, _ := json.Marshal(got)
	b, _ := json.Marshal(want)
	if string(a) != string(b) {
		t.Errorf("marshalled %s, without the note %s", a, b)
	}
}
