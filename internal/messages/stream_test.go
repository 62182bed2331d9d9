package messages

import (
	"encoding/json"
	"math"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
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

// TestStreamerHoldsText: a Streamer holds a block's text only for Block
// (Claude Code's snapshots), and then at most MaxBlockBytes of it; without
// Block (the anthropic encoder) deltas pass through and nothing is held.
func TestStreamerHoldsText(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		block bool
		max   int
		held  int
		cut   bool
	}{
		{name: "no Block", held: 0},
		{name: "no Block, capped", max: 10, held: 0, cut: true},
		{name: "Block, capped", block: true, max: 10, held: 10, cut: true},
		{name: "Block", block: true, held: 300},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cuts, written := 0, 0
			s := &Streamer{
				Event:         func(typ string, data []byte) error { written += len(data); return nil },
				MaxBlockBytes: tt.max,
				Cut:           func() { cuts++ },
			}
			if tt.block {
				s.Block = func(MessageInfo, []byte) error { return nil }
			}
			s.Add(&event.BlockStart{Kind: event.Text})
			for range 3 {
				if _, err := s.Add(&event.Delta{Kind: event.Text, Text: strings.Repeat("x", 100)}); err != nil {
					t.Fatal(err)
				}
			}
			if got := s.open.text.Len(); got != tt.held {
				t.Errorf("text held = %d bytes, want %d", got, tt.held)
			}
			if (cuts > 0) != tt.cut {
				t.Errorf("Cut called %d times, want calls: %v", cuts, tt.cut)
			}
		})
	}
}
