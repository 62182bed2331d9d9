package usage

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentstream/agentstream/internal/openset"
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
//
// A ledger made by NewWindow holds at most its window of entries, the
// last added, and hands each entry older than that to its sink, in the
// order added (an entry is final once it leaves: a later line of its call
// can no longer replace it). It keeps, in place of an entry let go of,
// the hashes of its key and message id (and its tokens), up to a cap of
// its own, so that a later line of that call is still not counted again:
// it is dropped, and counted by Late when it would have replaced the line
// kept (more tokens, or the main agent's over a sidechain's). Past that
// cap a call's line can count twice, which Forgot says.
type Ledger struct {
	entries []Entry  // the window: entries[k] was added as number first+k
	msgIDs  []string // the message id each entry was added with
	first   int      // entries let go of
	byKey   map[string]int
	byMsg   map[string]int // the first entry of a message id (Claude), for sidechain replays

	max    int                            // the window; 0 for no cap
	sink   func(*Entry)                   // receives each entry let go of
	gone   *openset.Map[uint64, goneCall] // hashes of the keys and message ids let go of
	late   int                            // lines of a call let go of that would have replaced it
	forgot bool                           // a call's hashes were let go of past the cap
}

// Window and MaxForgotten are the caps of the ledger usage reads into
// (NewWindow): the entries held, and the calls let go of it still tells
// again.
const (
	Window       = 1 << 14
	MaxForgotten = 1 << 18
)

// NewLedger returns an empty ledger holding every entry.
func NewLedger() *Ledger {
	return &Ledger{byKey: map[string]int{}, byMsg: map[string]int{}}
}

// NewWindow returns an empty ledger holding at most window entries and
// the hashes of at most forgotten calls let go of, which hands each entry
// it lets go of to sink. Flush hands it the rest.
func NewWindow(window, forgotten int, sink func(*Entry)) *Ledger {
	l := NewLedger()
	l.max, l.sink = window, sink
	l.gone = openset.NewMap[uint64, goneCall](forgotten)
	return l
}

// hash returns the 64-bit FNV-1a hash of kind ('k' for a key, 'm' for a
// message id) and s: a fixed function, so that the same input gives the
// same output however unlikely two keys are to share a hash.
func hash(kind byte, s string) uint64 {
	const prime = 1099511628211
	h := uint64(14695981039346656037)
	h = (h ^ uint64(kind)) * prime
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * prime
	}
	return h
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
			if j, found := l.byMsg[msgID]; found && (e.Sidechain || l.entries[j-l.first].Sidechain) {
				i, ok = j, true
			}
		}
		if !ok && l.gone != nil {
			g, was := l.gone.Get(hash('k', e.Key))
			if !was && msgID != "" {
				if g, was = l.gone.Get(hash('m', msgID)); was && !e.Sidechain && !g.side {
					was = false
				}
			}
			if was {
				if g.side != e.Sidechain && g.side || g.side == e.Sidechain && e.Tokens.total() > g.total {
					l.late++
				}
				return
			}
		}
	}
	if ok {
		old := &l.entries[i-l.first]
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
	n := l.first + len(l.entries)
	l.msgIDs = append(l.msgIDs, msgID)
	if e.Key != "" {
		l.byKey[e.Key] = n
		if msgID != "" {
			if _, found := l.byMsg[msgID]; !found {
				l.byMsg[msgID] = n
			}
		}
	}
	l.entries = append(l.entries, e)
	if l.max > 0 && len(l.entries) > l.max {
		l.letGo()
	}
}

// letGo hands the oldest entry to the sink and keeps the hashes of its
// key and message id.
func (l *Ledger) letGo() {
	e, msgID := &l.entries[0], l.msgIDs[0]
	if e.Key != "" && l.byKey[e.Key] == l.first {
		delete(l.byKey, e.Key)
		l.forget(hash('k', e.Key), e)
	}
	if msgID != "" && l.byMsg[msgID] == l.first {
		delete(l.byMsg, msgID)
		l.forget(hash('m', msgID), e)
	}
	l.sink(e)
	l.entries[0], l.msgIDs[0] = Entry{}, ""
	l.entries, l.msgIDs = l.entries[1:], l.msgIDs[1:]
	l.first++
}

// goneCall is what a ledger keeps of a call it let go of: whether a
// later line of it would have replaced it (Add's rule).
type goneCall struct {
	total int64 // its tokens
	side  bool  // a sidechain's
}

func (l *Ledger) forget(h uint64, e *Entry) {
	if _, out := l.gone.Put(h, goneCall{e.Tokens.total(), e.Sidechain}); out {
		l.forgot = true
	}
}

// Flush hands every entry held to the sink, in the order added; the
// ledger is then empty of entries (it still knows the calls let go of).
func (l *Ledger) Flush() {
	for len(l.entries) > 0 {
		l.letGo()
	}
}

// Late returns the lines of calls let go of that came after and would
// have replaced the line kept (more tokens, or the main agent's copy of a
// sidechain's): they are dropped all the same.
func (l *Ledger) Late() int { return l.late }

// Forgot reports whether the ledger let go of a call's hashes past
// MaxForgotten: a later line of such a call counts again.
func (l *Ledger) Forgot() bool { return l.forgot }

// Merge adds the entries of o, in its order, as Add adds them: adding
// one input's entries to a ledger of its own and merging the ledgers in
// input order keeps the entries adding them all to one would. o holds
// every entry (NewLedger).
func (l *Ledger) Merge(o *Ledger) {
	if o == nil {
		return
	}
	if l.max == 0 {
		l.entries = slices.Grow(l.entries, len(o.entries))
		l.msgIDs = slices.Grow(l.msgIDs, len(o.entries))
	}
	for i := range o.entries {
		l.Add(o.entries[i], o.msgIDs[i])
	}
}

// Len returns the number of entries added in all (held or let go of).
func (l *Ledger) Len() int { return l.first + len(l.entries) }

// Held returns the number of entries held, and of calls let go of whose
// hashes are held.
func (l *Ledger) Held() (entries, forgotten int) { return len(l.entries), l.gone.Len() }

// Entries returns the entries held, in the order added.
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
	s, err := NewSummary(by, loc, prices)
	if err != nil {
		return nil, Row{}, err
	}
	for i := range entries {
		s.Add(&entries[i])
	}
	rows, total = s.Rows()
	return rows, total, nil
}

// Summary is Summarize done as the entries come: Add one entry at a time,
// then Rows. It holds a group per row, not the entries, except by block
// (ByBlock), whose blocks are known only once every entry's time is: it
// keeps what a row needs of each entry (its time, model, run, tokens and
// cost) until Rows, at most MaxBlockCalls of them (Err past that).
type Summary struct {
	by     string
	loc    *time.Location
	prices *Prices
	key    func(e *Entry) string
	groups map[string]*acc
	all    *acc
	block  []blockEntry     // ByBlock: the entries, grouped by Rows
	names  map[string]int32 // ByBlock: the models' and runs' names, each once
	strs   []string
	err    error
}

// MaxBlockCalls caps the calls a summary by block (usage --by block)
// holds until the end, about 100 bytes each: a block is known only once
// every call's time is. Past it the summary fails (Err).
const MaxBlockCalls = 1 << 18

// ErrTooManyBlockCalls is Err of a summary by block given more than
// MaxBlockCalls calls.
var ErrTooManyBlockCalls = fmt.Errorf("--by block holds every call until the end, and the input has more than %d: narrow it with --since and --until, or group --by day", MaxBlockCalls)

// blockEntry is what a row by block needs of an Entry.
type blockEntry struct {
	time       time.Time
	tokens     Tokens
	cost       float64
	priced     bool  // the input reported cost (Entry.CostUSD)
	model, run int32 // in Summary.strs
}

type acc struct {
	row    Row
	runs   map[string]bool
	models map[string]bool
	pricing
}

func newAcc(k string) *acc {
	return &acc{row: Row{Key: k}, runs: map[string]bool{}, models: map[string]bool{}}
}

// NewSummary returns an empty summary grouping by by, dating in loc
// (time.Local if nil), pricing from prices.
func NewSummary(by string, loc *time.Location, prices *Prices) (*Summary, error) {
	if loc == nil {
		loc = time.Local
	}
	s := &Summary{by: by, loc: loc, prices: prices, groups: map[string]*acc{}, all: newAcc("total")}
	switch by {
	case ByDay:
		s.key = func(e *Entry) string { return dateKey(e.Time, loc, time.DateOnly) }
	case ByMonth:
		s.key = func(e *Entry) string { return dateKey(e.Time, loc, "2006-01") }
	case ByWeek:
		s.key = func(e *Entry) string {
			if e.Time.IsZero() {
				return unknownTime
			}
			t := e.Time.In(loc)
			d := time.Date(t.Year(), t.Month(), t.Day()-int(t.Weekday()), 0, 0, 0, 0, loc)
			return d.Format(time.DateOnly)
		}
	case BySession:
		s.key = func(e *Entry) string { return e.CLI + "\x00" + e.Project + "\x00" + e.Session }
	case ByModel:
		s.key = func(e *Entry) string { return cmp.Or(ModelName(e.Model), NoModel) }
	case ByAgent:
		s.key = func(e *Entry) string { return cmp.Or(e.Agent, "main") }
	case ByRun:
		s.key = func(e *Entry) string { return e.Run }
	case ByBlock:
	default:
		return nil, fmt.Errorf("--by must be one of %s, not %q", strings.Join(Groupings, ", "), by)
	}
	return s, nil
}

// Add counts e in its group and in the total.
func (s *Summary) Add(e *Entry) {
	if s.key == nil { // by block
		if len(s.block) >= MaxBlockCalls {
			s.err = ErrTooManyBlockCalls
			return
		}
		b := blockEntry{time: e.Time, tokens: e.Tokens, model: s.name(e.Model), run: s.name(e.Run)}
		if e.CostUSD != nil {
			b.cost, b.priced = *e.CostUSD, true
		}
		s.block = append(s.block, b)
		return
	}
	s.add(e, s.key(e))
}

// name returns n's index in s.strs, added if new.
func (s *Summary) name(n string) int32 {
	i, ok := s.names[n]
	if !ok {
		if s.names == nil {
			s.names = map[string]int32{}
		}
		i = int32(len(s.strs))
		s.strs = append(s.strs, n)
		s.names[n] = i
	}
	return i
}

// Err returns ErrTooManyBlockCalls when a summary by block was given
// more calls than it holds: its rows then leave the rest out.
func (s *Summary) Err() error { return s.err }

func (s *Summary) add(e *Entry, k string) {
	g := s.groups[k]
	if g == nil {
		g = newAcc(k)
		if s.by == BySession {
			g.row.Key = cmp.Or(e.Session, "-")
			if e.Project != "" {
				g.row.Key = e.Project + "/" + g.row.Key
			}
			g.row.CLI, g.row.Project, g.row.Session = e.CLI, e.Project, e.Session
		}
		s.groups[k] = g
	}
	c, src := 0.0, ""
	if e.CostUSD != nil {
		c, src = *e.CostUSD, SourceStream
	} else if v, ok := s.prices.Cost(e.Model, e.Tokens); ok {
		c, src = v, SourceTable
	}
	for _, a := range []*acc{g, s.all} {
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
		if src == "" {
			a.miss(cmp.Or(ModelName(e.Model), NoModel))
			continue
		}
		a.add(c, src)
	}
}

// Rows returns the rows in order (dates and blocks oldest first, sessions
// newest first, the rest by name) and their total.
func (s *Summary) Rows() (rows []Row, total Row) {
	if s.by == ByBlock {
		times := make([]time.Time, 0, len(s.block))
		for i := range s.block {
			if !s.block[i].time.IsZero() {
				times = append(times, s.block[i].time)
			}
		}
		blocks := blockStarts(times)
		times = nil
		for i := range s.block {
			b := &s.block[i]
			e := Entry{Time: b.time, Model: s.strs[b.model], Run: s.strs[b.run], Tokens: b.tokens}
			if b.priced {
				e.CostUSD = &b.cost
			}
			k := unknownTime
			if !e.Time.IsZero() {
				k = blocks[e.Time.UnixNano()].In(s.loc).Format(time.RFC3339)
			}
			s.add(&e, k)
		}
		s.block, s.names, s.strs = nil, nil, nil
	}
	loc := s.loc
	finish := func(a *acc) Row {
		r := a.row
		r.Runs = len(a.runs)
		a.fill(&r)
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
	keys := make([]string, 0, len(s.groups))
	for k := range s.groups {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		rows = append(rows, finish(s.groups[k]))
	}
	if s.by == BySession {
		// Newest first.
		slices.SortStableFunc(rows, func(a, b Row) int {
			return cmp.Compare(lastUnix(b), lastUnix(a))
		})
	}
	return rows, finish(s.all)
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

// blockStarts maps each of times (the dated entries' times, sorted here
// in place) to the start of its billing block (BlockHours).
func blockStarts(times []time.Time) map[int64]time.Time {
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
