package convert

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// The validate rules (validate.Rules) an output can break while written
// exactly as the input said. They are validate's ids; convert does not
// import validate.
const (
	ruleToolAnswered  = "GEN007"
	ruleToolInputJSON = "GEN008"
)

// RuleError says that an output breaks one of its format's validate rules
// because of what the input holds, not how it was written: a client tool
// call the input never answers (one model response, whose tool results go
// in the next request, written as a run), a tool's free-text input where
// the target takes a JSON object. Guard reports it through Options.Warn.
type RuleError struct {
	Format string   // the target format
	Rules  []string // the validate rule ids broken
	What   string
}

func (e *RuleError) Error() string {
	return fmt.Sprintf("%s output breaks validate %s: %s", e.Format, strings.Join(e.Rules, ", "), e.What)
}

// Guard wraps enc, an encoder of format to: it watches the events encoded
// and, when enc is closed (or at the first free-text input), reports
// through warn each rule of to's that the output will break as a
// *RuleError, once. It holds the ids of the client tool calls not yet
// answered, at most maxOpenCalls.
func Guard(enc event.Encoder, to Format, warn func(error)) event.Encoder {
	if warn == nil {
		return enc
	}
	return &guard{enc: enc, to: to, warn: warn}
}

// maxOpenCalls bounds the unanswered calls a guard remembers: past it a
// call is counted, not named.
const maxOpenCalls = 1024

// callKey is a tool call's agent and id: a struct, where a string of
// the two joined took an allocation per call and per result.
type callKey struct{ agent, id string }

type guard struct {
	enc  event.Encoder
	to   Format
	warn func(error)
	// open are the unanswered client tool calls, oldest first; index
	// holds their keys once there are more than fewCalls (a run
	// usually waits for one or two: they are found without hashing).
	open      []openCall
	index     map[callKey]struct{}
	uncounted int  // unanswered calls past maxOpenCalls
	freeText  bool // a free-text input was reported
}

type openCall struct {
	key  callKey
	name string
}

// fewCalls is how many open calls are looked for one by one.
const fewCalls = 8

// has reports whether key is an open call.
func (g *guard) has(key callKey) bool {
	if g.index != nil {
		_, ok := g.index[key]
		return ok
	}
	for _, c := range g.open {
		if c.key == key {
			return true
		}
	}
	return false
}

func (g *guard) Encode(ev event.Event) error {
	switch ev := ev.(type) {
	case *event.ToolCall:
		g.call(ev)
	case *event.ToolResult:
		g.answer(ev.Agent, ev.ID)
	case *event.AwaitingTools:
		if slices.Contains(g.to.Lacks, format.AwaitingTools) {
			break // the calls stay unanswered in the output
		}
		for _, p := range ev.Tools {
			g.answer(ev.Agent, p.ID)
		}
	}
	return g.enc.Encode(ev)
}

func (g *guard) call(c *event.ToolCall) {
	if !g.freeText && !isObject(c.Input) && !slices.Contains(g.to.Skips, ruleToolInputJSON) {
		g.freeText = true
		g.warn(&RuleError{Format: g.to.Name, Rules: []string{ruleToolInputJSON}, What: fmt.Sprintf(
			"the input of tool call %s (%s) is not a JSON object (a custom tool's free text): written as it is", c.ID, c.Name)})
	}
	if c.Server {
		return // its result is streamed only when the producer is asked to
	}
	key := callKey{c.Agent, c.ID}
	if g.has(key) {
		return
	}
	if len(g.open) >= maxOpenCalls {
		g.uncounted++
		return
	}
	g.open = append(g.open, openCall{key, c.Name})
	switch {
	case g.index != nil:
		g.index[key] = struct{}{}
	case len(g.open) > fewCalls:
		g.index = make(map[callKey]struct{}, 2*fewCalls)
		for _, c := range g.open {
			g.index[c.key] = struct{}{}
		}
	}
}

func (g *guard) answer(agent, id string) {
	key := callKey{agent, id}
	if g.has(key) {
		g.open = slices.DeleteFunc(g.open, func(c openCall) bool { return c.key == key })
		if g.index != nil {
			delete(g.index, key)
			if len(g.open) == 0 {
				g.index = nil // back to looking one by one
			}
		}
		return
	}
	if g.uncounted > 0 {
		// Most likely one of the calls past the cap (their ids are not
		// kept): the count stays an upper bound.
		g.uncounted--
	}
}

// isObject reports whether input, valid JSON as event.ToolCall promises,
// is an object: its first byte past white space opens one, with no need
// to decode it.
func isObject(input json.RawMessage) bool {
	b := bytes.TrimLeft(input, " \t\r\n")
	return len(b) > 0 && b[0] == '{'
}

// Close reports the calls left unanswered, then closes enc.
func (g *guard) Close() error {
	n := len(g.open) + g.uncounted
	if n > 0 && !slices.Contains(g.to.Skips, ruleToolAnswered) {
		var what string
		switch {
		case len(g.open) == 0:
			// Only calls past the cap, whose ids are not kept.
			what = fmt.Sprintf("%d tool calls have no result in the input: the output leaves them unanswered", n)
		case n == 1:
			what = fmt.Sprintf("tool call %s (%s) has no result in the input: the output leaves it unanswered", g.open[0].key.id, g.open[0].name)
		default:
			what = fmt.Sprintf("%d tool calls have no result in the input (the first: %s, %s): the output leaves them unanswered", n, g.open[0].key.id, g.open[0].name)
		}
		g.warn(&RuleError{Format: g.to.Name, Rules: append([]string{ruleToolAnswered}, g.to.Unanswered...), What: what})
	}
	return g.enc.Close()
}

// Cut ends a cut input's output (event.Cutter): the encoder's own Cut, if
// it has one. What a cut leaves unanswered is the cut's, not reported.
func (g *guard) Cut() error { return event.End(g.enc, true) }

// Flush passes Flush on to the encoder guarded (FlushEncoder).
func (g *guard) Flush() error { return FlushEncoder(g.enc) }

// Release passes Release on to the encoder guarded (ReleaseEncoder).
func (g *guard) Release() error { return ReleaseEncoder(g.enc) }
