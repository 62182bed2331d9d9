package validate

import (
	"bufio"
	"encoding/json"
	"io"

	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/parse/codex"
)

// codexItem is what the codex checker knows of one item.
type codexItem struct {
	started, completed *pos
}

// codex checks the wire rules of codex exec --json: item lifecycles and
// turns.
func (v *checker) codex(r io.Reader) {
	lines := frame.NewLines(bufio.NewReaderSize(r, 64<<10), v.cfg.Source, v.cfg.MaxEventBytes)
	items := map[string]*codexItem{}
	var open []string // items started and not completed, in order
	var turn *pos
	for {
		line, num, _, err := lines.Next()
		if err == io.EOF {
			return
		}
		if err != nil {
			if isParseError(err) {
				continue // the decoder reports it
			}
			return
		}
		var l codex.Line
		if json.Unmarshal(line, &l) != nil {
			continue // the decoder reports it
		}
		p := pos{num, 1}
		switch l.Type {
		case codex.TypeTurnStarted:
			t := p
			turn = &t
		case codex.TypeTurnCompleted, codex.TypeTurnFailed:
			if turn == nil {
				v.report(CodexTurn, p, "%s without a turn.started", l.Type)
			}
			if l.Type == codex.TypeTurnCompleted {
				for _, id := range open {
					if it := items[id]; it.completed == nil {
						v.report(CodexItem, *it.started, "item %s started here is not completed before its turn completes (line %d)", id, p.line)
					}
				}
			}
			open, turn = open[:0], nil
		case codex.TypeItemStarted, codex.TypeItemUpdated, codex.TypeItemCompleted:
			var it codex.Item
			if json.Unmarshal(l.Item, &it) != nil || it.ID == "" {
				continue // the decoder reports it
			}
			if turn == nil {
				v.report(CodexTurn, p, "%s of item %s outside a turn", l.Type, it.ID)
			}
			st := items[it.ID]
			if st == nil {
				st = &codexItem{}
				items[it.ID] = st
			}
			switch {
			case st.completed != nil:
				v.report(CodexItem, p, "%s of item %s, which was completed at line %d", l.Type, it.ID, st.completed.line)
			case l.Type == codex.TypeItemStarted && st.started != nil:
				v.report(CodexItem, p, "second item.started of item %s (first at line %d)", it.ID, st.started.line)
			case l.Type == codex.TypeItemUpdated && st.started == nil:
				v.report(CodexItem, p, "item.updated of item %s before its item.started", it.ID)
			case l.Type == codex.TypeItemStarted:
				q := p
				st.started = &q
				open = append(open, it.ID)
			case l.Type == codex.TypeItemCompleted:
				q := p
				st.completed = &q
			}
		}
	}
}
