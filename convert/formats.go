package convert

import (
	"bytes"
	"encoding/json"
	"io"
	"slices"

	emitacp "github.com/agentstream/agentstream/emit/acp"
	emitagui "github.com/agentstream/agentstream/emit/agui"
	emitaisdk "github.com/agentstream/agentstream/emit/aisdk"
	emitanthropic "github.com/agentstream/agentstream/emit/anthropic"
	emitclaude "github.com/agentstream/agentstream/emit/claude"
	emitcodex "github.com/agentstream/agentstream/emit/codex"
	emitgemini "github.com/agentstream/agentstream/emit/gemini"
	emitinlinexml "github.com/agentstream/agentstream/emit/inlinexml"
	emitjsonenv "github.com/agentstream/agentstream/emit/jsonenv"
	emitopenaichat "github.com/agentstream/agentstream/emit/openaichat"
	emitopenairesp "github.com/agentstream/agentstream/emit/openairesp"
	emitxml "github.com/agentstream/agentstream/emit/xml"
	emitxmltools "github.com/agentstream/agentstream/emit/xmltools"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/parse/acp"
	"github.com/agentstream/agentstream/parse/agui"
	"github.com/agentstream/agentstream/parse/aisdk"
	"github.com/agentstream/agentstream/parse/anthropic"
	"github.com/agentstream/agentstream/parse/claude"
	"github.com/agentstream/agentstream/parse/claudesession"
	"github.com/agentstream/agentstream/parse/codex"
	"github.com/agentstream/agentstream/parse/codexsession"
	"github.com/agentstream/agentstream/parse/gemini"
	"github.com/agentstream/agentstream/parse/geminisession"
	"github.com/agentstream/agentstream/parse/inlinexml"
	"github.com/agentstream/agentstream/parse/jsonenv"
	"github.com/agentstream/agentstream/parse/openaichat"
	"github.com/agentstream/agentstream/parse/openairesp"
	"github.com/agentstream/agentstream/parse/opencode"
	"github.com/agentstream/agentstream/parse/xmlstream"
	"github.com/agentstream/agentstream/parse/xmltools"
)

// Format is one wire format agentstream reads and/or writes: what its
// parse package says about it, and its emit package's encoder.
type Format struct {
	format.Format
	// NewEncoder is nil for formats agentstream only reads.
	NewEncoder func(w io.Writer, o *format.Options) event.Encoder
}

// formats is the format table, in detection order: the first format whose
// Detect accepts an input's head is chosen, and the first other one whose
// Detect accepts a line a decoder does not know names that line's format
// (withForeign). Adding a format is one line here
// (docs/adding-a-format.md).
var formats = withForeign([]Format{
	{jsonenv.Format(), emitjsonenv.New},
	{xmlstream.Format(), emitxml.New},
	{codexsession.Format(), nil},
	{codex.Format(), emitcodex.New},
	{geminisession.Format(), nil},
	{gemini.Format(), emitgemini.New},
	{claudesession.Format(), nil},
	{opencode.Format(), nil},
	{acp.Format(), emitacp.New},
	{claude.Format(), emitclaude.New},
	{anthropic.Format(), emitanthropic.New},
	{openairesp.Format(), emitopenairesp.New},
	{openaichat.Format(), emitopenaichat.New},
	{aisdk.Format(), emitaisdk.New},
	{agui.Format(), emitagui.New},
	{xmltools.Format(), emitxmltools.New},
	{inlinexml.Format(), emitinlinexml.New},
})

// Formats returns the format table.
func Formats() []Format { return slices.Clone(formats) }

// Lookup returns the format named name.
func Lookup(name string) (Format, bool) {
	for _, f := range formats {
		if f.Name == name {
			return f, true
		}
	}
	return Format{}, false
}

// Names returns the names of the formats that can be read (read true) or
// written (read false).
func Names(read bool) []string {
	var names []string
	for _, f := range formats {
		if (read && f.NewDecoder != nil) || (!read && f.NewEncoder != nil) {
			names = append(names, f.Name)
		}
	}
	return names
}

// withForeign returns the table fs whose decoders and checkers are told
// which other format a line they do not know belongs to
// (format.Options.Foreign, format.CheckConfig.Foreign), unless their
// caller says so itself.
func withForeign(fs []Format) []Format {
	for i := range fs {
		f := &fs[i]
		foreign := foreignTo(fs, f.Name)
		if newDecoder := f.NewDecoder; newDecoder != nil {
			f.NewDecoder = func(r io.Reader, o *format.Options) event.Decoder {
				c := format.Options{}
				if o != nil {
					c = *o
				}
				if c.Foreign == nil {
					c.Foreign = foreign
				}
				return newDecoder(r, &c)
			}
		}
		if check := f.Check; check != nil {
			f.Check = func(r io.Reader, cc *format.CheckConfig, rep format.Reporter) {
				c := *cc
				if c.Foreign == nil {
					c.Foreign = foreign
				}
				check(r, &c, rep)
			}
		}
	}
	return fs
}

// foreignTo returns the format.Foreign of a decoder of the format named
// self: the first format of fs, in detection order, that reads input
// and whose Detect accepts the JSON object as an input's first unit,
// framed as a line or as SSE data. A format whose Detect is a guess does
// not claim a line, nor does self.
func foreignTo(fs []Format, self string) format.Foreign {
	return func(line []byte) string {
		if !bytes.HasPrefix(bytes.TrimSpace(line), []byte("{")) || !json.Valid(line) {
			return ""
		}
		nl := format.Head{Payload: line}.ReadFields()
		sse := nl
		sse.SSE = true
		for _, f := range fs {
			if f.Name == self || f.NewDecoder == nil || f.Detect == nil || f.Guess {
				continue
			}
			if f.Detect(nl) || f.Detect(sse) {
				return f.Name
			}
		}
		return ""
	}
}
