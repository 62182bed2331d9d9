package usage

import (
	"cmp"
	"fmt"
	"slices"
	"time"
)

// Groupings of Report.
const (
	ByRun   = "run"
	ByModel = "model"
	ByDay   = "day"
	ByAgent = "agent"
)

// Cost sources of a Row.
const (
	SourceStream = "stream" // the runs' own cost
	SourceTable  = "table"  // priced from the pricing table
	SourceMixed  = "stream+table"
	SourceNone   = "none" // nothing priced
)

// Row is one group of a report.
type Row struct {
	Key string `json:"key"`
	// CLI, Project and Session name a session's row (by session).
	CLI     string `json:"cli,omitempty"`
	Project string `json:"project,omitempty"`
	Session string `json:"session,omitempty"`
	// First and Last are the times of the group's first and last calls,
	// when its inputs date them (Summarize).
	First *time.Time `json:"first,omitempty"`
	Last  *time.Time `json:"last,omitempty"`
	// Models are the models of the group's calls (Summarize).
	Models   []string `json:"models,omitempty"`
	Runs     int      `json:"runs"`
	Messages int      `json:"messages"`
	Tokens
	// CostUSD is nil when nothing in the group could be priced; when
	// Unpriced is not empty it leaves those models out.
	CostUSD    *float64 `json:"cost_usd"`
	CostSource string   `json:"cost_source"`
	// Unpriced lists the models of the group that have no price ("" is
	// shown as "(no model)"), sorted.
	Unpriced []string `json:"unpriced_models,omitempty"`
}

// NoModel names messages whose stream does not say which model wrote them.
const NoModel = "(no model)"

// Report groups runs by ByRun, ByModel, ByDay or ByAgent and returns the
// rows in order (runs in the order given, other keys sorted) and their
// total.
//
// A run's own cost goes to a group when all the run's messages are in it
// (always so by run); otherwise the run's messages in the group are priced
// from prices.
func Report(runs []Run, by string, prices *Prices) (rows []Row, total Row, err error) {
	type acc struct {
		row  Row
		runs map[int]bool
		pricing
	}
	groups := map[string]*acc{}
	var keys []string
	get := func(k string) *acc {
		g := groups[k]
		if g == nil {
			g = &acc{row: Row{Key: k}, runs: map[int]bool{}}
			groups[k] = g
			keys = append(keys, k)
		}
		return g
	}
	var key func(r *Run, m *Message) string
	switch by {
	case ByRun:
		key = func(r *Run, _ *Message) string { return r.Name }
	case ByModel:
		key = func(_ *Run, m *Message) string { return cmp.Or(m.Model, NoModel) }
	case ByDay:
		key = func(r *Run, _ *Message) string { return cmp.Or(r.Day, "unknown") }
	case ByAgent:
		key = func(_ *Run, m *Message) string { return cmp.Or(m.Agent, "(no agent id)") }
	default:
		return nil, Row{}, fmt.Errorf("--by must be run, model, day or agent, not %q", by)
	}
	all := &acc{row: Row{Key: "total"}, runs: map[int]bool{}}
	for i := range runs {
		r := &runs[i]
		// The groups this run's messages fall in.
		in := map[string]bool{}
		for j := range r.Messages {
			in[key(r, &r.Messages[j])] = true
		}
		if len(r.Messages) == 0 {
			// A run without usage still counts as a run of its group.
			in[key(r, &Message{Agent: r.MainAgent, Model: r.Model})] = true
		}
		whole := len(in) == 1 && r.CostUSD != nil
		for k := range in {
			g := get(k)
			g.runs[i] = true
			if whole {
				g.add(*r.CostUSD, SourceStream)
			}
		}
		if r.CostUSD != nil {
			all.add(*r.CostUSD, SourceStream)
		}
		all.runs[i] = true
		for j := range r.Messages {
			m := &r.Messages[j]
			g := get(key(r, m))
			for _, a := range []*acc{g, all} {
				a.row.Messages++
				a.row.Tokens.Add(m.Tokens)
			}
			c, ok := prices.Cost(m.Model, m.Tokens)
			targets := []*acc{}
			if !whole {
				targets = append(targets, g)
			}
			if r.CostUSD == nil {
				targets = append(targets, all)
			}
			for _, a := range targets {
				if !ok {
					a.miss(cmp.Or(m.Model, NoModel))
					continue
				}
				a.add(c, SourceTable)
			}
		}
	}
	finish := func(a *acc) Row {
		row := a.row
		row.Runs = len(a.runs)
		a.fill(&row)
		return row
	}
	if by != ByRun {
		slices.Sort(keys)
	}
	for _, k := range keys {
		rows = append(rows, finish(groups[k]))
	}
	return rows, finish(all), nil
}

// pricing is what a row's cost is made of: the costs added, where they
// came from, and the models that had no price.
type pricing struct {
	cost          float64
	priced        bool
	stream, table bool
	unpriced      map[string]bool
}

// add adds cost c, from src (SourceStream or SourceTable).
func (p *pricing) add(c float64, src string) {
	p.cost += c
	p.priced = true
	if src == SourceStream {
		p.stream = true
	} else {
		p.table = true
	}
}

// miss records that model had no price.
func (p *pricing) miss(model string) {
	if p.unpriced == nil {
		p.unpriced = map[string]bool{}
	}
	p.unpriced[model] = true
}

// fill sets r's CostUSD, CostSource and Unpriced.
func (p *pricing) fill(r *Row) {
	if p.priced {
		v := p.cost
		r.CostUSD = &v
	}
	switch {
	case p.stream && p.table:
		r.CostSource = SourceMixed
	case p.stream:
		r.CostSource = SourceStream
	case p.table:
		r.CostSource = SourceTable
	default:
		r.CostSource = SourceNone
	}
	for m := range p.unpriced {
		r.Unpriced = append(r.Unpriced, m)
	}
	slices.Sort(r.Unpriced)
}
