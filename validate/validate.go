package validate

import (
	"bufio"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/wirecheck"
)

// Violation is one broken rule at a position.
type Violation struct {
	Rule    string `json:"rule"`
	Name    string `json:"name"`
	Source  string `json:"source"`
	Line    int    `json:"line"`   // 1-based; 0 when unknown
	Column  int    `json:"column"` // 1-based; 0 when unknown
	Message string `json:"message"`
}

// Config says what to check and how.
type Config struct {
	Source string        // input name, for violations
	Format format.Format // the input's format, as in convert's table
	// NewDecoder returns the format's decoder over r (Format.NewDecoder
	// with default options when nil). The GEN rules read its events.
	NewDecoder func(r io.Reader) event.Decoder
	// MaxEventBytes caps one line, SSE message or block
	// (event.DefaultMaxBytes when 0).
	MaxEventBytes int
	// MaxChunkBytes is the envelope byte cap (the format's default when 0).
	MaxChunkBytes int
	// Hint says what the input looks like when it holds no event of its
	// format (GEN010), e.g. "it looks like claude".
	Hint string
	// MaxPerRule caps the violations of one rule Check returns
	// (DefaultMaxPerRule when 0, no cap when negative): past it they are
	// counted, and one more violation of the rule, with no position,
	// says how many were left out ("and N more like this").
	MaxPerRule int
}

// DefaultMaxPerRule is the default of Config.MaxPerRule.
const DefaultMaxPerRule = 1000

// limiter counts the violations of each rule, for both checkers of one
// Check.
type limiter struct {
	mu   sync.Mutex
	max  int
	n    map[string]int
	left map[string]int // left out, by rule
}

// admit reports whether one more violation of rule is kept.
func (l *limiter) admit(rule string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.n[rule]++
	if l.max < 0 || l.n[rule] <= l.max {
		return true
	}
	l.left[rule]++
	return false
}

// Check reads r and returns the violations found, in input order. It
// returns an error only when r cannot be read to its end.
func Check(r io.Reader, cfg *Config) ([]Violation, error) {
	c := *cfg
	if c.MaxEventBytes <= 0 {
		c.MaxEventBytes = event.DefaultMaxBytes
	}
	if c.NewDecoder == nil && c.Format.NewDecoder != nil {
		f := c.Format
		c.NewDecoder = func(r io.Reader) event.Decoder {
			return f.NewDecoder(r, &format.Options{Source: c.Source, MaxEventBytes: c.MaxEventBytes})
		}
	}
	cc := &format.CheckConfig{Source: c.Source, MaxEventBytes: c.MaxEventBytes, MaxChunkBytes: c.MaxChunkBytes}
	if c.MaxPerRule == 0 {
		c.MaxPerRule = DefaultMaxPerRule
	}
	lim := &limiter{max: c.MaxPerRule, n: map[string]int{}, left: map[string]int{}}
	v := &checker{cfg: &c, lim: lim}
	v.t.init(v)
	er := &errReader{r: r}
	ur := newUTF8Reader(er, v)
	var err error
	switch {
	case c.Format.CheckAlone && c.Format.Check != nil:
		c.Format.Check(ur, cc, v)
		v.t.end()
	case c.NewDecoder == nil:
		return nil, fmt.Errorf("validate: no decoder for format %q", c.Format.Name)
	case c.Format.Check == nil:
		br := bufio.NewReaderSize(ur, 64<<10)
		units := newUnitReader(br, wirecheck.IsSSE(br))
		err = v.events(c.NewDecoder(units), units)
	default:
		br := bufio.NewReaderSize(ur, 64<<10)
		units := newUnitReader(br, wirecheck.IsSSE(br))
		// The format's wire rules read the same bytes as the decoder, in
		// step with it, through a pipe.
		pr, pw := io.Pipe()
		units.tee = pw
		w := &checker{cfg: &c, lim: lim}
		done := make(chan struct{})
		go func() {
			defer close(done)
			c.Format.Check(pr, cc, w)
			io.Copy(io.Discard, pr)
		}()
		err = v.events(c.NewDecoder(units), units)
		if err == nil {
			_, err = io.Copy(io.Discard, units) // what the decoder left unread
		}
		pw.CloseWithError(err)
		<-done
		v.out = dedupe(append(v.out, w.out...))
	}
	if err == nil {
		err = er.err
	}
	if err == nil && v.seen == 0 {
		hint := c.Hint
		if hint == "" {
			hint = "it holds nothing of the format"
		}
		v.out = append(v.out, NoEvents(c.Source, c.Format.Name, hint))
	}
	slices.SortStableFunc(v.out, func(a, b Violation) int {
		if (a.Line == 0) != (b.Line == 0) {
			return cmp.Compare(b.Line, a.Line) // unknown positions last
		}
		return cmp.Or(cmp.Compare(a.Line, b.Line), cmp.Compare(a.Column, b.Column))
	})
	// What was left out, after what was listed.
	for _, r := range slices.Sorted(maps.Keys(lim.left)) {
		rl, _ := rule(&c.Format, r)
		v.out = append(v.out, Violation{
			Rule: r, Name: rl.Name, Source: c.Source,
			Message: fmt.Sprintf("and %d more like this (not listed: more than %d)", lim.left[r], c.MaxPerRule),
		})
	}
	return v.out, err
}

// errReader remembers the first error of r other than io.EOF: a checker
// that reads the input alone stops there, and Check returns it.
type errReader struct {
	r   io.Reader
	err error
}

func (e *errReader) Read(p []byte) (int, error) {
	n, err := e.r.Read(p)
	if err != nil && err != io.EOF && e.err == nil {
		e.err = err
	}
	return n, err
}

// dedupe drops the decoder's syntax reports (GEN001) on lines where a
// format rule says more about the same problem.
func dedupe(vs []Violation) []Violation {
	specific := map[int]bool{}
	for _, v := range vs {
		if !strings.HasPrefix(v.Rule, "GEN") {
			specific[v.Line] = true
		}
	}
	return slices.DeleteFunc(vs, func(v Violation) bool { return v.Rule == Syntax && v.Line > 0 && specific[v.Line] })
}

// pos is a position in the input.
type pos struct{ line, col int }

// checker applies the GEN rules and collects violations. It is the
// format.Reporter of the format's own checker.
type checker struct {
	cfg       *Config
	lim       *limiter
	out       []Violation
	t         tracker
	truncated bool // a GEN002 was reported
	seen      int  // events of the format seen
}

func (v *checker) report(id string, p pos, msg string, args ...any) {
	r, applies := rule(&v.cfg.Format, id)
	if !applies {
		return
	}
	if id == Truncated {
		v.truncated = true
	}
	if !v.lim.admit(id) {
		return
	}
	v.out = append(v.out, Violation{
		Rule: id, Name: r.Name, Source: v.cfg.Source, Line: p.line, Column: p.col,
		Message: fmt.Sprintf(msg, args...),
	})
}

// Report implements format.Reporter.
func (v *checker) Report(rule string, line, col int, msg string) {
	v.report(rule, pos{line, col}, "%s", msg)
}

// Problem implements format.Reporter.
func (v *checker) Problem(err error) {
	var perr *event.ParseError
	if errors.As(err, &perr) {
		v.parseError(perr)
	}
}

// Event implements format.Reporter.
func (v *checker) Event(ev event.Event, line int) { v.observe(ev, pos{line, 1}) }

// parseError reports a decoder's positioned error under the rule its
// sentinel names.
func (v *checker) parseError(perr *event.ParseError) {
	rule := Syntax
	switch {
	case errors.Is(perr, event.ErrWarning):
		return // a decoder's warning (invalid UTF-8 has its own rule): no violation
	case errors.Is(perr, event.ErrTruncated):
		rule = Truncated
	case errors.Is(perr, event.ErrTooLarge):
		rule = TooLarge
	}
	col := perr.Column
	if perr.Line > 0 {
		col = max(col, 1) // a unit's problem with no column: at its start
	}
	v.report(rule, pos{perr.Line, col}, "%v", perr.Err)
}

// events applies the GEN rules to a decoder's output; units says where
// each event came from.
func (v *checker) events(dec event.Decoder, units *unitReader) error {
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if errors.As(err, &perr) {
				v.parseError(perr)
				continue
			}
			return err
		}
		v.observe(ev, units.position())
	}
	v.t.end()
	return nil
}

// observe applies the GEN rules to one event read at p.
func (v *checker) observe(ev event.Event, p pos) {
	agent := ev.AgentID()
	if _, unknown := ev.(*event.Unknown); !unknown {
		v.seen++
	}
	switch ev := ev.(type) {
	case *event.SessionStart:
		v.t.session(agent, p)
	case *event.RunEnd:
		v.t.runEnd(agent, p)
	case *event.ToolCall:
		v.t.toolCall(agent, ev.ID, ev.Name, ev.Input, ev.Server, p)
	case *event.ToolResult:
		v.t.toolResult(agent, ev.ID, p)
	case *event.AwaitingTools:
		var ids []string
		for _, t := range ev.Tools {
			ids = append(ids, t.ID)
		}
		v.t.pending(agent, ids, p)
	case *event.TurnStart:
		v.t.turnStart(agent, p)
	case *event.TurnEnd:
		v.t.turnEnd(agent, p)
	case *event.Notice, *event.Unknown:
		// Status lines and unknown items are not content.
	default:
		v.t.content(agent, p)
	}
}

// tracker holds the state of the GEN rules that span events: session
// order, tool calls and their results, turns. Each kind of state is capped
// at MaxOpen entries (agents, calls waiting for a result, ids listed as
// pending, open turns), as the decoders cap theirs: past the cap the entry
// held longest is let go of (an agent seen longest ago, the oldest call or
// turn), which is reported once for each kind as a violation of the rule
// that can no longer be checked for it. So the tracker holds at most a few
// thousand entries whatever the number of agents in the stream.
type tracker struct {
	v      *checker
	agents map[string]*agentState
	seen   *openset.Set[string]   // agents, the one seen longest ago first
	calls  map[string]pendingCall // client tool calls not answered yet, by id
	open   *openset.Set[string]   // the ids of calls, oldest first
	pend   *openset.Set[string]   // ids listed as pending before their call
	turns  map[string]pos         // open turn per agent
	opened *openset.Set[string]   // agents with a turn open, oldest first
	next   int                    // calls seen, for their order at the end
	capped map[string]bool        // kinds of state whose cap was reported
}

// MaxOpen caps each kind of state the GEN rules keep while reading: agents,
// tool calls waiting for a result, ids listed as pending and open turns.
const MaxOpen = openset.DefaultMax

type agentState struct {
	session    *pos // its session start
	content    *pos // first content
	ended      *pos // its run summary
	endedNoted bool
}

type pendingCall struct {
	agent, name string
	p           pos
	n           int  // the call's number, in input order
	pending     bool // listed as pending
}

func (t *tracker) init(v *checker) {
	t.v = v
	t.agents = map[string]*agentState{}
	t.seen = openset.New[string](MaxOpen)
	t.calls = map[string]pendingCall{}
	t.open = openset.New[string](MaxOpen)
	t.pend = openset.New[string](MaxOpen)
	t.turns = map[string]pos{}
	t.opened = openset.New[string](MaxOpen)
	t.capped = map[string]bool{}
}

// letGo reports, once for each rule, that the tracker let go of state.
func (t *tracker) letGo(rule string, p pos, msg string, args ...any) {
	if t.capped[rule] {
		return
	}
	t.capped[rule] = true
	t.v.report(rule, p, msg+" (later ones are not reported)", args...)
}

// agent returns the state of agent id, which becomes the one seen last.
func (t *tracker) agent(id string, p pos) *agentState {
	a := t.agents[id]
	if a == nil {
		a = &agentState{}
		t.agents[id] = a
	}
	t.seen.Remove(id)
	if old, out := t.seen.Add(id); out {
		delete(t.agents, old)
		t.letGo(MetaInitFirst, p, "more than %d agents; forgot the one seen longest ago, %s: its session start and run summary are no longer checked", MaxOpen, agentName(old))
	}
	return a
}

func agentName(id string) string { return wirecheck.AgentName(id) }

func (t *tracker) session(agent string, p pos) {
	a := t.agent(agent, p)
	switch {
	case a.session != nil:
		t.v.report(MetaInitFirst, p, "second session start of %s (first at line %d)", agentName(agent), a.session.line)
	case a.content != nil:
		t.v.report(MetaInitFirst, p, "session start of %s comes after its content (first at line %d)", agentName(agent), a.content.line)
	}
	if a.session == nil {
		a.session = &p
	}
	t.afterEnd(agent, a, p)
}

func (t *tracker) runEnd(agent string, p pos) {
	a := t.agent(agent, p)
	t.afterEnd(agent, a, p)
	a.ended = &p
	a.endedNoted = false
}

// content notes one content event of agent.
func (t *tracker) content(agent string, p pos) {
	a := t.agent(agent, p)
	if a.content == nil {
		a.content = &p
	}
	t.afterEnd(agent, a, p)
}

func (t *tracker) afterEnd(agent string, a *agentState, p pos) {
	if a.ended != nil && !a.endedNoted {
		a.endedNoted = true
		t.v.report(MetaFinalLast, p, "%s goes on after its run summary (line %d)", agentName(agent), a.ended.line)
	}
}

func (t *tracker) toolCall(agent, id, name string, input json.RawMessage, server bool, p pos) {
	t.content(agent, p)
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(input, &obj); err != nil || obj == nil {
		t.v.report(ToolInputJSON, p, "input of tool call %s (%s) is not a JSON object: %s", id, name, clip(string(input)))
	}
	if server {
		return // server tools' results are streamed only when the producer is asked to
	}
	c := pendingCall{agent: agent, name: name, p: p, n: t.next, pending: t.pend.Has(id)}
	t.next++
	t.pend.Remove(id)
	if old, ok := t.calls[id]; ok {
		c.n, c.pending = old.n, c.pending || old.pending
	}
	t.calls[id] = c
	if old, out := t.open.Add(id); out {
		oc := t.calls[old]
		delete(t.calls, old)
		t.letGo(ToolAnswered, p, "more than %d tool calls wait for a result; forgot the oldest, %s (%s) of %s: whether it is answered is not checked", MaxOpen, old, oc.name, agentName(oc.agent))
	}
}

func (t *tracker) toolResult(agent, id string, p pos) {
	t.content(agent, p)
	delete(t.calls, id)
	t.open.Remove(id)
}

// pending notes the ids an AwaitingTools lists: a call waiting for its
// result is marked; an id not (yet) called is kept, up to MaxOpen, the
// oldest let go of without a report (at worst its call, if it comes,
// is then reported unanswered).
func (t *tracker) pending(agent string, ids []string, p pos) {
	t.content(agent, p)
	for _, id := range ids {
		if c, ok := t.calls[id]; ok {
			c.pending = true
			t.calls[id] = c
			continue
		}
		t.pend.Add(id)
	}
}

func (t *tracker) turnStart(agent string, p pos) {
	t.content(agent, p)
	if open, ok := t.turns[agent]; ok {
		t.v.report(TurnClosed, open, "turn of %s started at line %d never ends (another starts at line %d)", agentName(agent), open.line, p.line)
	}
	t.turns[agent] = p
	if old, out := t.opened.Add(agent); out {
		delete(t.turns, old)
		t.letGo(TurnClosed, p, "more than %d turns open at once; forgot the oldest, of %s: whether it ends is not checked", MaxOpen, agentName(old))
	}
}

func (t *tracker) turnEnd(agent string, p pos) {
	t.content(agent, p)
	delete(t.turns, agent)
	t.opened.Remove(agent)
}

// end reports what is still open at the end of the stream, unless the
// stream was cut off, which explains it.
func (t *tracker) end() {
	if t.v.truncated {
		return
	}
	ids := make([]string, 0, len(t.calls))
	for id, c := range t.calls {
		if !c.pending {
			ids = append(ids, id)
		}
	}
	slices.SortFunc(ids, func(a, b string) int { return cmp.Compare(t.calls[a].n, t.calls[b].n) })
	for _, id := range ids {
		c := t.calls[id]
		t.v.report(ToolAnswered, c.p, "tool call %s (%s) of %s has no result and is not pending", id, c.name, agentName(c.agent))
	}
	agents := make([]string, 0, len(t.turns))
	for a := range t.turns {
		agents = append(agents, a)
	}
	sort.Strings(agents)
	for _, a := range agents {
		t.v.report(TurnClosed, t.turns[a], "turn of %s never ends", agentName(a))
	}
}

func clip(s string) string { return wirecheck.Clip(s) }
