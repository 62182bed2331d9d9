package jsonenv

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/agentmeta"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/openset"
	"github.com/agentstream/agentstream/internal/slab"
	"github.com/agentstream/agentstream/internal/textlist"
	wire "github.com/agentstream/agentstream/internal/wire/jsonenv"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one SSE message, line, or reassembled payload (event.DefaultMaxBytes if 0)
	Agent         string // agent id for envelopes whose agent is empty
	// MaxOpen caps the streamed blocks, and apart from them the buffered
	// payloads and citation groups, held open at once (openset.DefaultMax,
	// 1024, if <= 0). Beyond it the one open longest is let go: a block
	// stays open downstream, a payload or citation group becomes its
	// event as it is; reported once, wrapping event.ErrTooManyOpen.
	MaxOpen int
	// StopAtDone ends the input at data: [DONE], reading nothing after
	// it: for a live connection, which may stay open. Otherwise what
	// follows [DONE] is read as the next stream (a resumed run, or
	// recordings joined into one file).
	StopAtDone bool
	// Foreign names the format of a line of another format
	// (format.Options.Foreign).
	Foreign format.Foreign
}

// Decoder reads JSON envelopes from SSE or NDJSON and yields canonical
// events. See the package documentation for the grammar and tolerance rules.
type Decoder struct {
	cfg   Config
	br    *bufio.Reader
	sse   *frame.SSE
	lines *frame.Lines
	st    decoderstate.State // what Next returns

	line int // position of the unit being decoded
	off  int64

	streams   *openset.Set[key]           // open streamed blocks, in the order they started
	held      *openset.Set[key]           // open buffers and citation groups (typ wire.TypeCitation)
	capped    bool                        // event.ErrTooManyOpen was reported
	main      string                      // the first agent named: the main agent
	buffers   map[key]*buffer             // open buffered payloads
	citations map[string][]event.Citation // citation group being read, per agent
	bad       badutf8.Once                // the invalid UTF-8 warning
	cutting   bool                        // truncation is flushing the payloads the input ended inside of
	// An SSE stream ends with data: [DONE], the main agent's meta_final
	// or the producer's fatal error line; one that stops before any of
	// them, even between blocks, is a cut. data: an envelope was read; ended: what was read last ends
	// the stream. NDJSON has no [DONE]: a cut between blocks does not
	// show there (a run whose source has no run end, Codex's, has no
	// meta_final either).
	data, ended bool

	jr  jsontext.Reader // decodes envelopes in one pass
	env wire.Envelope   // the envelope being decoded
	// plainLast is last for quickEnvelope: strings known to hold no
	// escape or control byte, so that their bytes are the JSON text's.
	plainLast [2]string
	// delta is the envelope's delta (env.Delta is not used): borrowed,
	// valid until the next envelope; deltaBuf is its buffer when it
	// is copied out of env.Delta.
	delta, deltaBuf []byte
	extras          bool // env may hold more than type, agent, final and delta
	// open is the streamed block the last text or thinking envelope
	// went to, held in streams while lastOpen (streams is changed only
	// by streamed, which keeps this true).
	open     key
	lastOpen bool
	deltas   deltabatch.Batch
	texts    slab.Strings     // short delta texts, as package xmlstream keeps them
	spare    [][]byte         // payload buffers for reuse (takeSpare)
	meta     agentmeta.Reader // reads meta_init and meta_final, reusing a run's strings and its scratch
}

// keepDelta is the largest delta whose buffer is kept for the next.
const keepDelta = 64 << 10

type key struct {
	agent, typ string
}

// is is k == o, without memequal's calls when the strings share their
// bytes: an envelope's agent and type are mostly the very strings of the
// one before (plain keeps the last of each).
func (k key) is(o key) bool {
	return slab.Equal(k.agent, o.agent) && slab.Equal(k.typ, o.typ)
}

type buffer struct {
	id, name string
	data     []byte
	images   []event.Part
	over     bool // grew past the cap: the rest of its chunks are skipped
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{
		br:        bufio.NewReaderSize(r, 64<<10),
		buffers:   map[key]*buffer{},
		citations: map[string][]event.Citation{},
	}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxEventBytes <= 0 {
		d.cfg.MaxEventBytes = event.DefaultMaxBytes
	}
	d.streams, d.held = openset.New[key](d.cfg.MaxOpen), openset.New[key](d.cfg.MaxOpen)
	return d
}

// Detect reports whether an input whose first unit is h is a JSON envelope
// stream: a JSON object with type, agent, final and delta, or the
// producer's JSON error object.
func Detect(h format.Head) bool {
	m := h.Fields()
	_, t := format.String(m, "type")
	_, a := format.String(m, "agent")
	_, f := m["final"]
	if t && a && f {
		return true // delta may be past a cut
	}
	_, e := m["error"]
	_, msg := m["message"]
	return h.SSE && e && msg
}

// Next returns the next event. See event.Decoder for the error contract:
// the events a piece of input produced come out before the problem it
// caused, and a truncation is the last thing before io.EOF.
func (d *Decoder) Next() (event.Event, error) { return d.st.Next(d.readEnvelope, d.truncation) }

// readEnvelope decodes the next envelope of the input; a problem it has
// comes before the warning about invalid UTF-8 it held.
func (d *Decoder) readEnvelope() {
	payload, err := d.read()
	switch {
	case err == io.EOF:
		d.st.End()
	case err != nil:
		if _, ok := err.(*event.ParseError); !ok {
			d.st.Fail(err)
			return
		}
		d.st.Problem(err)
	default:
		fixed, i, warn := d.bad.Fix(payload)
		payload = fixed
		d.st.Problem(d.decode(payload))
		if warn {
			// The position is the unit's; the column counts in the
			// payload for NDJSON only.
			col := 1
			if d.lines != nil {
				col = i + 1
			}
			d.st.Problem(badutf8.Warning(d.cfg.Source, d.line, col, d.off))
		}
	}
}

// read returns the next envelope's bytes, choosing SSE or NDJSON framing by
// the first byte of the input.
func (d *Decoder) read() ([]byte, error) {
	if d.sse == nil && d.lines == nil {
		ndjson, err := d.framing()
		if err != nil {
			return nil, err
		}
		if ndjson {
			d.lines = frame.NewLines(d.br, d.cfg.Source, d.cfg.MaxEventBytes)
		} else {
			d.sse = frame.NewSSE(d.br, d.cfg.Source, d.cfg.MaxEventBytes)
		}
	}
	if d.lines != nil {
		for {
			line, num, off, err := d.lines.Next()
			if err != nil {
				return nil, err
			}
			d.line, d.off = num, off
			if len(bytes.TrimSpace(line)) == 0 {
				continue
			}
			return line, nil
		}
	}
	for {
		// The message's data is borrowed until the next read: what the
		// events keep of it is copied out (the strings the decoder keeps
		// are a delta's text, not the whole message's).
		data, _, err := d.sse.NextData()
		if err != nil {
			return nil, err
		}
		d.line, d.off = d.sse.Pos()
		if string(data) == "[DONE]" {
			d.ended = true
			if d.cfg.StopAtDone {
				d.sse.Stop()
				return nil, io.EOF
			}
			continue
		}
		if len(data) == 0 {
			continue // a message with no data (event: or id: alone)
		}
		d.data, d.ended = true, false
		return data, nil
	}
}

// framing reports whether the input is NDJSON rather than SSE, from its
// first line that tells: one starting with '{' is NDJSON, an SSE field
// (data:, event:, id:, retry:, or a : comment) is SSE. Blank lines and
// lines that tell nothing (garbage) are looked past, up to 64 KiB, so a
// bad first line is reported as what it is instead of hiding the rest. It
// never waits for more than the first telling line, so a live stream is
// not held up.
func (d *Decoder) framing() (ndjson bool, err error) {
	if bom, _ := d.br.Peek(3); string(bom) == "\xef\xbb\xbf" {
		d.br.Discard(3)
	}
	for n := 1; ; n = d.br.Buffered() + 1 {
		_, perr := d.br.Peek(n)
		b, _ := d.br.Peek(d.br.Buffered())
		for len(b) > 0 {
			line := b
			i := bytes.IndexAny(b, "\r\n")
			if i < 0 && perr == nil && len(b) < d.br.Size() {
				break // the line is not complete yet
			}
			if i >= 0 {
				line, b = b[:i], b[i+1:]
			} else {
				b = nil
			}
			line = bytes.TrimLeft(line, " \t")
			switch {
			case len(line) == 0:
				continue
			case line[0] == '{':
				return true, nil
			case line[0] == ':' || hasField(line):
				return false, nil
			}
		}
		if perr != nil || d.br.Buffered() == d.br.Size() {
			if perr != nil && perr != io.EOF && perr != bufio.ErrBufferFull {
				return false, perr
			}
			if d.br.Buffered() == 0 {
				return false, io.EOF
			}
			return false, nil // nothing telling: SSE, whose reader reports the rest
		}
	}
}

func hasField(line []byte) bool {
	for _, f := range []string{"data:", "data", "event:", "id:", "retry:"} {
		if bytes.Equal(line, []byte(f)) || (f[len(f)-1] == ':' && bytes.HasPrefix(line, []byte(f))) {
			return true
		}
	}
	return false
}

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.line, Column: 1, Offset: d.off,
		Err: event.Errorf(sentinel, format, args...),
	}
}

func (d *Decoder) emit(evs ...event.Event) { d.st.Emit(evs...) }

func (d *Decoder) decode(payload []byte) error {
	env := &d.env
	if !d.quickEnvelope(payload) {
		d.env, d.extras = wire.Envelope{}, true
		if err := d.unmarshalEnvelope(payload, env); err != nil {
			var se wire.ServerError
			if json.Unmarshal(payload, &se) == nil && se.Error != "" {
				d.emit(d.serverError(&se, payload))
				return nil
			}
			return d.errorf(event.ErrSyntax, "expected a JSON envelope: %s", jsontext.Problem(err))
		}
		if len(env.Delta) > keepDelta {
			d.delta = []byte(env.Delta) // not held for the rest of the input
		} else {
			d.delta = append(d.deltaBuf[:0], env.Delta...)
			d.deltaBuf = d.delta
		}
	}
	if env.Type == "" {
		var se wire.ServerError
		if json.Unmarshal(payload, &se) == nil && (se.Error != "" || se.Message != "") {
			d.emit(d.serverError(&se, payload))
			return nil
		}
		return d.errorf(event.ErrSyntax, "envelope has no type")
	}
	agent := env.Agent
	if agent == "" {
		agent = d.cfg.Agent
	}
	if d.main == "" {
		d.main = agent
	}
	switch env.Type {
	case wire.TypeText, wire.TypeThinking:
		d.streamed(agent, env)
	case wire.TypeCitation:
		d.citation(agent, env)
	case wire.TypeToolResultImage:
		k := key{agent, wire.TypeToolResult}
		b := d.buffers[k]
		if b == nil {
			b = &buffer{id: deref(env.ID), name: deref(env.Name)}
			d.buffers[k] = b
			d.hold(k)
		}
		if !b.over {
			b.images = append(b.images, event.Part{Type: "image", Source: deref(env.Src), MediaType: deref(env.MediaType)})
		}
		if env.Final {
			return d.finishBuffer(agent, wire.TypeToolResult)
		}
	case wire.TypeMetaInit, wire.TypeToolCall, wire.TypeServerToolCall, wire.TypeToolResult, wire.TypeServerToolResult,
		wire.TypeAwaitingTools, wire.TypeMetaFiles, wire.TypeError, wire.TypeMetaFinal, wire.TypeRollback:
		k := key{agent, env.Type}
		b := d.buffers[k]
		if b == nil && env.Final && len(d.delta) <= d.cfg.MaxEventBytes && d.held.Len() < d.held.Max() {
			// A payload in one envelope (most are) becomes its event
			// here, with no buffer to hold it open: what holding it
			// would do, as it pushes out nothing.
			return d.payload(agent, env.Type, &buffer{id: deref(env.ID), name: deref(env.Name), data: d.delta})
		}
		var problem error
		if b != nil && env.ID != nil && *env.ID != b.id {
			// A new call began before the previous one was final: keep
			// what arrived of it, and say so.
			problem = d.errorf(event.ErrTruncated, "%s %q of agent %q ended without a final envelope", env.Type, b.id, agent)
			d.finishBuffer(agent, env.Type)
			b = nil
		}
		if b == nil {
			b = &buffer{id: deref(env.ID), name: deref(env.Name)}
			d.buffers[k] = b
			d.hold(k)
		}
		if b.over {
			// Skipping what is left of a payload over the cap, up to its
			// final chunk; it makes no event.
			if env.Final {
				delete(d.buffers, k)
				d.held.Remove(k)
			}
			return problem
		}
		if len(b.data)+len(d.delta) > d.cfg.MaxEventBytes {
			b.over, b.data, b.images = true, nil, nil
			if env.Final {
				delete(d.buffers, k)
				d.held.Remove(k)
			}
			return d.errorf(event.ErrTooLarge, "%s payload larger than %d bytes, skipped (raise the cap, MaxEventBytes)", env.Type, d.cfg.MaxEventBytes)
		}
		if b.data == nil && len(d.delta) > 0 {
			b.data = d.takeSpare()
		}
		b.data = append(b.data, d.delta...)
		if env.Final {
			if err := d.finishBuffer(agent, env.Type); err != nil {
				return err
			}
		}
		return problem
	default:
		if !Detect(format.Head{Payload: payload}) {
			// Not an envelope of a type this package does not know
			// yet, but no envelope at all.
			return d.errorf(event.ErrSyntax, "%s", foreignProblem(d.cfg.Foreign.Of(payload)))
		}
		d.emit(&event.Unknown{Agent: agent, Format: "jsonenv", Type: env.Type, Raw: bytes.Clone(payload)})
	}
	return nil
}

func (d *Decoder) streamed(agent string, env *wire.Envelope) {
	kind := event.BlockKind(env.Type)
	k := key{agent, env.Type}
	// A block's envelopes come in runs: the one the last envelope went
	// to is known open without hashing its key.
	if !d.lastOpen || !k.is(d.open) {
		if !d.streams.Has(k) {
			if env.Final && len(d.delta) == 0 {
				return // a final marker with no open block carries nothing
			}
			if old, out := d.streams.Add(k); out {
				d.tooMany(fmt.Sprintf("%s block of agent %q, which stays open", old.typ, old.agent))
			}
			d.emit(&event.BlockStart{Agent: agent, Kind: kind})
		}
		d.open, d.lastOpen = k, true
	}
	if len(d.delta) > 0 {
		d.emit(d.deltas.New(agent, kind, d.texts.String(d.delta)))
	}
	if env.Final {
		d.streams.Remove(k)
		d.lastOpen = false
		d.emit(&event.BlockEnd{Agent: agent, Kind: kind})
	}
}

// hold counts k among the open buffers and citation groups; beyond the
// cap the one open longest becomes its event as it is.
func (d *Decoder) hold(k key) {
	old, out := d.held.Add(k)
	if !out {
		return
	}
	if old.typ == wire.TypeCitation {
		d.emit(&event.Citations{Agent: old.agent, Items: d.citations[old.agent]})
		delete(d.citations, old.agent)
		d.tooMany(fmt.Sprintf("citations of agent %q, given as they are", old.agent))
	}
	d.finishBuffer(old.agent, old.typ)
	d.tooMany(fmt.Sprintf("%s of agent %q, given as it is", old.typ, old.agent))
}

// tooMany reports, the first time only, that the decoder let go of what
// (the state open longest) to keep within MaxOpen.
func (d *Decoder) tooMany(what string) {
	if d.capped {
		return
	}
	d.capped = true
	d.st.Problem(d.errorf(event.ErrTooManyOpen, "more than %d blocks (or payloads) open at once; let go of the oldest, %s (truncated; later ones are not reported)", d.streams.Max(), what))
}

func (d *Decoder) citation(agent string, env *wire.Envelope) {
	c := event.Citation{
		Type:            deref(env.CitationType),
		CitedText:       string(d.delta),
		DocumentIndex:   env.DocumentIndex,
		DocumentTitle:   env.DocumentTitle,
		StartCharIndex:  env.StartCharIndex,
		EndCharIndex:    env.EndCharIndex,
		StartPageNumber: env.StartPageNumber,
		EndPageNumber:   env.EndPageNumber,
		URL:             env.URL,
		Title:           env.Title,
	}
	if _, ok := d.citations[agent]; !ok {
		d.hold(key{agent, wire.TypeCitation})
	}
	d.citations[agent] = append(d.citations[agent], c)
	if env.Final {
		d.emit(&event.Citations{Agent: agent, Items: d.citations[agent]})
		delete(d.citations, agent)
		d.held.Remove(key{agent, wire.TypeCitation})
	}
}

// finishBuffer turns a complete buffered payload into its event.
func (d *Decoder) finishBuffer(agent, typ string) error {
	k := key{agent, typ}
	b := d.buffers[k]
	delete(d.buffers, k)
	d.held.Remove(k)
	if b.over {
		return nil // reported when it outgrew the cap
	}
	err := d.payload(agent, typ, b)
	d.putSpare(b.data)
	return err
}

// takeSpare returns an empty buffer for a payload of many chunks, one a
// payload before used, else nil. Growing each payload's buffer from
// nothing (a meta_final is often several chunks) would cost a growslice
// per payload.
func (d *Decoder) takeSpare() []byte {
	n := len(d.spare)
	if n == 0 {
		return nil
	}
	b := d.spare[n-1]
	d.spare[n-1] = nil
	d.spare = d.spare[:n-1]
	return b[:0]
}

// putSpare keeps b, a finished payload's buffer, for the next payload.
func (d *Decoder) putSpare(b []byte) {
	if b != nil && cap(b) <= keepSpare && len(d.spare) < maxSpare {
		d.spare = append(d.spare, b)
	}
}

// The spare payload buffers kept: at most maxSpare, of keepSpare bytes
// or less.
const (
	maxSpare  = 4
	keepSpare = 1 << 20
)

// payload turns a complete payload into its event. b.data is borrowed
// (a spare buffer, or d.delta): what the event keeps of it is copied.
func (d *Decoder) payload(agent, typ string, b *buffer) error {
	if typ == wire.TypeMetaInit || typ == wire.TypeMetaFinal {
		// The payload's bytes are handed over (agentmeta may keep
		// them): a copy of their size.
		meta := append([]byte(nil), b.data...)
		if typ == wire.TypeMetaInit {
			ev, _, _ := d.meta.SessionStart(agent, meta)
			d.emit(ev)
		} else {
			if d.cutting {
				// A run end the input ended inside of: no run end (the
				// cut is reported; half a summary would say the run
				// finished).
				return nil
			}
			d.emit(d.meta.RunEnd(agent, meta))
			// The main agent's run end: what follows it ([DONE]) only
			// frames it.
			d.ended = d.ended || agent == d.main
		}
		return nil
	}
	data := string(b.data)
	switch typ {
	case wire.TypeToolCall, wire.TypeServerToolCall:
		d.emit(&event.ToolCall{
			Agent: agent, ID: b.id, Name: b.name, Input: event.JSONText(data),
			Server: typ == wire.TypeServerToolCall, Truncated: d.cutting,
		})
	case wire.TypeToolResult, wire.TypeServerToolResult:
		var content []event.Part
		if data != "" {
			content = append(content, event.Part{Type: "text", Text: data})
		}
		content = append(content, b.images...)
		d.emit(&event.ToolResult{
			Agent: agent, ID: b.id, Name: b.name, Content: content,
			Server: typ == wire.TypeServerToolResult,
		})
	case wire.TypeAwaitingTools:
		var tools []wire.PendingTool
		if err := json.Unmarshal([]byte(data), &tools); err != nil {
			d.emit(&event.Unknown{Agent: agent, Format: "jsonenv", Type: typ, Raw: []byte(data)})
			return d.errorf(event.ErrSyntax, "awaiting_frontend_tools payload is not a JSON array of tools: %s", jsontext.Problem(err))
		}
		ev := &event.AwaitingTools{Agent: agent}
		for _, t := range tools {
			ev.Tools = append(ev.Tools, event.PendingTool{ID: t.ToolUseID, Name: t.Name, Input: t.Input})
		}
		d.emit(ev)
	case wire.TypeMetaFiles:
		var mf wire.MetaFiles
		ev := &event.Files{Agent: agent, Raw: event.JSONText(data)}
		if err := json.Unmarshal([]byte(data), &mf); err == nil {
			for _, f := range mf.Files {
				ev.Files = append(ev.Files, event.File{ID: f.FileID, Name: f.Filename, Location: f.StorageLocation})
			}
		}
		d.emit(ev)
	case wire.TypeRollback:
		// The agent's open blocks are taken back: they stay without an
		// end, and its next text or thinking begins a new block.
		for k := range d.streams.All() {
			if k.agent == agent {
				d.streams.Remove(k)
			}
		}
		d.lastOpen = false
		var p wire.RollbackPayload
		json.Unmarshal([]byte(data), &p)
		d.emit(&event.Notice{Agent: agent, Kind: event.NoticeAbandoned, Message: cmp.Or(p.Message, data)})
	case wire.TypeError:
		var p wire.ErrorPayload
		ev := &event.Error{Agent: agent, Raw: event.JSONText(data)}
		if json.Unmarshal([]byte(data), &p) == nil {
			ev.Type, ev.Message = p.Type, p.Message
			ev.Fatal = serverErrorPayload(ev, data)
			d.ended = d.ended || ev.Fatal
		} else {
			ev.Message = data
		}
		d.emit(ev)
	}
	return nil
}

// truncation flushes what is still open at the end of the input and
// reports it: open buffered payloads become their events (partial), open
// streamed blocks stay open, and the error names the first of them.
func (d *Decoder) truncation() error {
	var open []string
	for _, k := range slices.SortedFunc(d.streams.All(), compareKeys) {
		open = append(open, fmt.Sprintf("%s block of agent %q", k.typ, k.agent))
	}
	for _, agent := range slices.Sorted(maps.Keys(d.citations)) {
		d.emit(&event.Citations{Agent: agent, Items: d.citations[agent]})
		open = append(open, fmt.Sprintf("citations of agent %q", agent))
	}
	clear(d.citations)
	d.cutting = true // a tool call's payload that ends here is a truncated call
	for _, k := range slices.SortedFunc(maps.Keys(d.buffers), compareKeys) {
		open = append(open, fmt.Sprintf("%s of agent %q", k.typ, k.agent))
		d.finishBuffer(k.agent, k.typ)
	}
	d.cutting = false
	switch {
	case len(open) > 0, d.ended:
	case d.sse != nil && d.data:
		return &event.ParseError{
			Source: d.cfg.Source, Line: d.line, Column: 1, Offset: d.off,
			Err: event.Errorf(event.ErrTruncated, "stream ended between blocks, without data: [DONE]"),
		}
	}
	if len(open) == 0 {
		return nil
	}
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.line, Column: 1, Offset: d.off,
		Err: event.Errorf(event.ErrTruncated, "stream ended inside %s", textlist.Join(open, ", ")),
	}
}

func compareKeys(a, b key) int {
	if c := strings.Compare(a.agent, b.agent); c != 0 {
		return c
	}
	return strings.Compare(a.typ, b.typ)
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}
