package anthropic

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/frame"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/messages"
	"github.com/agentstream/agentstream/internal/slab"
	"github.com/agentstream/agentstream/internal/textlist"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
	"github.com/agentstream/agentstream/parse/internal/badutf8"
	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// Config configures a Decoder. The zero value is ready to use.
type Config struct {
	Source        string // input name for errors
	MaxEventBytes int    // cap on one SSE message and one assembled tool input (event.DefaultMaxBytes if 0)
	Agent         string // agent id of every event (the body names none)
	// Foreign names the format of a line of another format
	// (format.Options.Foreign).
	Foreign format.Foreign
}

// Decoder reads the SSE body of one or more Messages API responses and
// yields canonical events. See the package documentation for the grammar
// and tolerance rules.
type Decoder struct {
	cfg Config
	sse *frame.SSE
	b   *messages.Builder
	st  decoderstate.State // what Next returns
	cut error              // the framer's report of an input cut inside an SSE message

	line int // position of the message being decoded
	off  int64
	bad  badutf8.Once // the invalid UTF-8 warning

	jr  jsontext.Reader       // decodes data in one pass
	se  anthropic.StreamEvent // the event being decoded, reused
	str slab.Strings          // the strings jr makes
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
	d.sse = frame.NewSSE(r, d.cfg.Source, d.cfg.MaxEventBytes)
	d.b = messages.NewBuilder(d.emit, d.cfg.MaxEventBytes)
	d.b.StreamOnly() // a Messages API body has no snapshots
	d.jr.SetStrings(d.str.String)
	return d
}

// Detect reports whether an input whose first unit is h is a Messages API
// SSE body: SSE whose first message is message_start or ping (by its
// event: field or its data's type).
func Detect(h format.Head) bool {
	if !h.SSE {
		return false
	}
	typ := h.EventType
	if typ == "" {
		typ, _ = format.String(h.Fields(), "type")
	}
	switch typ {
	case anthropic.EventMessageStart, anthropic.EventPing, anthropic.EventContentBlockStart,
		anthropic.EventContentBlockDelta, anthropic.EventContentBlockStop, anthropic.EventMessageDelta,
		anthropic.EventMessageStop:
		return true
	case anthropic.EventError:
		// An error event alone: the Messages API's {"type":"error","error":{...}}.
		_, ok := h.Fields()["error"]
		return ok
	}
	return false
}

// Next returns the next event. See event.Decoder for the error contract.
func (d *Decoder) Next() (event.Event, error) { return d.st.Next(d.readMessage, d.truncation) }

// readMessage decodes the next SSE message of the input; a problem it has
// comes before the warning about invalid UTF-8 it held.
func (d *Decoder) readMessage() {
	data, typ, err := d.sse.NextData()
	if err != nil {
		// An input that ends inside an SSE message loses what it
		// held: one truncation is reported, after what is flushed.
		d.cut = d.st.ReadError(err)
		return
	}
	d.line, d.off = d.sse.Pos()
	d.message(typ, data)
}

// message decodes an SSE message of the input, of type typ, at d.line and
// d.off. Its data is borrowed from the framer (valid until the next
// message), never modified: what the events keep of it, they copy.
func (d *Decoder) message(typ string, data []byte) {
	warn := false
	// (A type the API sends, which most messages name, is valid.)
	if !badutf8.Valid(data) || !anthropic.IsStreamEvent(typ) && !utf8.ValidString(typ) {
		fixed, _, w1 := d.bad.Fix(data)
		t, _, w2 := d.bad.Fix([]byte(typ))
		data, typ, warn = fixed, string(t), w1 || w2
	}
	d.st.Problem(d.decode(typ, data))
	if warn {
		d.st.Problem(badutf8.Warning(d.cfg.Source, d.line, 1, d.off))
	}
}

// truncation reports what the end of the input cut off, after emitting
// the tool calls whose input had begun to arrive.
func (d *Decoder) truncation() error {
	if open := d.b.Truncate(); len(open) > 0 {
		return &event.ParseError{
			Source: d.cfg.Source, Line: d.line, Column: 1, Offset: d.off,
			Err: event.Errorf(event.ErrTruncated, "stream ended without message_stop, inside %s", textlist.Join(open, ", ")),
		}
	}
	return d.cut
}

func (d *Decoder) emit(ev event.Event) { d.st.Emit(ev) }

func (d *Decoder) errorf(sentinel error, format string, args ...any) *event.ParseError {
	return &event.ParseError{
		Source: d.cfg.Source, Line: d.line, Column: 1, Offset: d.off,
		Err: event.Errorf(sentinel, format, args...),
	}
}

func (d *Decoder) decode(evType string, raw []byte) error {
	if evType == anthropic.EventPing {
		return nil
	}
	if len(raw) == 0 || raw[0] != '{' && len(bytes.TrimSpace(raw)) == 0 {
		if evType == "" {
			return nil // a message with no data (id: alone)
		}
		return d.errorf(event.ErrSyntax, "%s event without data", evType)
	}
	// The data (the framer's, borrowed) and the event are reused: what
	// the builder keeps of them, it copies. The data, valid UTF-8
	// (message made it so), is decoded as json.Unmarshal does, in one
	// pass when jsontext.Reader can, else with encoding/json, which
	// gives the errors.
	se := &d.se
	if anthropic.ReadDeltaEvent(&d.jr, raw, se) {
		return d.streamEvent(se, raw) // a content_block_delta
	}
	*se = anthropic.StreamEvent{}
	err := jsontext.DecodeValid(&d.jr, raw, se, anthropic.ReadStreamEvent)
	if err != nil && !isTypeError(err) {
		return d.errorf(event.ErrSyntax, "data is not a JSON object: %s", jsontext.Problem(err))
	}
	typ := se.Type
	if err != nil {
		var head struct {
			Type any `json:"type"`
		}
		json.Unmarshal(raw, &head)
		typ, _ = head.Type.(string)
	}
	if typ == "" {
		typ = evType
	}
	if !anthropic.IsStreamEvent(typ) {
		if k := d.cfg.Foreign.Of(raw); k != "" {
			// A line of another format, not an event of a newer API.
			what := "an event"
			if typ != "" {
				what = typ + " event"
			}
			return d.errorf(event.ErrSyntax, "%s of another format (it looks like %s); skipped", what, k)
		}
		// An event type of a newer API: kept as it is.
		d.emit(&event.Unknown{Agent: d.cfg.Agent, Format: anthropic.Format, Type: typ, Raw: bytes.Clone(raw)})
		return nil
	}
	if err != nil {
		return d.errorf(event.ErrSyntax, "%s event: %s", typ, jsontext.Problem(err))
	}
	se.Type = typ // from the SSE event: field when the data has none
	return d.streamEvent(se, raw)
}

// streamEvent hands a stream event, decoded from raw, to the builder.
func (d *Decoder) streamEvent(se *anthropic.StreamEvent, raw []byte) error {
	err := d.b.StreamEvent(d.cfg.Agent, se, raw)
	if err == nil {
		return nil
	}
	sentinel := event.ErrSyntax
	for _, e := range []error{event.ErrTooLarge, event.ErrTooManyOpen} {
		if errors.Is(err, e) {
			sentinel = e
		}
	}
	return d.errorf(sentinel, "%s", err.Error())
}

// isTypeError reports whether err is a *json.UnmarshalTypeError.
func isTypeError(err error) bool {
	var te *json.UnmarshalTypeError
	return errors.As(err, &te)
}
