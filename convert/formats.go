package convert

import (
	"io"
	"slices"

	emitanthropic "github.com/agentstream/agentstream/emit/anthropic"
	emitclaude "github.com/agentstream/agentstream/emit/claude"
	emitcodex "github.com/agentstream/agentstream/emit/codex"
	"github.com/agentstream/agentstream/emit/inlinexml"
	"github.com/agentstream/agentstream/emit/jsonenv"
	"github.com/agentstream/agentstream/emit/xml"
	"github.com/agentstream/agentstream/emit/xmltools"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/frame"
	parseanthropic "github.com/agentstream/agentstream/parse/anthropic"
	parseclaude "github.com/agentstream/agentstream/parse/claude"
	parsecodex "github.com/agentstream/agentstream/parse/codex"
	parseinlinexml "github.com/agentstream/agentstream/parse/inlinexml"
	parsejsonenv "github.com/agentstream/agentstream/parse/jsonenv"
	"github.com/agentstream/agentstream/parse/xmlstream"
	parsexmltools "github.com/agentstream/agentstream/parse/xmltools"
)

// Options configure the decoders and encoders the format table builds.
// Each format reads the fields that apply to it and ignores the rest.
type Options struct {
	// Source names the input in error messages ("-" for stdin).
	Source string
	// MaxEventBytes caps one SSE message, one NDJSON line and one
	// reassembled block (frame.DefaultMaxBytes when 0).
	MaxEventBytes int
	// Agent is the agent id given to events of sources that carry none.
	Agent string
	// StopAtDone ends an SSE input at data: [DONE] (set for URLs, whose
	// connection may stay open); otherwise what follows is read on.
	StopAtDone bool

	// MaxChunkBytes caps one JSON envelope as written (jsonenv).
	MaxChunkBytes int
	// Framing is "sse" or "ndjson" for the formats that can use either
	// (jsonenv).
	Framing string
	// Partial makes the claude encoder write stream_event lines.
	Partial bool
	// XMLEscaping forces a legacy XML escaping generation for the xml
	// decoder: "auto" (default), "none", "newline", or "full".
	XMLEscaping string
	// ToolsFile and ToolNames configure the inline XML tool formats.
	ToolsFile string
	ToolNames []string
	// Nonce is the XML tool transport's nonce ("" to detect it).
	Nonce string

	// Warn receives what an encoder cannot carry (*event.LossError) and
	// other non-fatal notes. Nil discards them.
	Warn func(error)
}

// Format is one wire format agentstream reads and/or writes.
type Format struct {
	Name        string
	Description string
	// Detect reports whether an input whose first unit is h is in this
	// format. Nil: the format is never chosen by --from auto.
	Detect func(h frame.Head) bool
	// Guess marks a Detect that is a heuristic (plain text, say): the
	// command says on stderr which format it guessed.
	Guess bool
	// NewDecoder is nil for formats agentstream only writes.
	NewDecoder func(r io.Reader, o *Options) event.Decoder
	// NewEncoder is nil for formats agentstream only reads.
	NewEncoder func(w io.Writer, o *Options) event.Encoder
	// Lacks names the content this format cannot carry, in the field
	// vocabulary of docs/verify.md: block fields (is_error, exit_code,
	// status, structured, signature, citations, citation_extras, images,
	// mcp_server, kind, server, stop_reason, usage, cost, agent_id, model,
	// prompt) and block types (thinking, meta_init, meta_final, turn_end,
	// tool_result, awaiting_frontend_tools, meta_files, file_change,
	// todo_list, server_tool_call, server_tool_result, error). verify
	// does not compare them when one side's format lacks them, unless
	// --strict.
	Lacks []string
	// Wrap is set for the formats that live inside model text (the
	// inline XML tool protocols): it reads the text blocks of another
	// format's stream in this format (--tools-protocol).
	Wrap func(dec event.Decoder, o *Options) event.Decoder
}

// formats is the format table, in detection order: the first format whose
// Detect accepts an input's head is chosen.
var formats = []Format{
	{
		Name:        "jsonenv",
		Description: "JSON envelope stream over SSE or NDJSON (anthropic_agent json formatter)",
		Detect:      parsejsonenv.Detect,
		NewDecoder: func(r io.Reader, o *Options) event.Decoder {
			return parsejsonenv.NewDecoder(r, &parsejsonenv.Config{
				Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, StopAtDone: o.StopAtDone,
			})
		},
		NewEncoder: func(w io.Writer, o *Options) event.Encoder {
			return jsonenv.NewEncoder(w, &jsonenv.Config{
				MaxChunkBytes: o.MaxChunkBytes, NDJSON: o.Framing == "ndjson", Agent: o.Agent, Warn: o.Warn,
			})
		},
		// What emit/jsonenv warns about: no field for these on the wire,
		// and no per-turn end (only meta_final's run summary).
		Lacks: []string{"is_error", "exit_code", "status", "structured", "signature", "mcp_server", "turn_end", "file_change", "todo_list"},
	},
	{
		Name:        "xml",
		Description: "legacy XML stream over SSE (anthropic_agent xml formatter, content-block-* tags)",
		// The envelope's gaps, and the citation fields the producer does
		// not write for a citation's type (docs/verify.md).
		Lacks:  []string{"is_error", "exit_code", "status", "structured", "signature", "mcp_server", "turn_end", "file_change", "todo_list", "citation_extras"},
		Detect: xmlstream.Detect,
		NewDecoder: func(r io.Reader, o *Options) event.Decoder {
			return xmlstream.NewDecoder(r, &xmlstream.Config{
				Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent, Escaping: o.XMLEscaping, StopAtDone: o.StopAtDone,
			})
		},
		NewEncoder: func(w io.Writer, o *Options) event.Encoder {
			return xml.NewEncoder(w, &xml.Config{Agent: o.Agent, Warn: o.Warn})
		},
	},
	{
		Name:        "codex",
		Description: "Codex CLI exec --json output (NDJSON thread, turn and item events)",
		// From docs/formats/codex.md: no session metadata, signatures,
		// citations, images, structured results, server-tool flag,
		// awaiting-tools pauses, file lists or run summary; error types
		// are the decoder's own.
		Lacks: []string{
			"model", "prompt", "signature", "citations", "images", "structured", "server",
			"awaiting_frontend_tools", "meta_files", "meta_final", "stop_reason", "cost", "kind",
		},
		Detect: parsecodex.Detect,
		NewDecoder: func(r io.Reader, o *Options) event.Decoder {
			return parsecodex.NewDecoder(r, &parsecodex.Config{
				Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent,
			})
		},
		NewEncoder: func(w io.Writer, o *Options) event.Encoder {
			return emitcodex.NewEncoder(w, &emitcodex.Config{Agent: o.Agent, Warn: o.Warn, MaxBlockBytes: o.MaxEventBytes})
		},
	},
	{
		Name:        "claude",
		Description: "Claude Code stream-json (claude -p --output-format stream-json --verbose; --partial writes stream_event lines)",
		// docs/formats/claude.md: no exit codes or status, no awaiting
		// tools, file lists, file changes or todo lists; no prompt.
		// agent_id: Claude Code names a subagent by the tool call that started it.
		Lacks:  []string{"exit_code", "status", "awaiting_frontend_tools", "meta_files", "file_change", "todo_list", "prompt", "agent_id"},
		Detect: parseclaude.Detect,
		NewDecoder: func(r io.Reader, o *Options) event.Decoder {
			return parseclaude.NewDecoder(r, &parseclaude.Config{
				Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent,
			})
		},
		NewEncoder: func(w io.Writer, o *Options) event.Encoder {
			return emitclaude.NewEncoder(w, &emitclaude.Config{
				Partial: o.Partial, Agent: o.Agent, Warn: o.Warn, MaxBlockBytes: o.MaxEventBytes,
			})
		},
	},
	{
		Name:        "anthropic",
		Description: "Anthropic Messages API streaming SSE body (event: + data:), one or more responses",
		// docs/formats/anthropic.md: one response body per turn: no
		// session metadata, client tool results or run summary.
		Lacks:  []string{"meta_init", "tool_result", "meta_final", "awaiting_frontend_tools", "meta_files", "file_change", "todo_list"},
		Detect: parseanthropic.Detect,
		NewDecoder: func(r io.Reader, o *Options) event.Decoder {
			return parseanthropic.NewDecoder(r, &parseanthropic.Config{
				Source: o.Source, MaxEventBytes: o.MaxEventBytes, Agent: o.Agent,
			})
		},
		NewEncoder: func(w io.Writer, o *Options) event.Encoder {
			return emitanthropic.NewEncoder(w, &emitanthropic.Config{Agent: o.Agent, Warn: o.Warn})
		},
	},
	{
		Name:        "xmltools",
		Description: "model text with nonce-tagged XML tool slots (<ai-agent-NONCE-0001 tool=...>)",
		Detect:      parsexmltools.Detect,
		Guess:       true,
		Lacks: []string{
			"meta_init", "meta_final", "turn_end", "signature", "citations", "citation_extras", "images",
			"mcp_server", "exit_code", "status", "structured", "server", "kind", "agent_id", "model", "prompt",
			"stop_reason", "usage", "cost", "awaiting_frontend_tools", "meta_files", "file_change", "todo_list", "error",
		},
		NewDecoder: func(r io.Reader, o *Options) event.Decoder {
			cfg, err := xmltoolsConfig(o)
			if err != nil {
				return errDecoder{err}
			}
			return parsexmltools.NewDecoder(r, cfg)
		},
		NewEncoder: func(w io.Writer, o *Options) event.Encoder {
			return xmltools.NewEncoder(w, &xmltools.Config{Nonce: o.Nonce, Warn: o.Warn})
		},
		Wrap: func(dec event.Decoder, o *Options) event.Decoder {
			cfg, err := xmltoolsConfig(o)
			if err != nil {
				return errDecoder{err}
			}
			return parsexmltools.Wrap(dec, cfg)
		},
	},
	{
		// Plain text: chosen only by --from, never detected.
		Name:        "inlinexml",
		Description: "model text with inline XML tool calls (<read_file><path>...</path></read_file>, Cline, Roo)",
		Lacks: []string{
			"meta_init", "meta_final", "turn_end", "signature", "citations", "citation_extras", "images",
			"mcp_server", "exit_code", "status", "structured", "server", "kind", "agent_id", "model", "prompt",
			"stop_reason", "usage", "cost", "awaiting_frontend_tools", "meta_files", "file_change", "todo_list", "error",
		},
		NewDecoder: func(r io.Reader, o *Options) event.Decoder {
			cfg, err := inlinexmlConfig(o)
			if err != nil {
				return errDecoder{err}
			}
			return parseinlinexml.NewDecoder(r, cfg)
		},
		NewEncoder: func(w io.Writer, o *Options) event.Encoder {
			return inlinexml.NewEncoder(w, &inlinexml.Config{Warn: o.Warn})
		},
		Wrap: func(dec event.Decoder, o *Options) event.Decoder {
			cfg, err := inlinexmlConfig(o)
			if err != nil {
				return errDecoder{err}
			}
			return parseinlinexml.Wrap(dec, cfg)
		},
	},
}

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
