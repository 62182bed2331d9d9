package gemini

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/deltabatch"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/slab"
	"github.com/agentstream/agentstream/internal/wire/gemini"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// MetaKind names the SessionStart and RunEnd Meta this package writes:
// the init line and the result line, verbatim.
const MetaKind = "gemini"

// MetaKindJSON names the RunEnd Meta of --output-format json: the whole
// object.
const MetaKindJSON = "gemini-json"

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one line, and on a json output object (event.DefaultMaxBytes if 0)
	Agent         string // agent id until the init line names the session
	// Foreign names the format of a line of another format
	// (format.Options.Foreign).
	Foreign format.Foreign
}

// maxTools bounds the tool calls remembered without a result (for the
// result's tool name): beyond it the oldest is forgotten.
const maxTools = 1024

// Decoder reads Gemini CLI stream-json (or json) output and yields
// canonical events. See the package documentation.
type Decoder struct {
	jr     jsontext.Reader // reads the wire structs in one pass
	str    slab.Strings    // the strings jr makes
	raws   slab.Bytes      // the payloads events keep (payload)
	bufs   lineStructs     // what the wire structs are read into, line after line
	deltas deltabatch.Batch
	// The other events of a run, each line's or two, in batches too.
	blockStarts   deltabatch.Of[event.BlockStart]
	blockEnds     deltabatch.Of[event.BlockEnd]
	sessionStarts deltabatch.Of[event.SessionStart]
	toolCalls     deltabatch.Of[event.ToolCall]
	toolResults   deltabatch.Of[toolResult]
	runEnds       deltabatch.Of[runEnd]
	cfg           Config
	lines         *frame.Lines
	st            decoderstate.State
	bad           badutf8.Once
	// compact: the line being read has no white space outside its
	// strings (jsontext.Reader.Spaced), nor has any value in it.
	compact bool

	line int
	off  int64

	started  bool // the first line was read: the mode is known
	whole    []byte
	wholeAt  [2]int64 // line and offset where the json object began
	inWhole  bool
	skip     bool // the rest of the input belongs to an object too large
	agent    string
	held     *event.SessionStart // the init's start, waiting for the prompt
	textOpen bool
	// tools are the calls without a result, oldest first, at most
	// maxTools: a run waits for one or two at a time, looked for in
	// turn (the newest first) with no hashing.
	tools []pendingTool
	known bool // a line of this format was read
	ended bool // the result line was read
}

// lineStructs are the structs a line is read into: the probe, then its
// type's. The decoder's, so that reading a line allocates none of them.
type lineStructs struct {
	probe  gemini.Probe
	init   gemini.Init
	msg    gemini.Message
	use    gemini.ToolUse
	result gemini.ToolResult
	err    gemini.Error
	end    gemini.Result
}

// NewDecoder returns a decoder reading from r. cfg may be nil.
func NewDecoder(r io.Reader, cfg *Config) *Decoder {
	d := &Decoder{}
	if cfg != nil {
		d.cfg = *cfg
	}
	if d.cfg.MaxEventBytes <= 0 {
		d.cfg.MaxEventBytes = event.DefaultMaxBytes
	}
	d.agent = d.cfg.Agent
	d.lines = frame.NewLines(r, d.cfg.Source, d.cfg.MaxEventBytes)
	d.jr.SetStrings(d.str.String)
	return d
}

// Detect reports whether an input whose first unit is h is Gemini CLI
// output: a stream-json line (a JSON object whose type is a stream-json
// event type, with a timestamp), a json output object on one line
// (session_id with response, stats or error, and no type), or the line
// "{" alone, with which the CLI's indented json output begins.
func Detect(h format.Head) bool {
	if h.SSE {
		return false
	}
	p := bytes.TrimSpace(h.Payload)
	if string(p) == "{" {
		return true
	}
	fields := h.Fields()
	if fields == nil {
		return false
	}
	typ, hasType := format.String(fields, "type")
	_, ts := fields["timestamp"]
	if hasType {
		if !gemini.IsStreamType(typ) || !ts {
			return false
		}
		switch typ {
		case gemini.TypeInit:
			_, sid := fields["session_id"]
			return sid
		case gemini.TypeMessage:
			_, role := fields["role"]
			return role
		case gemini.TypeToolUse:
			_, id := fields["tool_id"]
			_, name := fields["tool_name"]
			return id && name
		case gemini.TypeToolResult:
			_, id := fields["tool_id"]
			return id
		case gemini.TypeError:
			_, sev := fields["severity"]
			return sev
		case gemini.TypeResult:
			_, status := fields["status"]
			_, sub := fields["subtype"]
			return status && !sub
		}
		return false
	}
	if _, ok := fields["type"]; ok {
		return false
	}
	_, sid := fields["session_id"]
	_, resp := fields["response"]
	_, stats := fields["stats"]
	_, errv := fields["error"]
	return sid && (resp || stats || errv)
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.st.Next(d.read, d.finish) }

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.line, Column: 1, Offset: d.off,
		Err: event.Errorf(sentinel, format, args...),
	}
}

// read decodes the next line.
func (d *Decoder) read() {
	raw, num, off, err := d.lines.Next()
	switch {
	case err == io.EOF:
		d.st.End()
		return
	case err != nil:
		if _, ok := err.(*event.ParseError); ok {
			if d.inWhole {
				// The json output object is too large: reported once.
				d.inWhole, d.whole, d.skip = false, nil, true
				d.known, d.ended = true, true
			}
			d.st.Problem(err)
			return
		}
		d.st.Fail(err)
		return
	}
	if d.skip {
		return // the rest of a json output object reported too large
	}
	if d.inWhole {
		d.addWhole(raw, num, off)
		return
	}
	d.line, d.off = num, off
	line := bytes.TrimSpace(raw)
	if len(line) == 0 {
		return
	}
	line, i, warn := d.bad.Fix(line)
	if !d.started {
		d.started = true
		if string(line) == "{" {
			// The indented object of --output-format json.
			d.inWhole = true
			d.wholeAt = [2]int64{int64(num), off}
			d.whole = append(d.whole[:0], line...)
			d.whole = append(d.whole, '\n')
			return
		}
		if isOutputObject(line) {
			d.decodeOutput(line)
			if warn {
				d.st.Problem(badutf8.Warning(d.cfg.Source, num, i+1, off+int64(i)))
			}
			return
		}
	}
	d.st.Problem(d.decode(line))
	if warn {
		d.st.Problem(badutf8.Warning(d.cfg.Source, num, i+1, off+int64(i)))
	}
}

// addWhole adds a line to the json output object being read; the object
// is decoded once its closing brace arrives (a line "}" at column 1, as
// the CLI indents) or the input ends.
func (d *Decoder) addWhole(raw []byte, num int, off int64) {
	raw, i, warn := d.bad.Fix(raw)
	if warn {
		d.st.Problem(badutf8.Warning(d.cfg.Source, num, i+1, off+int64(i)))
	}
	if len(d.whole)+len(raw)+1 > d.cfg.MaxEventBytes {
		d.line, d.off = int(d.wholeAt[0]), d.wholeAt[1]
		d.st.Problem(d.errorf(event.ErrTooLarge, "json output object longer than %d bytes (raise the cap, MaxEventBytes)", d.cfg.MaxEventBytes))
		d.inWhole, d.whole, d.skip = false, nil, true
		d.known = true
		d.ended = true // reported already: no truncation on top
		return
	}
	d.whole = append(d.whole, raw...)
	d.whole = append(d.whole, '\n')
	if len(raw) > 0 && raw[0] == '}' && json.Valid(d.whole) {
		d.inWhole = false
		d.line, d.off = int(d.wholeAt[0]), d.wholeAt[1]
		d.decodeOutput(bytes.TrimSpace(d.whole))
		d.whole = nil
	}
}

// finish ends the stream: an unfinished json object, a held start, and
// the truncation of a stream without its result line.
func (d *Decoder) finish() error {
	if d.inWhole {
		d.inWhole = false
		d.line, d.off = int(d.wholeAt[0]), d.wholeAt[1]
		obj := bytes.TrimSpace(d.whole)
		d.whole = nil
		if json.Valid(obj) {
			d.decodeOutput(obj)
		} else {
			var serr *json.SyntaxError
			err := json.Unmarshal(obj, new(any))
			if errors.As(err, &serr) && isCut(obj) {
				return d.errorf(event.ErrTruncated, "json output ends inside its object")
			}
			return d.errorf(event.ErrSyntax, "not a JSON object: %s", jsontext.Problem(err))
		}
	}
	d.release()
	if !d.known {
		// Never a false yes: no line of this format.
		return &event.ParseError{
			Source: d.cfg.Source, Offset: -1,
			Err: event.Errorf(event.ErrSyntax, "no Gemini CLI stream-json line in the input"),
		}
	}
	if d.ended {
		return nil
	}
	open := "after its last line"
	if d.textOpen {
		open = "inside an assistant message"
	}
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.line, Offset: d.off,
		Err: event.Errorf(event.ErrTruncated, "stream ended %s, without its result line", open),
	}
}

// isCut reports whether obj, which is not valid JSON, is a prefix of some
// JSON text: cut off, not malformed.
func isCut(obj []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(obj))
	for {
		_, err := dec.Token()
		if err == io.EOF || err == io.ErrUnexpectedEOF {
			return true
		}
		if err != nil {
			return false
		}
	}
}

// release lets the held start go.
func (d *Decoder) release() {
	if d.held != nil {
		d.st.Emit(d.held)
		d.held = nil
	}
}

// emit releases the held start, then queues evs.
func (d *Decoder) emit(evs ...event.Event) {
	d.release()
	d.st.Emit(evs...)
}

// closeText ends the assistant message being streamed.
func (d *Decoder) closeText() {
	if d.textOpen {
		d.textOpen = false
		be := d.blockEnds.New()
		be.Agent, be.Kind = d.agent, event.Text
		d.emit(be)
	}
}

// decode handles one stream-json line, read as its type's struct. The
// type is taken from the line's first member, where the CLI writes it,
// when the struct's reader then finds no other type after it; else (and
// for every problem, so that it is worded as one) the line's type and
// timestamp are probed first, as encoding/json reads them.
func (d *Decoder) decode(line []byte) error {
	if typ := leadingType(line); typ != "" {
		if ok, err := d.decodeAs(typ, line, true); ok {
			return err
		}
	}
	h := &d.bufs.probe
	*h = gemini.Probe{}
	if err := jsontext.DecodeValid(&d.jr, line, h, gemini.ReadProbe); err != nil {
		return d.errorf(event.ErrSyntax, "not a JSON object: %s", jsontext.Problem(err))
	}
	d.compact = !d.jr.Spaced()
	typ, hasType := "", false
	switch raw := h.Type; {
	case len(raw) == 0 || string(raw) == "null":
	case raw[0] != '"':
		d.unknown("", line)
		return d.errorf(event.ErrSyntax, "a line whose type is not a string; kept as unknown")
	default:
		hasType = true
		d.jr.ResetValid(raw)
		b := d.jr.Str()
		if typ = gemini.StreamType(b); typ == "" {
			typ = string(b)
		}
	}
	if !gemini.IsStreamType(typ) {
		if k := d.cfg.Foreign.Of(line); k != "" {
			return d.errorf(event.ErrSyntax, "%s line of another format (it looks like %s); skipped", orNone(typ), k)
		}
		if !hasType {
			return d.errorf(event.ErrSyntax, "a line without a type; skipped")
		}
		d.known = true
		d.unknown(typ, line)
		return nil
	}
	if noTimestamp(h.Timestamp) {
		if k := d.cfg.Foreign.Of(line); k != "" {
			return d.errorf(event.ErrSyntax, "%s line of another format (it looks like %s); skipped", typ, k)
		}
	}
	_, err := d.decodeAs(typ, line, false)
	return err
}

// leadingType returns the stream-json type a line names in its first
// member, written plain, or "".
func leadingType(line []byte) string {
	const lead = `{"type":"`
	rest, ok := bytes.CutPrefix(line, []byte(lead))
	if !ok {
		return ""
	}
	if i := bytes.IndexByte(rest, '"'); i > 0 {
		return gemini.StreamType(rest[:i])
	}
	return ""
}

// noTimestamp reports whether a timestamp as written is absent or null.
func noTimestamp(ts []byte) bool { return len(ts) == 0 || string(ts) == "null" }

// decodeAs reads line as the struct of type typ and handles it. guessed
// says typ is the line's first member's: then it handles only a line its
// generated reader reads whole, whose last type member is typ as written
// there and which has a timestamp or looks like no other format, and
// reports whether it did (what it leaves, decode probes).
func (d *Decoder) decodeAs(typ string, line []byte, guessed bool) (bool, error) {
	var err error
	var w gemini.Written
	switch typ {
	case gemini.TypeInit:
		w, err = decodeInto(d, line, &d.bufs.init, gemini.ReadInit)
	case gemini.TypeMessage:
		w, err = decodeInto(d, line, &d.bufs.msg, gemini.ReadMessage)
	case gemini.TypeToolUse:
		w, err = decodeInto(d, line, &d.bufs.use, gemini.ReadToolUse)
	case gemini.TypeToolResult:
		w, err = decodeInto(d, line, &d.bufs.result, gemini.ReadToolResult)
	case gemini.TypeError:
		w, err = decodeInto(d, line, &d.bufs.err, gemini.ReadError)
	case gemini.TypeResult:
		w, err = decodeInto(d, line, &d.bufs.end, gemini.ReadResult)
	}
	if guessed && (err != nil || len(w.Type) != len(typ)+2 || string(w.Type[1:len(w.Type)-1]) != typ ||
		noTimestamp(w.Timestamp) && d.cfg.Foreign.Of(line) != "") {
		return false, nil
	}
	if err != nil {
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) {
			d.known = true
			d.unknown(typ, line)
			return true, d.errorf(event.ErrSyntax, "%s line with a field of an unexpected type (%s); kept as unknown", typ, jsontext.Problem(err))
		}
		return true, d.errorf(event.ErrSyntax, "%s line: %s", typ, jsontext.Problem(err))
	}
	d.known = true
	switch typ {
	case gemini.TypeInit:
		d.init(line, &d.bufs.init)
	case gemini.TypeMessage:
		d.message(line, &d.bufs.msg)
	case gemini.TypeToolUse:
		d.toolUse(&d.bufs.use)
	case gemini.TypeToolResult:
		d.toolResult(&d.bufs.result)
	case gemini.TypeError:
		d.errorLine(line, &d.bufs.err)
	case gemini.TypeResult:
		d.result(line, &d.bufs.end)
	}
	return true, nil
}

// decodeInto reads line into v, which it clears first, and returns what v
// says of the line's type and timestamp as written.
func decodeInto[T any, P interface {
	*T
	Written() gemini.Written
}](d *Decoder, line []byte, v P, read func(*jsontext.Reader, *T) bool) (gemini.Written, error) {
	var zero T
	*v = zero
	err := jsontext.DecodeValid(&d.jr, line, (*T)(v), read)
	d.compact = !d.jr.Spaced()
	return v.Written(), err
}

func orNone(s string) string {
	if s == "" {
		return "a"
	}
	return fmt.Sprintf("a %q", s)
}

// payload returns a copy of p, the line being read or a value in it
// (a short one in a slab shared with the next ones: raws), and its note:
// valid JSON, as the decoder read the line whole; compact too when the
// line was.
func (d *Decoder) payload(p []byte) (json.RawMessage, event.Checked) {
	c := d.raws.Copy(p)
	return c, decoderstate.Note(c, d.compact)
}

func (d *Decoder) unknown(typ string, line []byte) {
	d.closeText()
	raw, note := d.payload(line)
	d.emit(&event.Unknown{Agent: d.agent, Format: "gemini", Type: typ, Raw: raw, Checked: note})
}

func (d *Decoder) init(line []byte, l *gemini.Init) {
	d.closeText()
	d.release()
	if l.SessionID != "" {
		d.agent = l.SessionID
	}
	ss := d.sessionStarts.New()
	ss.Agent, ss.SessionID, ss.Model = d.agent, l.SessionID, l.Model
	ss.Meta, ss.Checked = d.payload(line)
	ss.MetaKind = MetaKind
	d.held = ss
}

func (d *Decoder) message(line []byte, l *gemini.Message) {
	if l.Role == gemini.RoleUser {
		d.closeText()
		if d.held != nil && d.held.Prompt == "" {
			d.held.Prompt = l.Content
			d.release()
			return
		}
		raw, note := d.payload(line)
		d.emit(&event.Notice{Agent: d.agent, Kind: "user", Message: l.Content, Raw: raw, Checked: note})
		return
	}
	if l.Role != gemini.RoleAssistant {
		d.unknown(gemini.TypeMessage, line)
		return
	}
	delta := l.Delta != nil && *l.Delta
	if !delta {
		// A whole message: a block of its own.
		d.closeText()
	}
	if !d.textOpen {
		d.textOpen = true
		bs := d.blockStarts.New()
		bs.Agent, bs.Kind = d.agent, event.Text
		d.emit(bs)
	}
	if l.Content != "" {
		d.emit(d.deltas.New(d.agent, event.Text, l.Content))
	}
	if !delta {
		d.closeText()
	}
}

func (d *Decoder) toolUse(l *gemini.ToolUse) {
	d.closeText()
	tc := d.toolCalls.New()
	tc.Agent, tc.ID, tc.Name = d.agent, l.ToolID, l.ToolName
	if l.Parameters != nil {
		tc.Input, tc.Checked = d.payload(l.Parameters) // read whole by the line's reader
	} else {
		tc.Input = json.RawMessage("null")
	}
	d.remember(l.ToolID, l.ToolName)
	d.emit(tc)
}

// pendingTool is a tool call waiting for its result, which takes its
// name.
type pendingTool struct{ id, name string }

// pending returns the index in d.tools of the call id, or -1.
func (d *Decoder) pending(id string) int {
	for i := len(d.tools) - 1; i >= 0; i-- {
		if d.tools[i].id == id {
			return i
		}
	}
	return -1
}

// remember keeps a tool call's name until its result.
func (d *Decoder) remember(id, name string) {
	if i := d.pending(id); i >= 0 {
		d.tools[i].name = name // known already: it keeps its place
		return
	}
	if len(d.tools) >= maxTools {
		d.tools[0] = pendingTool{}
		d.tools = d.tools[1:]
	}
	d.tools = append(d.tools, pendingTool{id, name})
}

// toolResult is a ToolResult with room for its one part: no allocation
// of its own.
type toolResult struct {
	event.ToolResult
	part [1]event.Part
}

func (d *Decoder) toolResult(l *gemini.ToolResult) {
	d.closeText()
	tr := d.toolResults.New()
	r := &tr.ToolResult
	r.Agent, r.ID, r.IsError = d.agent, l.ToolID, l.Status == gemini.StatusError
	if i := d.pending(l.ToolID); i >= 0 {
		r.Name = d.tools[i].name
		d.tools = slices.Delete(d.tools, i, i+1)
	}
	if l.Status != gemini.StatusSuccess && l.Status != gemini.StatusError {
		r.Status = l.Status
	}
	if l.Output != nil {
		tr.part[0] = event.Part{Type: "text", Text: *l.Output}
		r.Content = tr.part[:]
	}
	if l.Error != nil {
		r.Structured = gemini.AppendErrorInfo(nil, l.Error)
		r.Checked = event.CompactJSON(r.Structured)
	}
	d.emit(r)
}

func (d *Decoder) errorLine(line []byte, l *gemini.Error) {
	d.closeText()
	raw, note := d.payload(line)
	d.emit(&event.Error{Agent: d.agent, Message: l.Message, Type: l.Severity, Raw: raw, Checked: note})
}

// runEnd is a RunEnd with room for its usage and its one error: no
// allocation of their own.
type runEnd struct {
	event.RunEnd
	usage  event.Usage
	errors [1]string
}

func (d *Decoder) result(line []byte, l *gemini.Result) {
	d.closeText()
	re := d.runEnds.New()
	end := &re.RunEnd
	end.Agent, end.IsError, end.MetaKind = d.agent, l.Status == gemini.StatusError, MetaKind
	end.Meta, end.Checked = d.payload(line)
	if l.Error != nil {
		if end.IsError {
			// The error that ended the run (status error): an Error
			// event where it happened, as the other formats have it.
			raw := gemini.AppendErrorInfo(nil, l.Error)
			d.emit(&event.Error{Agent: d.agent, Message: l.Error.Message, Type: l.Error.Type, Fatal: true, Raw: raw, Checked: event.CompactJSON(raw)})
		}
		// An error on a result that did not fail stays the result's
		// (RunEnd.Errors): as an event of its own, written back as an
		// error line beside the result that still holds it, it would
		// double at every pass.
		re.errors[0] = l.Error.Message
		end.Errors = re.errors[:]
	}
	if s := l.Stats; s != nil {
		// The per-model counts stay in Meta: stream-json has no turns
		// to give them to.
		// Gemini CLI writes every count of a stats object; one is null
		// where a converter did not know it.
		end.Usage = &re.usage
		end.Usage.Set(event.HasInput, s.InputTokens)
		end.Usage.Set(event.HasOutput, s.OutputTokens)
		end.Usage.Set(event.HasCacheRead, s.Cached)
		if s.DurationMS != nil {
			end.DurationMS = *s.DurationMS
		}
	}
	d.emit(end)
	d.ended = true
}

// isOutputObject reports whether line is a whole --output-format json
// object written on one line.
func isOutputObject(line []byte) bool {
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	if _, ok := m["type"]; ok {
		return false
	}
	for _, k := range []string{"session_id", "response", "stats", "error"} {
		if _, ok := m[k]; ok {
			return true
		}
	}
	return false
}

// decodeOutput reads the object --output-format json writes: the run's
// answer and its stats, or its error, with no tool calls.
func (d *Decoder) decodeOutput(obj []byte) {
	var o gemini.Output
	if err := jsontext.DecodeValid(&d.jr, obj, &o, gemini.ReadOutput); err != nil {
		d.st.Problem(d.errorf(event.ErrSyntax, "json output with a field of an unexpected type (%s)", jsontext.Problem(err)))
		return
	}
	d.compact = !d.jr.Spaced()
	if o.SessionID == nil && o.Response == nil && o.Stats == nil && o.Error == nil {
		d.st.Problem(d.errorf(event.ErrSyntax, "a JSON object that is no Gemini CLI output (no session_id, response, stats or error)"))
		return
	}
	d.known, d.ended = true, true
	start := &event.SessionStart{Agent: d.agent}
	if o.SessionID != nil {
		d.agent = *o.SessionID
		start.Agent, start.SessionID = d.agent, *o.SessionID
	}
	d.st.Emit(start)
	if o.Response != nil && *o.Response != "" {
		d.st.Emit(&event.BlockStart{Agent: d.agent, Kind: event.Text},
			&event.Delta{Agent: d.agent, Kind: event.Text, Text: *o.Response},
			&event.BlockEnd{Agent: d.agent, Kind: event.Text})
	}
	meta, note := d.payload(obj)
	end := &event.RunEnd{Agent: d.agent, Meta: meta, MetaKind: MetaKindJSON, Checked: note}
	if o.Error != nil {
		raw, _ := gemini.Marshal(o.Error)
		d.st.Emit(&event.Error{Agent: d.agent, Message: o.Error.Message, Type: o.Error.Type, Fatal: true, Raw: raw, Checked: event.CompactJSON(raw)})
		end.IsError, end.Errors = true, []string{o.Error.Message}
	}
	if o.Stats != nil {
		var sum event.Usage
		for _, m := range o.Stats.Models {
			u := usageOf(m.Metrics.Tokens)
			sum.Add(&u)
			end.Turns += int(m.Metrics.API.TotalRequests)
		}
		if sum.Has != 0 {
			end.Usage = &sum // stats of no model say no count
		}
	}
	d.st.Emit(end)
}

// usageOf is the usage of one model's json output tokens: thoughts are
// output tokens (billed as such), and the reasoning part of them.
func usageOf(t gemini.TokenMetrics) event.Usage {
	return event.Usage{
		InputTokens: t.Prompt, OutputTokens: t.Candidates + t.Thoughts, CacheReadTokens: t.Cached,
		ReasoningTokens: t.Thoughts,
		// Gemini CLI writes every count of a model's tokens.
		Has: event.HasTokens | event.HasCacheRead | event.HasReasoning,
	}
}
