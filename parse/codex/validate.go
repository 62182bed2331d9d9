package codex

import (
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/format"
	wire "github.com/agentstream/agentstream/internal/wire/codex"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// The format's validate rules (docs/validate.md).
const (
	ruleItem = "CDX001"
	ruleTurn = "CDX002"
)

func rules() []format.Rule {
	return []format.Rule{
		{ID: ruleItem, Name: "item-lifecycle", Doc: "an item is started at most once, updated only between item.started and item.completed, completed at most once, and completed before its turn completes"},
		{ID: ruleTurn, Name: "turn-lifecycle", Doc: "turn.completed and turn.failed end a turn.started one; items come inside a turn (but error items: Codex writes its warnings as error items whenever they come)"},
	}
}

type pos = wirecheck.Pos

// codexItem is what the codex checker knows of one item.
type codexItem struct {
	started, completed *pos
}

// check checks the wire rules of codex exec --json: item lifecycles and
// turns.
func check(r io.Reader, cfg *format.CheckConfig, rep format.Reporter) {
	v := &wirecheck.Checker{Rep: rep, Cfg: cfg}
	items := map[string]*codexItem{}
	var open []string // items started and not completed, in order
	var turn *pos
	for line, p := range v.Lines(r) {
		var l wire.Line
		if json.Unmarshal(line, &l) != nil {
			continue // the decoder reports it
		}
		switch l.Type {
		case wire.TypeTurnStarted:
			t := p
			turn = &t
		case wire.TypeTurnCompleted, TypeTurnFailed:
			if turn == nil {
				v.Report(ruleTurn, p, "%s without a turn.started", l.Type)
			}
			if l.Type == wire.TypeTurnCompleted {
				for _, id := range open {
					if it := items[id]; it.completed == nil {
						v.Report(ruleItem, *it.started, "item %s started here is not completed before its turn completes (line %d)", id, p.Line)
					}
				}
			}
			open, turn = open[:0], nil
		case TypeItemStarted, TypeItemUpdated, TypeItemCompleted:
			it := &l.Item.Item
			if !l.Item.OK || it.ID == "" {
				continue // the decoder reports it
			}
			if turn == nil && it.Type != ItemError {
				// (Codex writes a warning as an error item whenever it
				// has one: before turn.started too.)
				v.Report(ruleTurn, p, "%s of item %s outside a turn", l.Type, it.ID)
			}
			st := items[it.ID]
			if st == nil {
				st = &codexItem{}
				items[it.ID] = st
			}
			switch {
			case st.completed != nil:
				v.Report(ruleItem, p, "%s of item %s, which was completed at line %d", l.Type, it.ID, st.completed.Line)
			case l.Type == TypeItemStarted && st.started != nil:
				v.Report(ruleItem, p, "second item.started of item %s (first at line %d)", it.ID, st.started.Line)
			case l.Type == TypeItemUpdated && st.started == nil:
				v.Report(ruleItem, p, "item.updated of item %s before its item.started", it.ID)
			case l.Type == TypeItemStarted:
				q := p
				st.started = &q
				open = append(open, it.ID)
			case l.Type == TypeItemCompleted:
				q := p
				st.completed = &q
			}
		}
	}
}
