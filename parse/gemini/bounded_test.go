package gemini

import (
	"fmt"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

type violations []string

func (v *violations) Report(rule string, line, _ int, msg string) {
	*v = append(*v, fmt.Sprintf("%s:%d: %s", rule, line, msg))
}

// TestBoundedState feeds the checker a hostile run, generated line by
// line: a million tool_use lines, each answered 2000 lines later. It holds
// at most openset.DefaultMax tool_ids of uses and of results, says once
// for each that it let go of some, and reports nothing else: a result of
// a use it let go of is no violation.
func TestBoundedState(t *testing.T) {
	t.Parallel()
	n := eventtest.BoundedN
	in := eventtest.Generated(n+1, func(i int) string {
		switch {
		case i == 0:
			return `{"type":"init","timestamp":"t","session_id":"s","model":"m"}`
		case i%2 == 0 && i > 2000:
			return fmt.Sprintf(`{"type":"tool_result","timestamp":"t","tool_id":"c%d","status":"success","output":"x"}`, i-2001)
		}
		return fmt.Sprintf(`{"type":"tool_use","timestamp":"t","tool_name":"x","tool_id":"c%d","parameters":{}}`, i)
	})
	var got violations
	c := &checker{v: &wirecheck.Checker{Rep: &got, Cfg: &format.CheckConfig{Source: "x"}}}
	c.check(in)
	if u, a := c.uses.Len(), c.answered.Len(); u > openset.DefaultMax || a > openset.DefaultMax {
		t.Errorf("held %d uses and %d results after %d lines; want at most %d of each", u, a, n, openset.DefaultMax)
	}
	caps := 0
	for _, v := range got {
		if !strings.HasPrefix(v, ruleTools+":") || !strings.Contains(v, "more than 1024") {
			t.Errorf("unexpected violation %s", v)
			break
		}
		caps++
	}
	if caps != 0 {
		// Every tool_use is answered: the ids let go of are a window of
		// the ids seen, not state the stream left open.
		t.Errorf("the caps were reported %d times, want none: the stream is valid", caps)
	}
}
