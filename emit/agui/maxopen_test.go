package agui

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/openset"
	parse "github.com/agentstream/agentstream/parse/agui"
	"github.com/agentstream/agentstream/validate"
)

// TestMaxAgents: the encoder keeps at most openset.DefaultMax agents; one
// more with something open ends the oldest's message early, warned about
// once, and what it writes stays valid AG-UI.
func TestMaxAgents(t *testing.T) {
	t.Parallel()
	var evs []event.Event
	for i := range openset.DefaultMax + 5 {
		a := fmt.Sprintf("sub%d", i)
		evs = append(evs, &event.BlockStart{Agent: a, Kind: event.Text}, &event.Delta{Agent: a, Kind: event.Text, Text: "x"})
	}
	for i := range openset.DefaultMax + 5 {
		evs = append(evs, &event.BlockEnd{Agent: fmt.Sprintf("sub%d", i), Kind: event.Text})
	}
	evs = append(evs, &event.RunEnd{Agent: "sub0"})
	var out bytes.Buffer
	var warnings []string
	enc := NewEncoder(&out, &Config{Warn: func(err error) { warnings = append(warnings, err.Error()) }})
	for _, ev := range evs {
		if err := enc.Encode(ev); err != nil {
			t.Fatal(err)
		}
		if len(enc.agents) > openset.DefaultMax {
			t.Fatalf("%d agents kept", len(enc.order))
		}
	}
	if err := enc.Close(); err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "agents with something open") {
		t.Errorf("warnings %q", warnings)
	}
	vs, err := validate.Check(bytes.NewReader(out.Bytes()), &validate.Config{Source: "out", Format: parse.Format()})
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vs {
		if strings.Contains(v.Message, "more than 1024 agents") {
			continue // validate's own cap on the agents it follows, reported once
		}
		t.Errorf("%s %s: %s", v.Rule, v.Name, v.Message)
	}
}
