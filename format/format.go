package format

import (
	"io"

	"github.com/agentstream/agentstream/event"
)

// Format is what the rest of agentstream knows about one wire format it
// reads: each parse/<format> package returns one from its Format
// function, and convert's table lists them beside the encoders of the
// emit/<format> packages.
type Format struct {
	Name        string
	Description string
	// Detect reports whether an input whose first unit is h is in this
	// format. Nil: the format is never chosen by --from auto. It is also
	// asked about one JSON line, in either framing, that another format's
	// decoder does not know (convert fills Options.Foreign with it), so it
	// accepts any unit of the format that it can tell apart, not only
	// what a stream begins with.
	Detect func(h Head) bool
	// Guess marks a Detect that is a heuristic (plain text, say): the
	// command says on stderr which format it guessed.
	Guess bool
	// NewDecoder returns a decoder over r. Nil for formats agentstream
	// only writes.
	NewDecoder func(r io.Reader, o *Options) event.Decoder
	// Wrap is set for the formats that live inside model text (the
	// inline XML tool protocols): it reads the text blocks of another
	// format's stream in this format (--tools-protocol).
	Wrap func(dec event.Decoder, o *Options) event.Decoder
	// Abandons says the decoder may give a partial message up and
	// begin it again (event.NoticeAbandoned): convert.AbandonHold holds
	// the open blocks of a run read in this format for a target that
	// cannot mark an abandon, and nothing for one read in another.
	Abandons bool
	// Lacks is the content this format cannot carry. verify does not
	// compare it when one side's format lacks it; a test checks the list
	// against what the format's encoder reports as lost.
	Lacks []Content
	// Uses lists the options of Options beyond the common ones (Source,
	// MaxEventBytes, Agent, StopAtDone, Warn) that this format's decoder
	// or encoder reads, so that a command can reject a flag that does not
	// apply to the chosen format.
	Uses []Option
	// Rules are the format's own validate rules, beside the rules for
	// every format (validate.Rules), in report order.
	Rules []Rule
	// Skips lists the ids of validate's rules for every format that do
	// not hold for this one (GEN007 tool-answered for one model
	// response, whose tool results go in the next request).
	Skips []string
	// Unanswered lists the ids of the format's own Rules that a client
	// tool call left without a result breaks, beside validate's
	// tool-answered (codex: the item its turn leaves open).
	Unanswered []string
	// Check checks an input against Rules. It reads the same bytes as
	// the decoder, in step with it, and reports what it finds through
	// rep. Nil when the format has no rules of its own.
	Check Checker
	// CheckAlone marks a Check that covers the whole format: validate
	// then runs it instead of the decoder-based rules for every format.
	CheckAlone bool
	// ContentType and Headers are what an HTTP response carrying a body
	// in this format says (replay --serve): its Content-Type ("" when the
	// format has no HTTP form of its own) and the other response headers
	// its clients look for (the AI SDK's x-vercel-ai-ui-message-stream).
	ContentType string
	Headers     map[string]string
}

// Content types of the formats' HTTP forms. A format written in the
// framing the user chooses (jsonenv: --framing) leaves ContentType empty:
// its type follows the framing.
const (
	ContentSSE    = "text/event-stream"
	ContentNDJSON = "application/x-ndjson"
	ContentText   = "text/plain; charset=utf-8"
)

// Option names an option of Options that only some formats read.
type Option string

// The options only some formats read, by flag name.
const (
	OptMaxChunkBytes Option = "max-chunk-bytes"
	OptFraming       Option = "framing"
	OptPartial       Option = "partial"
	OptXMLEscaping   Option = "xml-escaping"
	OptTools         Option = "tools"
	OptNonce         Option = "nonce"
	OptMCPBeta       Option = "mcp-beta"
	OptLateSignature Option = "late-signatures"
)

// Options configure the decoders and encoders of the format table. Each
// format reads the fields that apply to it (Format.Uses) and ignores the
// rest. The zero value is valid and means every default.
type Options struct {
	// Source names the input in error messages ("-" for stdin).
	Source string
	// MaxEventBytes caps one SSE message, one NDJSON line and one
	// reassembled block (event.DefaultMaxBytes when 0).
	MaxEventBytes int
	// Agent is the agent id given to events of sources that carry none.
	Agent string
	// StopAtDone ends an SSE input at data: [DONE] (set for URLs, whose
	// connection may stay open); otherwise what follows is read on.
	StopAtDone bool

	// MaxChunkBytes caps one JSON envelope as written (jsonenv;
	// DefaultMaxChunkBytes when 0).
	MaxChunkBytes int
	// Framing is "sse" or "ndjson" for the formats that can use either
	// (jsonenv).
	Framing string
	// Partial makes the claude encoder write stream_event lines.
	Partial bool
	// MCPBeta makes the anthropic encoder write MCP tool calls and
	// results as the MCP connector beta's mcp_tool_use and
	// mcp_tool_result blocks, not tool_use (with server_name) and
	// tool_result.
	MCPBeta bool
	// LateSignatures makes the anthropic encoder write the thinking
	// signatures a run summary gives (the envelope's meta_final) as
	// signature_delta events after their block has stopped: the SDKs
	// take them, but the API never sends a delta after a block's stop
	// (validate rule MSG001). Without it they are reported as lost.
	LateSignatures bool
	// XMLEscaping forces a legacy XML escaping generation for the xml
	// decoder: "auto" (default), "none", "newline", or "full".
	XMLEscaping string
	// ToolsFile and ToolNames configure the inline XML tool formats.
	ToolsFile string
	ToolNames []string
	// Nonce is the XML tool transport's nonce ("" to detect it).
	Nonce string

	// Subagent opens the transcript of the subagent agentID, for formats
	// that keep a subagent's transcript in a file of its own (Claude
	// Code's session logs), and returns its name for error messages. Nil
	// when the input has no files beside it (standard input, a URL).
	Subagent func(agentID string) (io.ReadCloser, string, error)

	// Warn receives what an encoder cannot carry (*event.LossError) and
	// other non-fatal notes. Nil discards them.
	Warn func(error)

	// Foreign names the format of a line the decoder does not know, when
	// it is another format's. convert fills it from its table.
	Foreign Foreign
}

// Foreign names the format a JSON object (one line or SSE data of an
// input) is a unit of, for a decoder that does not know the object's
// type: "" when no format but the one read claims it. A decoder reports a
// line it names as a line of that format instead of keeping it as an
// unknown event of its own. Nil names none.
type Foreign func(line []byte) string

// Of returns what f names line, or "" when f is nil.
func (f Foreign) Of(line []byte) string {
	if f == nil {
		return ""
	}
	return f(line)
}

// DefaultMaxChunkBytes is the JSON envelope's MAX_SSE_CHUNK_BYTES: the
// default cap on one envelope's JSON text as written (Options.MaxChunkBytes).
const DefaultMaxChunkBytes = 2048

// Rule is one check validate makes.
type Rule struct {
	ID   string // stable id, e.g. "CDX001"
	Name string // short name, e.g. "item-lifecycle"
	Doc  string // what the rule requires, one sentence
}

// CheckConfig is what a Checker is told about its input.
type CheckConfig struct {
	Source        string  // input name
	MaxEventBytes int     // cap on one unit (event.DefaultMaxBytes when 0)
	MaxChunkBytes int     // the envelope byte cap, for formats that have one
	Foreign       Foreign // as Options.Foreign, for a checker in step with its decoder
}

// Reporter receives the violations a Checker finds. Line and column are
// 1-based; 0 when unknown.
type Reporter interface {
	// Report records a violation of one of the format's Rules.
	Report(rule string, line, col int, msg string)
}

// WholeReporter is the Reporter validate hands a CheckAlone checker, which
// covers what the decoder-based rules would otherwise check.
type WholeReporter interface {
	Reporter
	// Problem records a problem in the input, a *event.ParseError: its
	// sentinel (event.ErrSyntax, ErrTruncated, ErrTooLarge) names the rule
	// for every format it breaks.
	Problem(err error)
	// Event hands the rules for every format an event the checker read
	// at line.
	Event(ev event.Event, line int)
}

// Checker checks the raw input r against a format's own rules. It skips
// what the format's decoder reports as a problem (that is reported once,
// by the decoder) and returns when r ends.
type Checker func(r io.Reader, c *CheckConfig, rep Reporter)

// Failed returns a decoder whose first Next returns err: what a format's
// NewDecoder returns when its options cannot be used (an unreadable tools
// file, say).
func Failed(err error) event.Decoder { return failed{err} }

type failed struct{ err error }

func (d failed) Next() (event.Event, error) { return nil, d.err }
