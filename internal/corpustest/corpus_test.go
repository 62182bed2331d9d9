// Package corpustest holds the properties every format pair must keep over
// every recording in testdata/ and ../shared/corpus/: the output of every
// encoder passes validate, every format round-trips through itself, and
// the pairs the conversion matrix calls lossless verify equal both ways.
package corpustest

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/assemble/assembletest"
	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/validate"
	"github.com/agentstream/agentstream/verify"
)

// recording is one input file and the format it is in.
type recording struct {
	path string
	f    convert.Format
	data []byte
}

// recordings returns every recording of the wire formats in testdata/ and,
// when it is there, ../shared/corpus/ (once per content), in the format
// --from auto detects: a folder may hold several (the corpus keeps both
// OpenAI bodies in openai/, stdout and session logs in sessions/).
// Hand-made bad inputs are left out; the text protocols have their own
// golden suites (textRecordings).
func recordings(t *testing.T) []recording {
	t.Helper()
	var out []recording
	seen := map[string]bool{}
	for _, root := range []string{"../../testdata", "../../../shared/corpus"} {
		files, _ := filepath.Glob(filepath.Join(root, "*", "*"))
		for _, path := range files {
			switch filepath.Ext(path) {
			case ".sse", ".jsonl", ".json":
			default:
				continue
			}
			if strings.Contains(filepath.Base(path), "hand-bad") || strings.HasSuffix(path, ".tools.json") {
				continue
			}
			if strings.HasSuffix(path, ".client.jsonl") {
				// The client's side of an ACP session: ACP, but no
				// agent's output, which the acp decoder reports
				// (testdata/script/acp.txtar).
				continue
			}
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			f, guessed, err := convert.Detect(bufio.NewReader(bytes.NewReader(b)))
			if err != nil || guessed || f.Detect == nil {
				continue
			}
			if seen[string(b)] {
				continue // a copy of a corpus file
			}
			seen[string(b)] = true
			out = append(out, recording{path, f, b})
		}
	}
	if len(out) == 0 {
		t.Fatal("no recordings found")
	}
	return out
}

// textRecordings returns the model text samples of the text protocols
// (testdata/<format>/*.txt), read with --from.
func textRecordings(t *testing.T) []recording {
	t.Helper()
	var out []recording
	for _, f := range convert.Formats() {
		if f.Wrap == nil {
			continue
		}
		files, _ := filepath.Glob(filepath.Join("../../testdata", f.Name, "*.txt"))
		for _, path := range files {
			b, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, recording{path, f, b})
		}
	}
	return out
}

// encoders returns the formats that can be written and read back.
func encoders() []convert.Format {
	var out []convert.Format
	for _, f := range convert.Formats() {
		if f.NewEncoder != nil && f.NewDecoder != nil && f.Detect != nil && !f.Guess {
			out = append(out, f)
		}
	}
	return out
}

// convertTo re-encodes data (in format from) as format to, skipping the
// input's problems (they are the input's, reported by its own checks).
func convertTo(t *testing.T, data []byte, from, to convert.Format) []byte {
	t.Helper()
	var out bytes.Buffer
	dec := from.NewDecoder(bytes.NewReader(data), &format.Options{Source: "in"})
	enc := to.NewEncoder(&out, &format.Options{})
	if err := convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(error) bool { return true }}); err != nil {
		t.Fatalf("convert %s to %s: %v", from.Name, to.Name, err)
	}
	enc.Close() // what it reports (blocks left open) is the input's truncation
	return out.Bytes()
}

// violations returns what data breaks, read as format f.
func violations(t *testing.T, name string, data []byte, f convert.Format) []validate.Violation {
	t.Helper()
	vs, err := validate.Check(bytes.NewReader(data), &validate.Config{
		Source: name, Format: f.Format,
		NewDecoder: func(r io.Reader) event.Decoder { return f.NewDecoder(r, &format.Options{Source: name}) },
	})
	if err != nil {
		t.Fatalf("validate %s: %v", name, err)
	}
	return vs
}

// afterTruncation are the rules a stream cut off mid-block breaks by
// being cut: its conversion is cut at the same place.
var afterTruncation = []string{
	validate.Truncated, validate.ToolAnswered, validate.TurnClosed, "ENV003",
	"ENV007", "CLA001", "CDX001",
	// The OpenAI bodies' end (validate runs each format's own Check now):
	// data: [DONE] of Chat, response.completed of Responses.
	"OAC003", "OAR001",
	// The UI message stream's finish and [DONE].
	"AIS005",
}

// TestEncodersWriteValid: what every encoder writes of every recording,
// model text samples included, passes validate, or convert says why it
// cannot: the output breaks only the rules the input itself breaks, what a
// cut-off input breaks by being cut, and the rules convert.Guard reported
// (a tool call the input never answers, a tool's free-text input). An
// empty output (nothing the input holds can be written: an error-only run
// as model text) breaks has-events; the command reports it and exits 1
// (testdata/script/wrong-input.txtar).
func TestEncodersWriteValid(t *testing.T) {
	t.Parallel()
	var targets []convert.Format
	for _, f := range convert.Formats() {
		if f.NewEncoder != nil && f.NewDecoder != nil {
			targets = append(targets, f)
		}
	}
	for _, rec := range append(recordings(t), textRecordings(t)...) {
		var in []string
		for _, v := range violations(t, rec.path, rec.data, rec.f) {
			in = append(in, v.Rule)
		}
		if slices.Contains(in, validate.Truncated) {
			in = append(in, afterTruncation...)
		}
		for _, to := range targets {
			t.Run(rec.path+"->"+to.Name, func(t *testing.T) {
				t.Parallel()
				var reported []string
				out := convertGuarded(t, rec.data, rec.f, to, func(err error) {
					if re, ok := err.(*convert.RuleError); ok {
						reported = append(reported, re.Rules...)
					}
				})
				for _, v := range violations(t, "out", out, to) {
					switch {
					case slices.Contains(in, v.Rule), slices.Contains(reported, v.Rule):
					case len(out) == 0:
						// Nothing the input holds can be written: the
						// command reports the empty output and exits 1.
					case v.Rule == validate.Truncated && lostRunEnd(t, rec, to):
						// ACP ends a prompt turn only with a stop reason of
						// its own: the encoder says it cannot write the run's
						// end (emit/acp.NoRunEnd), and the output reads as cut.
					default:
						t.Errorf("output breaks a rule the input keeps, and convert did not say so: %s %s: %s", v.Rule, v.Name, v.Message)
					}
				}
			})
		}
	}
}

// lostRunEnd reports whether the encoder of to reported that it could not
// write the run's end of rec (emit/acp.NoRunEnd).
func lostRunEnd(t *testing.T, rec recording, to convert.Format) bool {
	t.Helper()
	lost := false
	enc := to.NewEncoder(io.Discard, &format.Options{Warn: func(err error) {
		var le *event.LossError
		if errors.As(err, &le) && strings.Contains(le.What, "run end") {
			lost = true
		}
	}})
	dec := rec.f.NewDecoder(bytes.NewReader(rec.data), &format.Options{Source: "in"})
	_ = convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(error) bool { return true }})
	enc.Close()
	return lost
}

// convertGuarded is convertTo through convert.Guard, whose reports go to
// warn.
func convertGuarded(t *testing.T, data []byte, from, to convert.Format, warn func(error)) []byte {
	t.Helper()
	var out bytes.Buffer
	dec := from.NewDecoder(bytes.NewReader(data), &format.Options{Source: "in"})
	enc := convert.Guard(to.NewEncoder(&out, &format.Options{}), to, warn)
	if err := convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(error) bool { return true }}); err != nil {
		t.Fatalf("convert %s to %s: %v", from.Name, to.Name, err)
	}
	enc.Close() // what it reports (blocks left open) is the input's truncation
	return out.Bytes()
}

// side decodes and assembles data in format f, skipping its problems.
func side(t *testing.T, name string, data []byte, f convert.Format) verify.Side {
	t.Helper()
	dec := f.NewDecoder(bufio.NewReader(bytes.NewReader(data)), &format.Options{Source: name})
	return verify.Side{Name: name, Format: f.Name, Lacks: f.Lacks, Blocks: assembletest.Blocks(t, dec)}
}

func report(r *verify.Report) string {
	var b strings.Builder
	for _, d := range r.Differences {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	return b.String()
}

// TestSelfRoundTrip: every recording converted to its own format carries
// the same content, compared with nothing ignored; Codex's lines come back
// byte for byte (hand-made files hold older and odd spellings the encoder
// writes as today's CLI does).
func TestSelfRoundTrip(t *testing.T) {
	t.Parallel()
	for _, rec := range recordings(t) {
		if rec.f.NewEncoder == nil {
			continue // read only (the session logs)
		}
		t.Run(rec.path, func(t *testing.T) {
			t.Parallel()
			out := convertTo(t, rec.data, rec.f, rec.f)
			r := verify.Compare(side(t, rec.path, rec.data, rec.f), side(t, "out", out, rec.f), nil)
			if !r.Equal {
				t.Errorf("%s -> %s not equal:\n%s", rec.path, rec.f.Name, report(r))
			}
			if rec.f.Name == "codex" && !strings.HasPrefix(filepath.Base(rec.path), "hand-") && !bytes.Equal(out, rec.data) {
				t.Errorf("codex -> codex is not byte-identical")
			}
		})
	}
}

// lossless lists the pairs docs/conversion-matrix.md calls lossless: a
// recording of the first format converted to the second and back carries
// the same content (given what the second cannot carry).
var lossless = [][2]string{
	{"jsonenv", "xml"},
	{"xml", "jsonenv"},
	{"claude", "jsonenv"},
	{"anthropic", "jsonenv"},
	{"codex", "jsonenv"},
}

// TestLosslessPairs: X -> Y -> X verifies equal for the pairs the
// conversion matrix calls lossless, with Y's gaps not compared.
func TestLosslessPairs(t *testing.T) {
	t.Parallel()
	for _, rec := range recordings(t) {
		for _, p := range lossless {
			if p[0] != rec.f.Name {
				continue
			}
			via, ok := convert.Lookup(p[1])
			if !ok {
				t.Fatalf("no format %s", p[1])
			}
			t.Run(rec.path+"->"+via.Name, func(t *testing.T) {
				t.Parallel()
				back := convertTo(t, convertTo(t, rec.data, rec.f, via), via, rec.f)
				b := side(t, "back", back, rec.f)
				b.Format, b.Lacks = rec.f.Name+" via "+via.Name, via.Lacks
				a := side(t, rec.path, rec.data, rec.f)
				o := &verify.Options{}
				if rec.f.Name == "codex" {
					// The Codex encoder numbers items itself; the envelope
					// keeps no id of a text item to number them by.
					o.Ignore = append(o.Ignore, verify.IgnoreIDs)
				}
				if via.Name == "xml" && !slices.ContainsFunc(a.Blocks, func(b *assemble.Block) bool { return b.Type == assemble.TypeMetaInit }) {
					// XML names an agent only in its meta_init.
					o.Ignore = append(o.Ignore, verify.IgnoreAgentIDs)
				}
				r := verify.Compare(a, b, o)
				if via.Name == "xml" && strings.Contains(rec.path, "interleaved") {
					// XML keeps agents apart by meta_init alone: an
					// agent's content that came while its subagent ran is
					// written after the subagent's end, its own still, but
					// moved past its result for the subagent's call.
					r.Differences = slices.DeleteFunc(r.Differences, func(d verify.Difference) bool {
						return strings.Contains(d.String(), ": moved to block ")
					})
					r.Equal = len(r.Differences) == 0
				}
				if !r.Equal {
					t.Errorf("%s -> %s -> %s not equal:\n%s", rec.path, via.Name, rec.f.Name, report(r))
				}
			})
		}
	}
}

// producerFaults are the rules real producers' recordings break, and why:
// validate is right about them. Anything else a real recording breaks is
// a false positive of validate.
var producerFaults = map[string]string{
	"ENV002": "the reference producer's chunker counts the delta unescaped: envelopes up to 2383 bytes as written",
	"XML003": "the oldest XML producer (gen1, the captured demo) does not escape newlines: they break the SSE framing",
}

// TestRecordingsValid: every real recording (not hand-made, not cut by
// hand) passes validate in the format detected, but for producerFaults.
func TestRecordingsValid(t *testing.T) {
	t.Parallel()
	for _, rec := range recordings(t) {
		base := filepath.Base(rec.path)
		if strings.HasPrefix(base, "hand-") || strings.Contains(base, "truncated") {
			continue
		}
		t.Run(rec.path, func(t *testing.T) {
			t.Parallel()
			for _, v := range violations(t, rec.path, rec.data, rec.f) {
				if _, ok := producerFaults[v.Rule]; !ok {
					t.Errorf("%s:%d:%d: %s %s: %s", rec.path, v.Line, v.Column, v.Rule, v.Name, v.Message)
				}
			}
		})
	}
}
