package cmd

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// The flags several commands share are defined here, once each, with the
// checks of their values.

// minChunkBytes is the smallest --max-chunk-bytes: below it the fixed
// fields of an envelope leave no room for content.
const minChunkBytes = 128

// xmlEscapings are the values of --xml-escaping.
var xmlEscapings = []string{"auto", "none", "newline", "full"}

func addMaxEventBytesFlag(fs *pflag.FlagSet, p *int, prefix string) {
	fs.IntVar(p, "max-event-bytes", event.DefaultMaxBytes, prefix+"cap on one SSE message, NDJSON line or block, in bytes")
}

func addXMLEscapingFlag(fs *pflag.FlagSet, p *string, prefix string) {
	fs.StringVar(p, "xml-escaping", "auto", prefix+usedBy(format.OptXMLEscaping)+" input: escaping generation ("+strings.Join(xmlEscapings, ", ")+")")
}

func addMaxChunkBytesFlag(fs *pflag.FlagSet, p *int, usage string) {
	fs.IntVar(p, "max-chunk-bytes", format.DefaultMaxChunkBytes, usage)
}

func checkMaxEventBytes(n int) error {
	if n <= 0 {
		return failure(fmt.Errorf("--max-event-bytes must be positive, not %d", n))
	}
	return nil
}

func checkMaxChunkBytes(n int) error {
	if n < minChunkBytes {
		return failure(fmt.Errorf("--max-chunk-bytes must be at least %d, not %d", minChunkBytes, n))
	}
	return nil
}

func checkXMLEscaping(s string) error {
	if !slices.Contains(xmlEscapings, s) {
		return failure(fmt.Errorf("--xml-escaping must be auto, none, newline or full, not %q", s))
	}
	return nil
}

// optionFlags are the flags that set each format option.
var optionFlags = map[format.Option][]string{
	format.OptMaxChunkBytes: {"max-chunk-bytes"},
	format.OptFraming:       {"framing"},
	format.OptPartial:       {"partial"},
	format.OptXMLEscaping:   {"xml-escaping"},
	format.OptTools:         {"tools", "tools-file"},
	format.OptNonce:         {"nonce"},
	format.OptMCPBeta:       {"mcp-beta"},
	format.OptLateSignature: {"late-signatures"},
}

// checkUses rejects a flag given on the command line (changed) for an
// option that none of the formats fs reads or writes uses: --framing
// ndjson --to xml says so rather than being ignored. role names the
// formats in the message ("--to xml").
func checkUses(changed func(string) bool, role string, fs []convert.Format, opts ...format.Option) error {
	for _, opt := range opts {
		used := false
		for _, f := range fs {
			used = used || slices.Contains(f.Uses, opt)
		}
		if used {
			continue
		}
		for _, flag := range optionFlags[opt] {
			if changed(flag) {
				return failure(fmt.Errorf("--%s does not apply to %s (it is for %s)", flag, role, strings.Join(formatsUsing(opt), ", ")))
			}
		}
	}
	return nil
}

// formatsUsing names the formats that use opt.
func formatsUsing(opt format.Option) []string { return optionUsers()[opt] }

// optionUsers maps each option to the formats that use it, in table
// order: the flags' help asks for it on every command line.
var optionUsers = sync.OnceValue(func() map[format.Option][]string {
	m := map[format.Option][]string{}
	for _, f := range convert.Formats() {
		for _, opt := range f.Uses {
			m[opt] = append(m[opt], f.Name)
		}
	}
	return m
})

// changedIn returns whether a flag of fs was given on the command line;
// nil fs (a run function called without cobra) means none was.
func changedIn(fs *pflag.FlagSet) func(string) bool {
	return func(name string) bool {
		if fs == nil {
			return false
		}
		f := fs.Lookup(name)
		return f != nil && f.Changed
	}
}

// usedBy names the formats that use opt, for flag help: "jsonenv",
// "inlinexml and xmltools".
func usedBy(opt format.Option) string { return strings.Join(formatsUsing(opt), " and ") }
