package usage

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Entry is the usage of one model call, with where and when it was made.
type Entry struct {
	// Time is the call's own time, from the line that reports it; zero
	// when the input carries none (a CLI's stdout).
	Time    time.Time
	CLI     string // the agent CLI that wrote it: claude, codex, gemini, or the input's format
	Project string // the project (Claude's project folder, Codex's working directory's name)
	Session string // the session or thread id
	// Agent is the subagent's id, "" for the session's main agent.
	Agent string
	Model string
	// Key identifies the call across inputs ("" when it cannot be told
	// apart): a message id and request id, a rollout's timestamped
	// totals. Entries with one key are one call.
	Key       string
	Sidechain bool
	Tokens    Tokens
	// CostUSD is the cost the input itself reports for the call, nil when
	// it reports none.
	CostUSD *float64
	Run     string // the input it was read from, as shown
}

// Ledger keeps entries, each call once. The zero value is not usable:
// NewLedger makes one.
type Ledger struct {
	entries []Entry
	msgIDs  []string // the message id each entry was added with
	byKey   map[string]int
	byMsg   map[string]int // the first entry of a message id (Claude), for sidechain replays
}

// NewLedger returns an empty ledger.
func NewLedger() *Ledger {
	return &Ledger{byKey: map[string]int{}, byMsg: map[string]int{}}
}

// Add adds e, unless an entry with its key is already there: then the
// one kept is the main agent's over a sidechain's copy, else the one with
// more tokens (Claude writes a message's usage on each of its lines; the
// last is the most complete). A sidechain's replay of a message under a
// new request id is the same call (msgID, when given, is the message id
// alone).
func (l *Ledger) Add(e Entry, msgID string) {
	i, ok := -1, false
	if e.Key != "" {
		i, ok = l.byKey[e.Key]
		if !ok && msgID != "" {
			if j, found := l.byMsg[msgID]; found && (e.Sidechain || l.entries[j].Sidechain) {
				i, ok = j, true
			}
		}
	}
	if ok {
		old := &l.entries[i]
		switch {
		case old.Sidechain != e.Sidechain:
			if old.Sidechain {
				*old = e
			}
		case e.Tokens.total() > old.Tokens.total():
			*old = e
		}
		return
	}
	l.msgIDs = append(l.msgIDs, msgID)
	if e.Key != "" {
		l.byKey[e.Key] = len(l.entries)
		if msgID != "" {
			if _, found := l.byMsg[msgID]; !found {
				l.byMsg[msgID] = len(l.entries)
			}
		}
	}
	l.entries = append(l.entries, e)
}

// Merge adds the entries of o, in its order, as Add adds them: adding
// one input's entries to a ledger of its own and merging the ledgers in
// input order keeps the entries adding them all to one would.
func (l *Ledger) Merge(o *Ledger) {
	if o == nil {
		return
	}
	l.entries = slices.Grow(l.entries, len(o.entries))
	l.msgIDs = slices.Grow(l.msgIDs, len(o.entries))
	for i := range o.entries {
		l.Add(o.entries[i], o.msgIDs[i])
	}
}

// Len returns the number of entries kept.
func (l *Ledger) Len() int { return len(l.entries) }

// Entries returns the entries kept, in the order added.
func (l *Ledger) Entries() []Entry { return l.entries }

func (t Tokens) total() int64 { return t.Input + t.Output + t.CacheWrite + t.CacheRead }

// Groupings of Summarize, beside ByRun, ByModel, ByDay and ByAgent.
const (
	ByWeek    = "week"
	ByMonth   = "month"
	BySession = "session"
	ByBlock   = "block"
)

// Groupings lists the values of --by.
var Groupings = []string{ByDay, ByWeek, ByMonth, BySession, ByModel, ByBlock, ByAgent, ByRun}

// BlockHours is the length of a billing block (ccusage's session block):
// a block starts at the hour of its first call and takes the calls of
// the next five hours; a call after that, or after five hours without
// one, starts the next block.
const BlockHours = 5

// ModelName is the name a model is shown and grouped by: as written, less
// a bracketed suffix ("claude-opus-4-8[1m]" is claude-opus-4-8: the
// suffix says which context window was asked for, not another model).
func ModelName(model string) string {
	if i := strings.IndexByte(model, '['); i > 0 && strings.HasSuffix(model, "]") {
		return model[:i]
	}
	return model
}

// Summarize groups entries by one of Groupings, dating them in loc, and
// returns the rows in order (dates and blocks oldest first, sessions
// newest first, the rest by name) and their total. Each entry is priced
// from its own cost where it has one, otherwise from prices.
func Summarize(entries []Entry, by string, loc *time.Location, prices *Prices) (rows []Row, total Row, err error) {
	if loc == nil {
		loc = time.Local
	}
	var key func(e *Entry) string
	switch by {
	case ByDay:
		key = func(e *Entry) string { return dateKey(e.Time, loc, time.DateOnly) }
	case ByMonth:
		key = func(e *Entry) string { return dateKey(e.Time, loc, "2006-01") }
	case ByWeek:
		key = func(e *Entry) string {
			if e.Time.IsZero() {
				return unknownTime
			}
			t := e.Time.In(loc)
			d := time.Date(t.Year(), t.Month(), t.Day()-int(t.Weekday()), 0, 0, 0, 0, loc)
			return d.Format(time.DateOnly)
		}
	case BySession:
		key = func(e *Entry) string { return e.CLI + "\x00" + e.Project + "\x00" + e.Session }
	case ByModel:
		key = func(e *Entry) string { return cmp.Or(ModelName(e.Model), NoModel) }
	case ByAgent:
		key = func(e *Entry) string { return cmp.Or(e.Agent, "main") }
	case ByRun:
		key = func(e *Entry) string { return e.Run }
	case ByBlock:
		blocks := blockStarts(entries)
		key = func(e *Entry) string {
			if e.Time.IsZero() {
				return unknownTime
			}
			return blocks[e.Time.UnixNano()].In(loc).Format(time.RFC3339)
		}
	default:
		return nil, Row{}, fmt.Errorf("--by must be one of %s, not %q", strings.Join(Groupings, ", "), by)
	}
	type acc struct {
		row                 Row
		runs                map[string]bool
		models              map[string]bool
		unpriced            map[string]bool
		stream, table, cost bool
		sum                 float64
	}
	groups := map[string]*acc{}
	newAcc := func(k string) *acc {
		return &acc{row: Row{Key: k}, runs: map[string]bool{}, models: map[string]bool{}, unpriced: map[string]bool{}}
	}
	all := newAcc("total")
	for i := range entries {
		e := &entries[i]
		k := key(e)
		g := groups[k]
		if g == nil {
			g = newAcc(k)
			if by == BySession {
				g.row.Key = cmp.Or(e.Session, "-")
				if e.Project != "" {
					g.row.Key = e.Project + "/" + g.row.Key
				}
				g.row.CLI, g.row.Project, g.row.Session = e.CLI, e.Project, e.Session
			}
			groups[k] = g
		}
		c, priced := 0.0, false
		src := ""
		if e.CostUSD != nil {
			c, priced, src = *e.CostUSD, true, SourceStream
		} else if v, ok := prices.Cost(e.Model, e.Tokens); ok {
			c, priced, src = v, true, SourceTable
		}
		for _, a := range []*acc{g, all} {
			a.row.Messages++
			a.row.Tokens.Add(e.Tokens)
			a.runs[e.Run] = true
			if m := ModelName(e.Model); m != "" {
				a.models[m] = true
			}
			if !e.Time.IsZero() {
				if a.row.First == nil || e.Time.Before(*a.row.First) {
					t := e.Time
					a.row.First = &t
				}
				if a.row.Last == nil || e.Time.After(*a.row.Last) {
					t := e.Time
					a.row.Last = &t
				}
			}
			if !priced {
				a.unpriced[cmp.Or(ModelName(e.Model), NoModel)] = true
				continue
			}
			a.sum += c
			a.cost = true
			if src == SourceStream {
				a.stream = true
			} else {
				a.table = true
			}
		}
	}
	finish := func(a *acc) Row {
		r := a.row
		r.Runs = len(a.runs)
		if a.cost {
			v := a.sum
			r.CostUSD = &v
		}
		switch {
		case a.stream && a.table:
			r.CostSource = SourceMixed
		case a.stream:
			r.CostSource = SourceStream
		case a.table:
			r.CostSource = SourceTable
		default:
			r.CostSource = SourceNone
		}
		for m := range a.unpriced {
			r.Unpriced = append(r.Unpriced, m)
		}
		slices.Sort(r.Unpriced)
		for m := range a.models {
			r.Models = append(r.Models, m)
		}
		slices.Sort(r.Models)
		if r.First != nil {
			f, l := r.First.In(loc), r.Last.In(loc)
			r.First, r.Last = &f, &l
		}
		return r
	}
	keys := make([]string, 0, len(groups))
	for k := range groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		rows = append(rows, finish(groups[k]))
	}
	if by == BySession {
		// Newest first.
		slices.SortStableFunc(rows, func(a, b Row) int {
			return cmp.Compare(lastUnix(b), lastUnix(a))
		})
	}
	return rows, finish(all), nil
}

const unknownTime = "unknown"

func dateKey(t time.Time, loc *time.Location, layout string) string {
	if t.IsZero() {
		return unknownTime
	}
	return t.In(loc).Format(layout)
}

func lastUnix(r Row) int64 {
	if r.Last == nil {
		return 0
	}
	return r.Last.UnixNano()
}

// blockStarts maps the time of each dated entry to the start of its
// billing block (BlockHours).
func blockStarts(entries []Entry) map[int64]time.Time {
	times := make([]time.Time, 0, len(entries))
	for i := range entries {
		if !entries[i].Time.IsZero() {
			times = append(times, entries[i].Time)
		}
	}
	slices.SortFunc(times, func(a, b time.Time) int { return a.Compare(b) })
	out := make(map[int64]time.Time, len(times))
	d := BlockHours * time.Hour
	var start, last time.Time
	for i, t := range times {
		if i == 0 || t.Sub(start) > d || t.Sub(last) > d {
			start = t.UTC().Truncate(time.Hour)
		}
		out[t.UnixNano()] = start
		last = t
	}
	return out
}

// RunEntries turns a run read from a stream without times of its own (a
// CLI's stdout, an API body) into entries. Where the run's end says what
// each model used over the whole run (Run.ByModel), those totals are its
// entries: the messages a stdout shows leave out what subagents used.
// Otherwise each message is an entry, and the run's own cost goes to its
// first when all its messages are of one model (else they are priced from
// the table).
func RunEntries(r *Run, cli string) []Entry {
	base := Entry{CLI: cli, Session: r.Session, Run: r.Name}
	var out []Entry
	if len(r.ByModel) > 0 {
		for _, m := range r.ByModel {
			e := base
			e.Model, e.Tokens, e.CostUSD = m.Model, m.Tokens, m.CostUSD
			out = append(out, e)
		}
		return out
	}
	one := r.CostUSD != nil
	for i := range r.Messages {
		if ModelName(r.Messages[i].Model) != ModelName(r.Messages[0].Model) {
			one = false
		}
	}
	for i := range r.Messages {
		m := &r.Messages[i]
		e := base
		e.Model, e.Tokens = m.Model, m.Tokens
		if m.Agent != r.MainAgent {
			e.Agent = m.Agent
		}
		if one {
			v := 0.0
			if i == 0 {
				v = *r.CostUSD
			}
			e.CostUSD = &v
		}
		out = append(out, e)
	}
	return out
}
