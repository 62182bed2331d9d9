package corpustest

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// The run accounting of the Anthropic family of formats (issue 26): what a
// run says of its model turns and of itself (message ids, models, stop
// reasons, usage, cost, truncation), read from the events the target's own
// decoder gives of a conversion's output, never from goldens.

// anthropicFamily are the formats whose accounting these tests hold to the
// law: every recording of one of them goes to every target, and every
// recording goes to every one of them.
var anthropicFamily = []string{"anthropic", "claude", "claude-session", "jsonenv", "xml"}

// turnAccount is what a run says of one model turn of its main agent.
type turnAccount struct {
	ID, Model, Stop string
	Start, End      *event.Usage // TurnStart.Usage, TurnEnd.Usage
}

// account is what a run says of its main agent's accounting.
type account struct {
	Turns        []turnAccount
	SessionModel string
	HasRun       bool
	RunStop      string
	RunUsage     *event.Usage
	Cost         *float64
	Truncated    bool
	// OpenTurn: the input ended inside a turn (a turn started and not
	// ended); Failed: the main agent had an error (which ends an API
	// body's response) or a failed turn.
	OpenTurn, Failed bool
}

// usage returns the run's usage as a consumer counts it: the run end's,
// else the sum of the turns' final counts, else nil.
func (a *account) usage() *event.Usage {
	if a.RunUsage != nil {
		return counts(a.RunUsage)
	}
	var sum *event.Usage
	for _, t := range a.Turns {
		if t.End == nil {
			continue
		}
		if sum == nil {
			sum = &event.Usage{}
		}
		sum.InputTokens += t.End.InputTokens
		sum.OutputTokens += t.End.OutputTokens
		sum.CacheReadTokens += t.End.CacheReadTokens
		sum.CacheWriteTokens += t.End.CacheWriteTokens
	}
	return sum
}

// counts is u's token counts, without the reasoning count and the service
// tier, which not every format carries, and without which counts were
// said (checked apart: checkSaid).
func counts(u *event.Usage) *event.Usage {
	if u == nil {
		return nil
	}
	return &event.Usage{InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, CacheReadTokens: u.CacheReadTokens, CacheWriteTokens: u.CacheWriteTokens}
}

// said returns the token counts the run's usage says anywhere: its run
// end's and its turns'.
func (a *account) said() event.Counts {
	var c event.Counts
	for _, u := range []*event.Usage{a.RunUsage} {
		if u != nil {
			c |= u.Has
		}
	}
	for _, t := range a.Turns {
		for _, u := range []*event.Usage{t.Start, t.End} {
			if u != nil {
				c |= u.Has
			}
		}
	}
	return c
}

// checkSaid reports the token counts got says that src does not: a count
// the source lacks is absent (or in its unknown form) in the target,
// never a made-up 0. A source's cache writes may be said as part of the
// input (OpenAI counts them in the prompt).
func checkSaid(src, got event.Counts) string {
	if src&event.HasCacheWrite != 0 {
		src |= event.HasInput
	}
	if x := got &^ src; x != 0 {
		return fmt.Sprintf("usage counts %v made up: the source says %q", x, src.String())
	}
	return ""
}

// anyUsage reports whether the run gives any usage at all.
func (a *account) anyUsage() bool {
	if a.RunUsage != nil {
		return true
	}
	return slices.ContainsFunc(a.Turns, func(t turnAccount) bool { return t.Start != nil || t.End != nil })
}

// stops returns the stop reasons the run names, by class.
func (a *account) stops() []string {
	var out []string
	for _, t := range a.Turns {
		if t.Stop != "" {
			out = append(out, stopClass(t.Stop))
		}
	}
	if a.RunStop != "" {
		out = append(out, stopClass(a.RunStop))
	}
	return out
}

// stopClass names a stop reason by what it means, so that the OpenAI
// formats' words compare with the Messages API's.
func stopClass(s string) string {
	switch s {
	case "stop", "end_turn", "completed":
		return "end_turn"
	case "length", "max_tokens", "max_output_tokens":
		return "max_tokens"
	case "tool_calls", "function_call", "tool_use":
		return "tool_use"
	case "content_filter", "refusal":
		return "refusal"
	}
	return s
}

// accountOf decodes data in format f and returns its main agent's
// accounting: the agent of its first session start that has no parent,
// else of its first event.
func accountOf(t *testing.T, data []byte, f convert.Format) account {
	t.Helper()
	dec := f.NewDecoder(bytes.NewReader(data), &format.Options{Source: "in"})
	var a account
	main, haveMain, sessionMain := "", false, false
	var open *turnAccount
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("read %s: %v", f.Name, err)
			}
			if errors.Is(err, event.ErrTruncated) {
				a.Truncated = true
			}
			continue
		}
		if s, ok := ev.(*event.SessionStart); ok && !sessionMain && s.ParentAgent == "" && s.ParentToolID == "" {
			main, haveMain, sessionMain = s.Agent, true, true
			a.SessionModel = s.Model
		}
		if !haveMain {
			main, haveMain = ev.AgentID(), true
		}
		if ev.AgentID() != main {
			continue
		}
		switch ev := ev.(type) {
		case *event.TurnStart:
			a.Turns = append(a.Turns, turnAccount{ID: ev.MessageID, Model: ev.Model, Start: ev.Usage})
			open = &a.Turns[len(a.Turns)-1]
		case *event.TurnEnd:
			if open == nil {
				a.Turns = append(a.Turns, turnAccount{ID: ev.MessageID})
				open = &a.Turns[len(a.Turns)-1]
			}
			open.Stop, open.End = ev.StopReason, ev.Usage
			if open.ID == "" {
				open.ID = ev.MessageID
			}
			open = nil
			a.Failed = a.Failed || ev.Error != ""
		case *event.Error:
			a.Failed = true
		case *event.RunEnd:
			a.HasRun = true
			a.RunStop, a.RunUsage, a.Cost = ev.StopReason, ev.Usage, ev.CostUSD
		}
	}
	a.OpenTurn = open != nil
	return a
}

// carries says what a target format has a place for.
type carries struct {
	turnIDs, turnStops, turnUsage, runStop, usage, cost bool
	// ownRunEnd: the format ends every run with a summary of what is
	// known, where the source has no run end (claude's result line);
	// without it, usage given only per turn has no place.
	ownRunEnd bool
	// unknownID matches the id a target writes for a message whose
	// source names none, where the format requires one (nil: none).
	unknownID *regexp.Regexp
}

// both returns what a conversion through a and then b carries.
func both(a, b carries) carries {
	c := carries{
		turnIDs: a.turnIDs && b.turnIDs, turnStops: a.turnStops && b.turnStops, turnUsage: a.turnUsage && b.turnUsage,
		runStop: a.runStop && b.runStop, usage: a.usage && b.usage, cost: a.cost && b.cost, ownRunEnd: a.ownRunEnd && b.ownRunEnd,
		unknownID: a.unknownID,
	}
	if c.unknownID == nil {
		c.unknownID = b.unknownID
	}
	return c
}

var formatCarries = map[string]carries{
	"anthropic": {turnIDs: true, turnStops: true, turnUsage: true, usage: true},
	// Without --partial: ids on the assistant lines, stop reason, usage
	// and cost on the result line. A message with no id gets one
	// derived from its agent (msg_, 12 hex digits, _N): Claude Code's
	// readers tell messages apart by id.
	"claude":  {turnIDs: true, runStop: true, usage: true, cost: true, ownRunEnd: true, unknownID: regexp.MustCompile(`^msg_[0-9a-f]{12}_[0-9]+$`)},
	"jsonenv": {runStop: true, usage: true, cost: true},
	"xml":     {runStop: true, usage: true, cost: true},
}

// convertAll converts data from one format to another as the convert
// command does: the input's problems are skipped, and a cut input's output
// is ended with Cut.
func convertAll(t *testing.T, data []byte, from, to convert.Format) []byte {
	t.Helper()
	out, _ := convertLosses(t, data, from, to)
	return out
}

// convertLosses is convertAll that also returns what the encoder
// reported it could not carry (event.LossError's What), in order.
func convertLosses(t *testing.T, data []byte, from, to convert.Format) ([]byte, []string) {
	t.Helper()
	var losses []string
	var out bytes.Buffer
	dec := from.NewDecoder(bytes.NewReader(data), &format.Options{Source: "in"})
	// A Claude recording made with --include-partial-messages is written
	// back as one.
	partial := from.Name == "claude" && to.Name == "claude" && bytes.Contains(data, []byte(`"type":"stream_event"`))
	enc := to.NewEncoder(&out, &format.Options{Partial: partial, Warn: func(err error) {
		var le *event.LossError
		if errors.As(err, &le) {
			losses = append(losses, le.What)
		}
	}})
	cut := false
	if err := convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(err error) bool {
		cut = cut || errors.Is(err, event.ErrTruncated)
		return true
	}}); err != nil {
		t.Fatalf("convert %s to %s: %v", from.Name, to.Name, err)
	}
	event.End(enc, cut) // what it reports is the input's truncation
	return out.Bytes(), losses
}

// turnLoss is a per-turn accounting field, how to tell that a run has it,
// and the loss each target of the family (and acp) reports when it drops
// it ("" for a target that carries it, which must then report no loss of
// it).
type turnLoss struct {
	field string
	has   func(a *account) bool
	loss  map[string]string // target -> the start of its loss warning
	// many: targets that carry the field for one turn, a run's (acp's
	// session/prompt response): only two turns or more that have it
	// lose it.
	many map[string]bool
	n    func(a *account) int // the turns that have it, for many
}

// turnsWith counts the turns of a for which f holds.
func turnsWith(a *account, f func(turnAccount) bool) int {
	n := 0
	for _, t := range a.Turns {
		if f(t) {
			n++
		}
	}
	return n
}

var turnLosses = []turnLoss{
	{"message ids", func(a *account) bool {
		return slices.ContainsFunc(a.Turns, func(t turnAccount) bool { return t.ID != "" })
	}, map[string]string{"jsonenv": "message ids", "xml": "message ids", "anthropic": "", "claude": "", "acp": ""}, nil, nil},
	{"models of messages", func(a *account) bool {
		return slices.ContainsFunc(a.Turns, func(t turnAccount) bool { return t.Model != "" && t.Model != a.SessionModel })
	}, map[string]string{"jsonenv": "models of messages", "xml": "models of messages", "anthropic": "", "claude": ""}, nil, nil},
	{"models of messages", func(a *account) bool {
		return slices.ContainsFunc(a.Turns, func(t turnAccount) bool { return t.Model != "" })
	}, map[string]string{"acp": "models of messages"}, nil, nil},
	{
		"per-turn stop reasons", func(a *account) bool {
			return slices.ContainsFunc(a.Turns, func(t turnAccount) bool { return t.Stop != "" })
		},
		map[string]string{"jsonenv": "per-turn stop reasons", "xml": "per-turn stop reasons", "anthropic": "", "acp": "per-turn stop reasons"},
		map[string]bool{"acp": true},
		func(a *account) int { return turnsWith(a, func(t turnAccount) bool { return t.Stop != "" }) },
	},
	{
		"per-turn usage", func(a *account) bool {
			return slices.ContainsFunc(a.Turns, func(t turnAccount) bool { return t.Start != nil || t.End != nil })
		},
		map[string]string{"jsonenv": "per-turn usage", "xml": "per-turn usage", "anthropic": "", "acp": "per-turn usage"},
		map[string]bool{"acp": true},
		func(a *account) int {
			return turnsWith(a, func(t turnAccount) bool { return t.Start != nil || t.End != nil })
		},
	},
	{"reasoning token counts", func(a *account) bool {
		r := func(u *event.Usage) bool { return u != nil && u.ReasoningTokens != 0 }
		return r(a.RunUsage) || slices.ContainsFunc(a.Turns, func(t turnAccount) bool { return r(t.Start) || r(t.End) })
	}, map[string]string{"anthropic": "reasoning token counts", "claude": "reasoning token counts", "acp": ""}, nil, nil},
}

// checkLosses checks the warnings of a conversion to target whose source
// accounting is src: each per-turn field the source has and the target
// drops is reported as a loss, once; one the target carries is not.
func checkLosses(src *account, target string, losses []string) []string {
	var bad []string
	for _, f := range turnLosses {
		want, known := f.loss[target]
		if !known {
			continue
		}
		prefix := want
		if prefix == "" {
			prefix = f.field
		}
		n := 0
		for _, l := range losses {
			if strings.HasPrefix(l, prefix) {
				n++
			}
		}
		has := f.has(src)
		if f.many[target] {
			has = f.n(src) >= 2
		}
		switch {
		case want != "" && has && n != 1:
			bad = append(bad, fmt.Sprintf("%s: the source has them, %s drops them: reported %d times, want once (warnings %q)", f.field, target, n, losses))
		case want == "" && n > 0:
			bad = append(bad, fmt.Sprintf("%s: %s carries them, but reported them lost (warnings %q)", f.field, target, losses))
		}
	}
	return bad
}

// checkAccounting checks the law for a conversion whose source accounting
// is src and output accounting got, through formats that carry c: nothing the
// source lacks is in the output (no made-up stop reason, 0 usage, cost,
// model or id), and what both carry is equal.
func checkAccounting(src, got account, c carries) []string {
	var bad []string
	fail := func(format string, args ...any) { bad = append(bad, fmt.Sprintf(format, args...)) }

	// Nothing invented.
	if !src.anyUsage() && got.anyUsage() {
		fail("usage made up: the source has none, the output %+v", got.usage())
	}
	if p := checkSaid(src.said(), got.said()); p != "" {
		fail("%s", p)
	}
	if got.Cost != nil && (src.Cost == nil || *got.Cost != *src.Cost) {
		fail("cost %v, the source's %v", *got.Cost, src.Cost)
	}
	srcStops := src.stops()
	for _, s := range got.stops() {
		if !slices.Contains(srcStops, s) {
			fail("stop reason %q made up: the source names %q", s, srcStops)
		}
	}
	var srcIDs, srcModels []string
	for _, tu := range src.Turns {
		srcIDs = append(srcIDs, tu.ID)
		srcModels = append(srcModels, tu.Model)
	}
	srcModels = append(srcModels, src.SessionModel, "<synthetic>")
	for _, tu := range got.Turns {
		if tu.ID != "" && !slices.Contains(srcIDs, tu.ID) && (c.unknownID == nil || !c.unknownID.MatchString(tu.ID)) {
			fail("message id %q made up: the source's are %q", tu.ID, srcIDs)
		}
		if tu.Model != "" && !slices.Contains(srcModels, tu.Model) {
			fail("model %q made up: the source's are %q", tu.Model, srcModels)
		}
	}
	if got.SessionModel != "" && !slices.Contains(srcModels, got.SessionModel) {
		fail("session model %q made up: the source's are %q", got.SessionModel, srcModels)
	}

	// What both carry survives.
	// An API body carries usage only on a message: a failed run's usage
	// after its last message has no place (reported as lost), and a cut
	// run's end is not written. The envelope and XML carry only a run's
	// usage: per-turn usage of a source without a run end is lost
	// (reported).
	placed := c.turnUsage || src.RunUsage != nil || c.ownRunEnd
	if u := src.usage(); u != nil && c.usage && placed && (c.runStop || len(got.Turns) > 0 && !src.Failed) && (!src.Truncated || c.turnUsage) {
		if diff := cmp.Diff(u, got.usage()); diff != "" {
			fail("run usage (-source +output):\n%s", diff)
		}
	}
	if src.Cost != nil && c.cost && (got.Cost == nil || *got.Cost != *src.Cost) {
		fail("cost %v lost: the output's %v", *src.Cost, got.Cost)
	}
	if src.HasRun && src.RunStop != "" && c.runStop && stopClass(got.RunStop) != stopClass(src.RunStop) {
		fail("run stop reason %q, the source's %q", got.RunStop, src.RunStop)
	}
	if c.turnIDs {
		want, have := turnIDs(src.Turns), turnIDs(got.Turns)
		if len(want) > 0 {
			if diff := cmp.Diff(want, have); diff != "" {
				fail("message ids (-source +output):\n%s", diff)
			}
		}
	}
	if c.turnStops && len(src.Turns) == len(got.Turns) {
		for i, tu := range src.Turns {
			if tu.Stop != "" && stopClass(got.Turns[i].Stop) != stopClass(tu.Stop) {
				fail("turn %d stop reason %q, the source's %q", i, got.Turns[i].Stop, tu.Stop)
			}
		}
	}
	if c.turnUsage && len(src.Turns) == len(got.Turns) {
		for i, tu := range src.Turns {
			if tu.End != nil && !cmp.Equal(counts(tu.End), counts(got.Turns[i].End)) {
				fail("turn %d usage %+v, the source's %+v", i, got.Turns[i].End, tu.End)
			}
		}
	}
	// A cut between two whole responses is no cut of an API body: only
	// a format with a run end, or a cut inside a turn, shows it.
	if src.Truncated && (c.runStop || src.OpenTurn) && !got.Truncated {
		fail("the source is cut, the output is not")
	}
	return bad
}

// turnIDs returns the non-empty message ids of turns, each once.
func turnIDs(turns []turnAccount) []string {
	var out []string
	for _, t := range turns {
		if t.ID != "" && !slices.Contains(out, t.ID) {
			out = append(out, t.ID)
		}
	}
	return out
}

// TestAccountingAnthropic: every recording converted to every format of
// the Anthropic family, and every recording of that family converted to
// itself and through every one of them and back, keeps its accounting:
// nothing made up (stop reason, 0 usage, cost, model, id), and every
// field both formats carry equal.
func TestAccountingAnthropic(t *testing.T) {
	t.Parallel()
	for _, rec := range recordings(t) {
		src := accountOf(t, rec.data, rec.f)
		mine := slices.Contains(anthropicFamily, rec.f.Name)
		for _, to := range encoders() {
			c, target := formatCarries[to.Name]
			if !target && !mine {
				continue // neither format is of this family
			}
			t.Run(rec.path+"->"+to.Name, func(t *testing.T) {
				t.Parallel()
				out, losses := convertLosses(t, rec.data, rec.f, to)
				got := accountOf(t, out, to)
				if bad := checkAccounting(src, got, c); target && len(bad) > 0 {
					t.Errorf("%s -> %s:\n%s", rec.f.Name, to.Name, strings.Join(bad, "\n"))
				}
				if bad := checkLosses(&src, to.Name, losses); len(bad) > 0 {
					t.Errorf("%s -> %s: losses:\n%s", rec.f.Name, to.Name, strings.Join(bad, "\n"))
				}
				if !mine || rec.f.NewEncoder == nil {
					return
				}
				back := convertAll(t, out, to, rec.f)
				from := src
				if !target {
					// Through another family's format, whose writer
					// is held to the law by that family's tests: the
					// way back makes nothing up of what it read.
					from = got
				}
				// What the way there lost is no more carried on the way
				// back.
				if bad := checkAccounting(from, accountOf(t, back, rec.f), both(formatCarries[rec.f.Name], c)); len(bad) > 0 {
					t.Errorf("%s -> %s -> %s:\n%s", rec.f.Name, to.Name, rec.f.Name, strings.Join(bad, "\n"))
				}
				if to.Name == rec.f.Name {
					if diff := cmp.Diff(src, got); diff != "" {
						t.Errorf("%s -> itself: accounting differs (-source +output):\n%s", rec.f.Name, diff)
					}
				}
			})
		}
	}
}
