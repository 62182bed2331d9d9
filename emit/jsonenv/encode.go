package jsonenv

import (
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/agentstream/agentstream/emit/internal/lost"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/internal/agentmeta"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/slab"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
)

// Config configures an Encoder. The zero value is ready to use.
type Config struct {
	// MaxChunkBytes caps the JSON text of every envelope as written
	// (format.DefaultMaxChunkBytes, the specification's, if 0).
	MaxChunkBytes int
	// NDJSON writes one envelope per line instead of SSE messages.
	NDJSON bool
	// Agent is written for events whose agent is empty.
	Agent string
	// Warn receives what the envelope cannot carry. Nil discards it.
	Warn func(error)
	// MaxOpen caps the streamed blocks kept open at once, and apart from
	// them the blocks an error or an abandon cut short
	// (openset.DefaultMax, 1024, if <= 0). Beyond it the one kept
	// longest is let go of, reported once: a block let go of while open
	// stays open in the output, which then ends as a cut one (no
	// [DONE]); one cut short and let go of gets no empty final envelope
	// before its retry.
	MaxOpen int
}

// Encoder writes canonical events as JSON envelopes.
type Encoder struct {
	w     io.Writer
	cfg   Config
	tail  []byte                    // a payload's extras, escaped
	out   []byte                    // the framed envelope, reused
	chunk []byte                    // a long payload's chunk, escaped, reused
	meta  []byte                    // a payload built from an event's fields, reused
	mw    metaWriter                // builds it
	jr    jsontext.Reader           // reads an error's source object
	errp  wire.ErrorPayload         // what jr read
	open  *openset.Small[[2]string] // open streamed blocks by (agent, type)
	// letGo counts the blocks let go of past MaxOpen while open.
	letGo int
	// began is the block begin noted open last, while it still is
	// (cleared when a block ends or is cut): a run of its deltas skips
	// the two map lookups.
	began  [2]string
	cut    *openset.Set[[2]string] // blocks an error or an abandon cut short, not ended yet
	main   string                  // the agent of events with none
	seen   bool                    // an event was encoded
	losses event.Losses            // what was warned about
	turns  agentmeta.Turns         // what of the turns is reported lost
	err    error

	// head is `{"type":T,"agent":A,"final":` for headOf, (T, A): the
	// type and agent of a run of envelopes, escaped once for the run;
	// agentJSON is the agent of jsonOf escaped, for a new head.
	head      []byte
	headOf    [2]string
	agentJSON []byte
	jsonOf    string
	typeHeads [][2]string // typeHead's, by type
}

// NewEncoder returns an encoder writing to w. cfg may be nil.
func NewEncoder(w io.Writer, cfg *Config) *Encoder {
	e := &Encoder{w: w}
	if cfg != nil {
		e.cfg = *cfg
	}
	e.open = openset.NewSmall[[2]string](e.cfg.MaxOpen)
	e.cut = openset.New[[2]string](e.cfg.MaxOpen)
	if e.cfg.MaxChunkBytes <= 0 {
		e.cfg.MaxChunkBytes = format.DefaultMaxChunkBytes
	}
	return e
}

func (e *Encoder) warn(what string) {
	e.losses.Report(e.cfg.Warn, "jsonenv", what)
}

// extras are the fields after delta, in order: a string or a number,
// or nothing (an optional field not set). Their keys are this file's
// constants, which JSON writes as they are.
type extra struct {
	key string
	str string
	num int64
	is  byte // 's' a string, 'n' a number, 0 not written
}

func str(k, v string) extra { return extra{key: k, str: v, is: 's'} }

func optStr(k string, v *string) extra {
	if v == nil {
		return extra{}
	}
	return str(k, *v)
}

func optNum(k string, v *int64) extra {
	if v == nil {
		return extra{}
	}
	return extra{key: k, num: *v, is: 'n'}
}

// DefaultAgent is the agent written for events of a source that names no
// agent when Config.Agent is empty: an envelope's agent is never empty
// (validate rule ENV009).
const DefaultAgent = "agentstream"

// agentOf returns the agent written for ev: its own; for an event with
// none, Config.Agent, else the agent of the stream's first event when that
// names one (an error no agent claims, such as the envelope producer's
// fatal line read back, belongs to the run it interrupted), else
// DefaultAgent. A stream whose first event names no agent keeps its
// agentless events apart from the agents it names later (the first choice
// of an n > 1 Chat Completions body beside the others).
func (e *Encoder) agentOf(ev event.Event) string {
	agent := ev.AgentID()
	if !e.seen {
		e.seen = true
		e.main = cmp.Or(e.cfg.Agent, agent, DefaultAgent)
	}
	if agent != "" {
		return agent
	}
	return cmp.Or(e.cfg.Agent, e.main)
}

// Encode writes the envelopes for ev.
func (e *Encoder) Encode(ev event.Event) error {
	if e.err != nil {
		return e.err
	}
	if d, ok := ev.(*event.Delta); ok && e.seen && d.Agent != "" {
		// A delta naming its agent once the stream's first event is
		// seen (most events): agentOf would return its agent, and
		// turns.Report has nothing to report; written without the
		// switch on the event's type.
		e.begin(d.Agent, d.Kind)
		e.payload(string(d.Kind), d.Agent, d.Text, false)
		return e.err
	}
	agent := e.agentOf(ev)
	e.turns.Report(ev, e.warn)
	switch ev := ev.(type) {
	case *event.SessionStart:
		if ownMeta(ev.MetaKind, ev.Meta) {
			e.payload(wire.TypeMetaInit, agent, view(ev.Meta), true)
			break
		}
		e.built(wire.TypeMetaInit, agent, agentmeta.InitSize(ev), func(b []byte, f form) []byte { return e.mw.appendMetaInit(b, ev, f) })
	case *event.BlockStart:
		e.begin(agent, ev.Kind)
	case *event.Delta:
		e.begin(agent, ev.Kind)
		e.payload(string(ev.Kind), agent, ev.Text, false)
	case *event.BlockEnd:
		e.open.Remove([2]string{agent, string(ev.Kind)})
		e.began = [2]string{}
		if ev.Signature != "" {
			e.warn("thinking signatures")
		}
		e.envelope(string(ev.Kind), agent, true, "")
	case *event.Citations:
		// One envelope per citation, as the spec's consumers expect: a
		// citation is never split, even when its cited text takes it over
		// the cap (docs/formats/jsonenv.md).
		for i, c := range ev.Items {
			last := i == len(ev.Items)-1
			if len(c.Raw) > 0 {
				e.warn("citation fields beyond the envelope's")
			}
			e.envelope(wire.TypeCitation, agent, last, c.CitedText,
				str("citation_type", c.Type),
				optNum("document_index", c.DocumentIndex), optStr("document_title", c.DocumentTitle),
				optNum("start_char_index", c.StartCharIndex), optNum("end_char_index", c.EndCharIndex),
				optNum("start_page_number", c.StartPageNumber), optNum("end_page_number", c.EndPageNumber),
				optStr("url", c.URL), optStr("title", c.Title))
		}
	case *event.ToolCall:
		typ := wire.TypeToolCall
		if ev.Server {
			typ = wire.TypeServerToolCall
		}
		if ev.MCPServer != "" {
			e.warn("the MCP server of a tool call")
		}
		if ev.Truncated {
			// What arrived of the arguments, never final: the reader
			// sees the payload cut as the source's was.
			e.payload(typ, agent, ev.PartialInput(), false, str("id", ev.ID), str("name", ev.Name))
			break
		}
		e.payload(typ, agent, view(ev.Input), true, str("id", ev.ID), str("name", ev.Name))
	case *event.ToolResult:
		e.toolResult(agent, ev)
	case *event.AwaitingTools:
		e.payload(wire.TypeAwaitingTools, agent, awaitingPayload(ev.Tools), true)
	case *event.Files:
		data := string(ev.Raw)
		if data == "" {
			mf := wire.MetaFiles{Files: []wire.FileMeta{}}
			for _, f := range ev.Files {
				mf.Files = append(mf.Files, wire.FileMeta{FileID: f.ID, Filename: f.Name, StorageLocation: f.Location})
			}
			data = marshal(mf)
		}
		e.payload(wire.TypeMetaFiles, agent, data, true)
	case *event.Error:
		e.interrupt(agent)
		if raw, ok := sourceError(&e.jr, &e.errp, ev); ok {
			e.payload(wire.TypeError, agent, string(raw), true)
			break
		}
		e.built(wire.TypeError, agent, len(ev.Type)+len(ev.Message), func(b []byte, f form) []byte {
			return e.mw.appendErrorObject(b, ev.Type, ev.Message, f)
		})
	case *event.TurnEnd:
		if ev.Error != "" {
			e.built(wire.TypeError, agent, len(ev.Error), func(b []byte, f form) []byte {
				return e.mw.appendErrorObject(b, "turn_failed", ev.Error, f)
			})
		}
	case *event.TurnStart:
		// The envelope has no turn boundaries; nothing is lost but the
		// boundary itself, which the next blocks imply.
	case *event.RunEnd:
		switch {
		case ownMeta(ev.MetaKind, ev.Meta):
			e.payload(wire.TypeMetaFinal, agent, view(ev.Meta), true)
		case ev.CostUSD != nil && (math.IsNaN(*ev.CostUSD) || math.IsInf(*ev.CostUSD, 0)):
			e.payload(wire.TypeMetaFinal, agent, string(marshalMetaFinal(ev)), true)
		default:
			e.built(wire.TypeMetaFinal, agent, agentmeta.FinalSize(ev), func(b []byte, f form) []byte {
				b, _ = e.mw.appendMetaFinal(b, ev, f)
				return b
			})
		}
	case *event.Notice:
		if ev.Kind == event.NoticeAbandoned {
			// What the agent streamed of its open blocks is taken back
			// (agent_base's rollback): they get no final envelope, and
			// a reader drops them, as assemble does, never as content.
			e.abandon(agent)
			e.payload(wire.TypeRollback, agent, marshal(wire.RollbackPayload{Message: ev.Message}), true)
		} else {
			e.warn("notices (" + ev.Kind + ")")
		}
	case *event.Unknown:
		if ev.Format == "jsonenv" {
			// Verbatim but compact: an SSE message may spread one JSON
			// object over several data: lines, which one line cannot hold.
			var buf bytes.Buffer
			if json.Compact(&buf, ev.Raw) != nil {
				e.warn("an unknown envelope that is not JSON")
				break
			}
			e.line(buf.Bytes())
		} else {
			e.warn("unknown " + ev.Format + " events")
		}
	default: // file changes, todo lists, ...
		e.warn(lost.Kind(ev))
	}
	return e.err
}

func (e *Encoder) toolResult(agent string, ev *event.ToolResult) {
	typ := wire.TypeToolResult
	if ev.Server {
		typ = wire.TypeServerToolResult
	}
	if ev.IsError {
		e.warn("tool result is_error")
	}
	if ev.ExitCode != nil || ev.Status != "" {
		e.warn("tool result exit codes and status")
	}
	if len(ev.Structured) > 0 {
		e.warn("structured tool results")
	}
	var text []byte
	var images []event.Part
	for _, p := range ev.Content {
		switch p.Type {
		case "image":
			images = append(images, p)
		default:
			if len(text) > 0 {
				text = append(text, '\n')
			}
			text = append(text, p.Text...)
		}
	}
	id, name := str("id", ev.ID), str("name", ev.Name)
	if len(images) == 0 {
		e.payload(typ, agent, string(text), true, id, name)
		return
	}
	if ev.Server {
		e.warn("images in server tool results")
		e.payload(typ, agent, string(text), true, id, name)
		return
	}
	e.payload(typ, agent, string(text), false, id, name)
	for _, img := range images {
		e.envelope(wire.TypeToolResultImage, agent, false, "", id, name,
			str("src", img.Source), str("media_type", img.MediaType))
	}
	e.envelope(typ, agent, true, "", id, name)
}

// interrupt marks the agent's open blocks as cut short by an error or an
// abandon: they get no BlockEnd and are no longer open.
func (e *Encoder) interrupt(agent string) {
	if e.began = [2]string{}; e.open.Len() == 0 {
		return // (All makes an iterator, two allocations)
	}
	// In key order, not the set's map order: past the cap, which block
	// e.cut lets go of must be the same on every run.
	var keys [][2]string
	for k := range e.open.All() {
		if k[0] == agent {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(a, b [2]string) int { return strings.Compare(a[1], b[1]) })
	for _, k := range keys {
		e.open.Remove(k)
		if _, out := e.cut.Add(k); out {
			e.tooMany("blocks cut short", "the oldest let go of: its retry's text joins it when read back")
		}
	}
}

// abandon forgets the agent's open blocks, given up: no final envelope
// ends them, now or before a new block of theirs.
func (e *Encoder) abandon(agent string) {
	e.began = [2]string{}
	for k := range e.open.All() {
		if k[0] == agent {
			e.open.Remove(k)
		}
	}
}

// begin notes a block of the agent's kind as open. When one of that kind
// was cut short, an empty final envelope ends it first: the envelope
// cannot say "cut short", and without it the new block's text would join
// the old one's when read back.
func (e *Encoder) begin(agent string, kind event.BlockKind) {
	if same(&e.began, agent, string(kind)) {
		return // open, and not cut since (agent is never empty: never the zero key)
	}
	k := [2]string{agent, string(kind)}
	if e.cut.Has(k) {
		e.cut.Remove(k)
		e.envelope(string(kind), agent, true, "")
	}
	if _, out := e.open.Add(k); out {
		e.letGo++
		e.tooMany("streamed blocks open", "the oldest let go of stays open: the output ends as a cut one")
	}
	e.began = k
}

// built writes a final payload that build builds from an event's
// fields: quoted, as one envelope, when it fits in one (as payload would
// write it), else plain through payload, which cuts it. size is the
// length of the event's strings in it, which its quoted form is at least
// as long as: a payload that cannot fit is built plain only.
func (e *Encoder) built(typ, agent string, size int, build func([]byte, form) []byte) {
	head := e.headFor(typ, agent)
	budget := e.budget(head, len("}"))
	if size <= budget || budget < maxRuneJSON {
		e.meta = build(e.meta[:0], quoted)
	}
	if budget < maxRuneJSON || size <= budget && len(e.meta) <= budget {
		if e.err == nil {
			b := appendHead(e.frameStart(), head, true)
			e.out = append(append(append(b, '"'), e.meta...), '"', '}')
			e.frameEnd()
		}
		return
	}
	e.meta = build(e.meta[:0], plain)
	e.payload(typ, agent, string(e.meta), true)
}

// budget returns the room for a payload's escaped text in one envelope
// of head (headFor's) and a tail (the extras and the closing brace) of
// tail bytes: MaxChunkBytes less the fixed fields with "final":false,
// the longer of the two.
func (e *Encoder) budget(head []byte, tail int) int {
	return e.cfg.MaxChunkBytes - len(head) - len(`false,"delta":""`) - tail
}

// payload writes data as one or more envelopes of at most MaxChunkBytes;
// the last carries final. The extras are escaped once, into e.tail, for
// every envelope of it.
func (e *Encoder) payload(typ, agent, data string, final bool, extras ...extra) {
	if e.tail = e.tail[:0]; len(extras) > 0 {
		e.tail = appendExtras(e.tail, extras)
	}
	head := e.headFor(typ, agent) // (written by payload only: kept)
	budget := e.budget(head, len(e.tail)+len("}"))
	if budget < maxRuneJSON || len(data) <= budget/maxRuneJSON {
		// Fits even if every byte were escaped (a delta), or the fixed
		// fields alone leave no room for one character: written whole
		// (the documented exception).
		if e.err == nil {
			b := jsontext.AppendString(appendHead(e.frameStart(), head, final), data)
			e.out = append(append(b, e.tail...), '}')
			e.frameEnd()
		}
		return
	}
	// Each chunk is escaped once, into e.chunk, as far as the budget
	// goes, then copied into its envelope: measuring it first and
	// escaping it after scanned a long payload twice.
	valid := utf8.ValidString(data)
	for {
		var n int
		e.chunk, n = jsontext.AppendStringPrefix(e.chunk[:0], data, budget, valid)
		last := n == len(data)
		if e.err == nil {
			b := appendHead(e.frameStart(), head, final && last)
			e.out = append(append(append(append(append(b, '"'), e.chunk...), '"'), e.tail...), '}')
			e.frameEnd()
		}
		if last {
			return
		}
		data = data[n:]
	}
}

// view returns b as a string without a copy, for payload, which reads
// data and keeps none of it: an event's payload (Meta, a tool call's
// Input) is never written after the event is handed out, and string(b)
// copied it whole (a meta_final holds the run's whole conversation).
func view(b []byte) string { return unsafe.String(unsafe.SliceData(b), len(b)) }

// maxRuneJSON is the most bytes one character takes in a JSON string
// (a control character as \u00XX).
const maxRuneJSON = 6

func (e *Encoder) envelope(typ, agent string, final bool, delta string, extras ...extra) {
	if e.err != nil {
		return
	}
	b := jsontext.AppendString(appendHead(e.frameStart(), e.headFor(typ, agent), final), delta)
	e.out = append(appendExtras(b, extras), '}')
	e.frameEnd()
}

// appendHead appends an envelope of head (headFor's) up to its delta's
// value.
func appendHead(b, head []byte, final bool) []byte {
	b = strconv.AppendBool(append(b, head...), final)
	return append(b, `,"delta":`...)
}

// headFor returns the head of an envelope of typ and agent, up to its
// final's value, built when the last was of another.
func (e *Encoder) headFor(typ, agent string) []byte {
	if same(&e.headOf, typ, agent) && len(e.head) > 0 {
		return e.head
	}
	if agent != e.jsonOf || len(e.agentJSON) == 0 {
		e.agentJSON, e.jsonOf = jsontext.AppendString(e.agentJSON[:0], agent), agent
	}
	h := append(append(e.head[:0], e.typeHead(typ)...), e.agentJSON...)
	e.head, e.headOf = append(h, `,"final":`...), [2]string{typ, agent}
	return e.head
}

// typeHead returns `{"type":T,"agent":` for typ, escaped once: the runs
// of a log of many short ones (Codex's) change the head at almost every
// envelope, among a handful of types.
func (e *Encoder) typeHead(typ string) string {
	for _, t := range e.typeHeads {
		if t[0] == typ {
			return t[1]
		}
	}
	h := string(append(jsontext.AppendString([]byte(`{"type":`), typ), `,"agent":`...))
	if len(e.typeHeads) < maxTypeHeads && len(typ) <= maxTypeHeadLen {
		e.typeHeads = append(e.typeHeads, [2]string{typ, h})
	}
	return h
}

// maxTypeHeads caps the types typeHead keeps: more than the envelope's
// own (an unknown block kind's type comes from its source), each of
// maxTypeHeadLen bytes at most (a type is a name: the caps keep what is
// held small, whatever types the events bring).
const (
	maxTypeHeads   = 32
	maxTypeHeadLen = 64
)

// same reports whether k is {a, b}: two string compares inline, where
// k == [2]string{a, b} calls the generic array equality (type:.eq).
func same(k *[2]string, a, b string) bool { return slab.Equal(k[0], a) && slab.Equal(k[1], b) }

// appendExtras appends an envelope's extras.
func appendExtras(b []byte, extras []extra) []byte {
	for _, x := range extras {
		switch x.is {
		case 's':
			b = jsontext.AppendString(append(append(append(b, ',', '"'), x.key...), '"', ':'), x.str)
		case 'n':
			b = strconv.AppendInt(append(append(append(b, ',', '"'), x.key...), '"', ':'), x.num, 10)
		}
	}
	return b
}

// line writes one framed envelope.
func (e *Encoder) line(b []byte) {
	if e.err != nil {
		return
	}
	e.out = append(e.frameStart(), b...)
	e.frameEnd()
}

// frameStart returns the output buffer with the framing that comes before an
// envelope.
func (e *Encoder) frameStart() []byte {
	if e.cfg.NDJSON {
		return e.out[:0]
	}
	return append(e.out[:0], "data: "...)
}

// frameEnd ends the framed envelope in the output buffer and writes it.
func (e *Encoder) frameEnd() {
	if e.cfg.NDJSON {
		e.out = append(e.out, '\n')
	} else {
		e.out = append(e.out, "\n\n"...)
	}
	_, e.err = e.w.Write(e.out)
	if cap(e.out) > 64<<10 {
		e.out = nil // a rare large envelope: not kept
	}
}

// MarksAbandoned: an abandoned partial message is taken back with a rollback envelope (convert.AbandonMarker).
func (*Encoder) MarksAbandoned() bool { return true }

// Close ends the stream: "data: [DONE]" in SSE framing. When a streamed
// block is still open (the input was cut off), it writes no end marker and
// reports the truncation.
func (e *Encoder) Close() error {
	if e.err != nil {
		return e.err
	}
	if n := e.open.Len() + e.letGo; n > 0 {
		return fmt.Errorf("jsonenv: %w: %d block(s) left open, no [DONE] written", event.ErrTruncated, n)
	}
	e.turns.ReportEnd(e.warn)
	if !e.cfg.NDJSON {
		_, e.err = io.WriteString(e.w, "data: [DONE]\n\n")
	}
	return e.err
}

// Cut ends a stream whose input was cut off: no [DONE] (event.Cutter).
func (e *Encoder) Cut() error {
	if e.err != nil {
		return e.err
	}
	return fmt.Errorf("jsonenv: %w: the input was cut off, no [DONE] written", event.ErrTruncated)
}

// tooMany reports, once per kind, that more than MaxOpen of what were
// kept at once, and what letting go of one does.
func (e *Encoder) tooMany(what, why string) {
	e.warn(fmt.Sprintf("more than %d %s at once (%s)", e.open.Max(), what, why))
}

func marshal(v any) string {
	return string(marshalNoHTML(v))
}
