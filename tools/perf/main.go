// Command perf measures agentstream's throughput, as `make perf` runs it.
//
// Inputs are grown from real recordings: each source format from its own
// files in the shared corpus (-corpus; testdata/ where the corpus is
// missing), never from agentstream's encoders. A format's files are
// concatenated into one unit, which is repeated up to each size with its
// ids renumbered per copy (uuids, prefixed ids such as msg_ or call_, and
// the values of id keys), so that decoders see no repeats and the shape of
// the producer's runs and lines is kept: many tiny runs for codex, long
// streams of small SSE messages for the API formats.
//
// It runs every convert pair of the seven wire formats, `assemble -o json`
// of each, and each newer reader into anthropic and assemble, and beside
// them on the same input three baselines: `jq -c .` (on the data: lines of
// an SSE input, extracted once into a side file; `jq -R .` on the xml
// stream), gojq the same way, and jsonvalid (json.Valid per line, the
// ceiling). -runs N rounds run every baseline and row in turn, and the
// table gives the median over the rounds of each ratio of CPU times (user
// and system of the child, from getrusage): baseline CPU ÷ row CPU, so
// 5 means five times as fast as jq on the same input. CPU time, because on
// a shared machine wall time mostly measures the neighbours.
//
// With -hostile it measures instead every command (convert to each format
// written, assemble -o text, json and html, validate, verify of the input
// against itself, usage) on the hostile inputs of docs/limits.md, made by
// hostileInputs: one text delta for each of 1M agents, 1M tool calls that
// never get a result, one openai-chat chunk of 200k choices. It prints a
// Markdown table of each row's peak RSS and CPU time, the rows over 64 MB
// marked, as `make perf-hostile` runs it.
//
// With -pgo FILE it measures nothing: it runs the commands (-only: those
// whose name matches) -runs times on the inputs of the first size in
// process (cmd.Run, output discarded) under the CPU profiler and writes the
// profile to FILE, which `make pgo` makes the repository's default.pgo.
package main

import (
	"bufio"
	"bytes"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"runtime/pprof"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentstream/agentstream/cmd"
)

// source is one format read: where its real recordings are and how the
// baselines read it.
type source struct {
	name string
	ext  string
	// corpus are globs under the shared corpus, testdata globs under
	// testdata/, used when the corpus has none.
	corpus, testdata []string
	// skip drops files whose base name matches (other generations of a
	// producer, hand-made edge cases).
	skip *regexp.Regexp
	sse  bool // jq reads the data: lines
	xml  bool // jq -R reads the lines
	wire bool // one of the seven wire formats, read and written
}

var handMade = regexp.MustCompile(`^(hand-|edge-|captured-)|\.gen[0-9]\.|\.session\.`)

// sources are the formats read, the seven wire formats first.
var sources = []source{
	{name: "claude", ext: "jsonl", corpus: []string{"claude/*.jsonl"}, testdata: []string{"claude/*.jsonl"}, wire: true},
	{name: "codex", ext: "jsonl", corpus: []string{"codex/*.jsonl"}, testdata: []string{"codex/*.jsonl"}, wire: true},
	{name: "anthropic", ext: "sse", corpus: []string{"anthropic/*.sse"}, testdata: []string{"anthropic/*-turn*.sse"}, sse: true, wire: true},
	{name: "xml", ext: "sse", corpus: []string{"xml/*.sse"}, testdata: []string{"xml/*.sse"}, xml: true, wire: true},
	{name: "jsonenv", ext: "sse", corpus: []string{"jsonenv/*.sse"}, testdata: []string{"jsonenv/*.sse"}, sse: true, wire: true},
	{name: "openai-responses", ext: "sse", corpus: []string{"openai/responses-*.sse"}, testdata: []string{"openai-responses/responses-*.sse"}, sse: true, wire: true},
	{name: "openai-chat", ext: "sse", corpus: []string{"openai/chat-*.sse", "opencode/chat-raw-*.sse"}, testdata: []string{"openai-chat/chat-*.sse"}, sse: true, wire: true},
	{name: "gemini", ext: "jsonl", corpus: []string{"gemini/*.jsonl"}, testdata: []string{"gemini/*.jsonl"}},
	{name: "opencode", ext: "jsonl", corpus: []string{"opencode/*.jsonl"}, testdata: []string{"opencode/*.jsonl"}},
	{name: "acp", ext: "jsonl", corpus: []string{"acp/*.agent.jsonl"}, testdata: []string{"acp/*.agent.jsonl"}},
	{name: "aisdk", ext: "sse", corpus: []string{"aisdk/ai-7.0.173/*.sse"}, testdata: []string{"aisdk/ai-7.0.173-*.sse"}, sse: true},
}

func main() {
	bin := flag.String("bin", "bin/agentstream", "agentstream binary to measure")
	corpus := flag.String("corpus", "../shared/corpus", "the shared corpus of real recordings")
	testdata := flag.String("testdata", "testdata", "testdata directory, for formats the corpus lacks")
	sizes := flag.String("sizes", "20,200", "input sizes in MB, comma separated")
	keep := flag.Bool("keep", false, "keep the temporary directory (inputs and baselines)")
	runs := flag.Int("runs", 3, "rounds; each row gives the median over them")
	gojq := flag.String("gojq", "v0.12.17", "gojq version to build from the Go module proxy (empty: no gojq column)")
	only := flag.String("only", "", "run only the rows whose name matches this regular expression")
	pgo := flag.String("pgo", "", "instead of measuring, write a CPU profile of the rows, run in process on the inputs of the first size, to this file")
	hostileRows := flag.Bool("hostile", false, "instead, run every command on the hostile inputs of docs/limits.md (1M agents, 1M open calls, 200k choices) and print each one's peak RSS and CPU time (-only matches \"INPUT COMMAND\")")
	flag.Parse()
	o := options{bin: *bin, corpus: *corpus, testdata: *testdata, keep: *keep, runs: *runs, gojq: *gojq}
	var err error
	if o.sizes, err = parseSizes(*sizes); err == nil && *only != "" {
		o.only, err = regexp.Compile(*only)
	}
	if err == nil {
		switch {
		case *hostileRows:
			err = hostile(o, os.Stdout, 1)
		case *pgo != "":
			err = profile(o, *pgo)
		default:
			err = run(o)
		}
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "perf:", err)
		os.Exit(1)
	}
}

type options struct {
	bin, corpus, testdata, gojq string
	sizes                       []int
	keep                        bool
	runs                        int
	only                        *regexp.Regexp
}

func parseSizes(list string) ([]int, error) {
	var sizes []int
	for _, s := range strings.Split(list, ",") {
		mb, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || mb <= 0 {
			return nil, fmt.Errorf("bad size %q", s)
		}
		sizes = append(sizes, mb)
	}
	return sizes, nil
}

func run(o options) error {
	if _, err := exec.LookPath("jq"); err != nil {
		return fmt.Errorf("jq not found: install it (apt-get install -y jq)")
	}
	bin, dir, cleanup, err := workDir(o, "agentstream-perf-")
	if err != nil {
		return err
	}
	defer cleanup()
	units, err := loadUnits(o.corpus, o.testdata)
	if err != nil {
		return err
	}
	tools, err := buildTools(dir, o.gojq)
	if err != nil {
		return err
	}
	fmt.Printf("machine: %d CPUs (%s), %s/%s, load %s; %s, gojq %s; %d rounds, median\n", runtime.NumCPU(), cpuModel(),
		runtime.GOOS, runtime.GOARCH, loadAvg(), jqVersion(), orNone(o.gojq), o.runs)
	for _, s := range sources {
		u := units[s.name]
		fmt.Printf("  %-16s %3d recordings, %7d B a copy, %5d B a line (%s)\n", s.name, u.files, len(u.text), u.bytesPerLine(), u.from)
	}
	if err := latency(bin); err != nil {
		return err
	}
	for _, mb := range o.sizes {
		if err := measureSize(o, bin, dir, tools, units, mb); err != nil {
			return err
		}
	}
	return nil
}

func orNone(s string) string {
	if s == "" {
		return "none"
	}
	return s
}

// tools are the baselines' programs.
type tools struct{ jsonvalid, gojq string }

// buildTools builds jsonvalid and, when version is set, gojq into dir.
func buildTools(dir, version string) (tools, error) {
	t := tools{jsonvalid: filepath.Join(dir, "jsonvalid")}
	if out, err := exec.Command("go", "build", "-o", t.jsonvalid, "github.com/agentstream/agentstream/tools/perf/jsonvalid").CombinedOutput(); err != nil {
		return t, fmt.Errorf("building jsonvalid: %v: %s", err, out)
	}
	if version == "" {
		return t, nil
	}
	c := exec.Command("go", "install", "github.com/itchyny/gojq/cmd/gojq@"+version)
	c.Env = append(os.Environ(), "GOBIN="+dir)
	if out, err := c.CombinedOutput(); err != nil {
		return t, fmt.Errorf("building gojq %s (-gojq '' leaves it out): %v: %s", version, err, out)
	}
	t.gojq = filepath.Join(dir, "gojq")
	return t, nil
}

// unit is the concatenation of one format's recordings.
type unit struct {
	text  []byte
	files int
	from  string
	done  bool // the recordings end with data: [DONE], kept once at the end
}

// bytesPerLine is the mean length of the unit's non-blank lines.
func (u unit) bytesPerLine() int {
	n := bytes.Count(u.text, []byte("\n")) - bytes.Count(u.text, []byte("\n\n"))
	if n <= 0 {
		return 0
	}
	return len(u.text) / n
}

// doneMarker ends an SSE stream of several formats; decoders stop at it,
// so the copies are written without it and it comes once at the end.
const doneMarker = "data: [DONE]\n\n"

func loadUnits(corpus, testdata string) (map[string]unit, error) {
	units := map[string]unit{}
	for _, s := range sources {
		files, from := globAll(corpus, s.corpus, s.skip), "corpus"
		if len(files) == 0 {
			files, from = globAll(testdata, s.testdata, s.skip), "testdata"
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("no recordings of %s under %s or %s", s.name, corpus, testdata)
		}
		u := unit{files: len(files), from: from}
		for i, f := range files {
			b, err := os.ReadFile(f)
			if err != nil {
				return nil, err
			}
			if bytes.Contains(b, []byte(doneMarker)) {
				u.done = true
				b = bytes.ReplaceAll(b, []byte(doneMarker), nil)
			}
			if len(b) > 0 && b[len(b)-1] != '\n' {
				b = append(b, '\n')
			}
			if s.ext == "sse" && !bytes.HasSuffix(b, []byte("\n\n")) {
				b = append(b, '\n')
			}
			u.text = renumber(u.text, b, idSpans(b), uint32(i), 'y', 28)
		}
		units[s.name] = u
	}
	return units, nil
}

func globAll(dir string, globs []string, skip *regexp.Regexp) []string {
	var files []string
	for _, g := range globs {
		m, _ := filepath.Glob(filepath.Join(dir, g))
		for _, f := range m {
			if !handMade.MatchString(filepath.Base(f)) && (skip == nil || !skip.MatchString(filepath.Base(f))) {
				files = append(files, f)
			}
		}
	}
	sort.Strings(files)
	return files
}

var (
	uuidRe = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)
	// prefixRe finds the vendors' prefixed ids; a match followed by ": is
	// a key (call_id) and is left alone.
	prefixRe = regexp.MustCompile(`["';](msg_|toolu_|srvtoolu_|call_|call-|resp_|req_|ses_|prt_|item_|chatcmpl-|msg-|rs_|fc_|ws_)[0-9A-Za-z]`)
	keyRe    = regexp.MustCompile(`"(id|tool_id|toolCallId|callID|messageId|messageID)":"([^"\\]+)"`)
	leadRe   = regexp.MustCompile(`^[A-Za-z]+[_-]`)
	keyAfter = regexp.MustCompile(`^[0-9A-Za-z_]*(":|\\":|&quot;:)`)
)

// span is one id in a unit: a uuid (its first group renumbered), or a
// place to insert the copy's tag.
type span struct {
	start, end int
	uuid       bool
}

// idSpans finds the ids of a unit, in order, without overlaps.
func idSpans(u []byte) []span {
	var spans []span
	for _, m := range uuidRe.FindAllIndex(u, -1) {
		spans = append(spans, span{start: m[0], end: m[0] + 8, uuid: true})
	}
	for _, m := range prefixRe.FindAllSubmatchIndex(u, -1) {
		if keyAfter.Match(u[m[3]:]) {
			continue
		}
		spans = append(spans, span{start: m[3], end: m[3]})
	}
	for _, m := range keyRe.FindAllSubmatchIndex(u, -1) {
		v := u[m[4]:m[5]]
		if uuidRe.Match(v) || prefixRe.Match(u[m[4]-1:m[5]]) {
			continue
		}
		at := m[4]
		if l := leadRe.Find(v); l != nil {
			at += len(l)
		}
		spans = append(spans, span{start: at, end: at})
	}
	sort.Slice(spans, func(i, j int) bool { return spans[i].start < spans[j].start })
	out := spans[:0]
	last := -1
	for _, s := range spans {
		if s.start > last || (s.start == last && s.end == s.start && len(out) > 0 && out[len(out)-1].start != s.start) {
			out = append(out, s)
			last = s.end
		}
	}
	return out
}

// writeRepeated writes at least size bytes of copies of u, each with its
// ids renumbered (a uuid's first group shifted by the copy number, a tag
// inserted after an id's prefix), so that no two copies share an id.
func writeRepeated(path string, u unit, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	spans := idSpans(u.text)
	var n int64
	var buf []byte
	for copyNum := uint32(0); n < size; copyNum++ {
		buf = renumber(buf[:0], u.text, spans, copyNum, 'z', 0)
		w.Write(buf)
		n += int64(len(buf))
	}
	if u.done {
		w.WriteString(doneMarker)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// renumber appends to dst text with the ids at spans made the n-th of
// their kind: the 8 hex digits at uuidAt in a uuid shifted by n, and n in
// base 36 with end after it inserted after an id's prefix. Copies of a
// unit are renumbered with uuidAt 0 (the first group); the recordings in
// a unit, which a scripted server may have given the same ids, with
// uuidAt 28 (the end of the last group), so the two never meet.
func renumber(dst, text []byte, spans []span, n uint32, end byte, uuidAt int) []byte {
	tag := append(strconv.AppendUint(nil, uint64(n), 36), end)
	prev := 0
	for _, s := range spans {
		if s.uuid {
			at := s.start + uuidAt
			dst = append(dst, text[prev:at]...)
			v, _ := strconv.ParseUint(string(text[at:at+8]), 16, 32)
			dst = fmt.Appendf(dst, "%08x", uint32(v)+n*0x9e3779b1)
			prev = at + 8
			continue
		}
		dst = append(dst, text[prev:s.start]...)
		dst = append(dst, tag...)
		prev = s.end
	}
	return append(dst, text[prev:]...)
}

// input is one format's input of one size and what the baselines read.
type input struct {
	src  source
	path string // the input
	json string // its JSON lines, for jq (the data: lines of an SSE input)
}

// makeInputs writes the inputs of mb MB into dir, of every format a row
// matching only reads.
func makeInputs(dir string, units map[string]unit, mb int, only *regexp.Regexp) (map[string]input, error) {
	inputs := map[string]input{}
	for _, s := range sources {
		if !slices.ContainsFunc(commands(nil, only), func(c command) bool { return c.from == s.name }) {
			continue
		}
		in := input{src: s, path: filepath.Join(dir, fmt.Sprintf("%s-%d.%s", s.name, mb, s.ext))}
		if err := writeRepeated(in.path, units[s.name], int64(mb)<<20); err != nil {
			return nil, err
		}
		in.json = in.path
		if s.sse {
			in.json = in.path + ".data.jsonl"
			if err := dataLines(in.path, in.json); err != nil {
				return nil, err
			}
		}
		inputs[s.name] = in
	}
	return inputs, nil
}

// dataLines writes the JSON of every data: line of the SSE file in to out,
// one a line ([DONE] left out).
func dataLines(in, out string) error {
	f, err := os.Open(in)
	if err != nil {
		return err
	}
	defer f.Close()
	o, err := os.Create(out)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(o, 1<<20)
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	for sc.Scan() {
		l, ok := bytes.CutPrefix(sc.Bytes(), []byte("data:"))
		l = bytes.TrimPrefix(l, []byte(" "))
		if ok && !bytes.Equal(l, []byte("[DONE]")) {
			w.Write(l)
			w.WriteByte('\n')
		}
	}
	if err := sc.Err(); err != nil {
		o.Close()
		return err
	}
	if err := w.Flush(); err != nil {
		o.Close()
		return err
	}
	return o.Close()
}

// command is one measured row.
type command struct {
	name string
	from string
	args []string
}

// commands returns the rows, grouped by the format read: every pair of
// the seven wire formats and assemble -o json of each, then each newer
// format into anthropic and assemble.
func commands(inputs map[string]input, only *regexp.Regexp) []command {
	var cs []command
	for _, from := range sources {
		in := inputs[from.name].path
		for _, to := range sources {
			if to.wire && (from.wire || to.name == "anthropic") {
				cs = append(cs, command{from.name + " -> " + to.name, from.name, []string{"convert", "--from", from.name, "--to", to.name, in}})
			}
		}
		cs = append(cs, command{from.name + " -> assemble -o json", from.name, []string{"assemble", "--from", from.name, "-o", "json", in}})
	}
	if only != nil {
		cs = slices.DeleteFunc(cs, func(c command) bool { return !only.MatchString(c.name) })
	}
	return cs
}

// sample is one run of one command.
type sample struct {
	cpu, wall float64
	rssKB     int64
	out       int64
	failed    bool
	exit      int // -1 when it did not start or was killed
}

// baselines are the baselines' runs on one input, per round.
type baselines struct{ jq, gojq, valid []sample }

func measureSize(o options, bin, dir string, t tools, units map[string]unit, mb int) error {
	inputs, err := makeInputs(dir, units, mb, o.only)
	if err != nil {
		return err
	}
	cs := commands(inputs, o.only)
	base := map[string]*baselines{}
	// The baselines of an input are measured in each round just before
	// its rows (commands groups them by input, in sources' order).
	rows := rounds(bin, cs, o.runs, 0, func(from string) {
		i := slices.IndexFunc(sources, func(s source) bool { return s.name == from })
		s, in := sources[i], inputs[from]
		b := base[from]
		if b == nil {
			b = &baselines{}
			base[from] = b
		}
		jqArgs := []string{"-c", "."}
		validArgs := []string{in.json}
		if s.xml {
			jqArgs = []string{"-R", "."}
			validArgs = []string{"-R", in.json}
		}
		b.jq = append(b.jq, measure("jq", append(jqArgs, in.json)...))
		if t.gojq != "" {
			b.gojq = append(b.gojq, measure(t.gojq, append(jqArgs, in.json)...))
		}
		b.valid = append(b.valid, measure(t.jsonvalid, validArgs...))
	})
	fmt.Printf("\n%d MB inputs (ratios: baseline CPU time ÷ row CPU time on the same input, median of %d rounds)\n", mb, o.runs)
	fmt.Printf("%-38s %7s %7s %8s %7s %7s %7s %8s\n", "row", "in MB", "out MB", "CPU MB/s", "× jq", "× gojq", "× valid", "peak RSS")
	var slowJQ, slowValid []string
	for _, s := range sources {
		b := base[s.name]
		if b == nil {
			continue
		}
		inMB := float64(fileSize(inputs[s.name].path)) / (1 << 20)
		for _, bl := range []struct {
			name string
			ss   []sample
		}{{"jq", b.jq}, {"gojq", b.gojq}, {"jsonvalid", b.valid}} {
			if len(bl.ss) > 0 {
				fmt.Printf("%-38s %7.1f %7s %8.1f %7s %7s %7s %5d MB\n", s.name+" baseline "+bl.name, inMB, "",
					inMB/median(bl.ss, func(x sample) float64 { return x.cpu }), "", "", "", maxRSS(bl.ss)>>10)
			}
		}
		for i, c := range cs {
			if c.from != s.name {
				continue
			}
			ss := rows[i]
			ratio := func(bs []sample) float64 {
				if len(bs) != len(ss) {
					return 0
				}
				rs := make([]float64, len(ss))
				for k := range ss {
					rs[k] = bs[k].cpu / ss[k].cpu
				}
				sort.Float64s(rs)
				return rs[len(rs)/2]
			}
			xjq, xgojq, xvalid := ratio(b.jq), ratio(b.gojq), ratio(b.valid)
			note := ""
			if slices.ContainsFunc(ss, func(x sample) bool { return x.failed }) {
				note = " (exit ≠ 0)"
			}
			fmt.Printf("%-38s %7.1f %7.1f %8.1f %7.2f %7.2f %7.2f %5d MB%s\n", c.name, inMB,
				float64(ss[0].out)/(1<<20), inMB/median(ss, func(x sample) float64 { return x.cpu }), xjq, xgojq, xvalid, maxRSS(ss)>>10, note)
			if xjq < 5 {
				slowJQ = append(slowJQ, fmt.Sprintf("%s %.2f", c.name, xjq))
			}
			if xvalid < 0.5 {
				slowValid = append(slowValid, fmt.Sprintf("%s %.2f", c.name, xvalid))
			}
		}
	}
	fmt.Printf("under 5× jq (%d of %d): %s\n", len(slowJQ), len(cs), strings.Join(slowJQ, ", "))
	fmt.Printf("under 0.5× jsonvalid (%d of %d): %s\n", len(slowValid), len(cs), strings.Join(slowValid, ", "))
	return nil
}

func median(ss []sample, f func(sample) float64) float64 {
	v := make([]float64, len(ss))
	for i, s := range ss {
		v[i] = f(s)
	}
	sort.Float64s(v)
	return v[len(v)/2]
}

func maxRSS(ss []sample) int64 {
	var m int64
	for _, s := range ss {
		m = max(m, s.rssKB)
	}
	return m
}

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// countingWriter counts the output it discards.
type countingWriter struct{ n int64 }

func (c *countingWriter) Write(p []byte) (int, error) { c.n += int64(len(p)); return len(p), nil }

// measure runs the command once, its output read through a pipe and
// discarded. A command that exits non-zero is measured all the same (real
// recordings carry errors; the table marks the row); one that cannot
// start gives a zero sample.
func measure(name string, args ...string) sample {
	return measureFor(0, name, args...)
}

// measureFor is measure with the command killed after limit (none if 0).
func measureFor(limit time.Duration, name string, args ...string) sample {
	ctx := context.Background()
	if limit > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, limit)
		defer cancel()
	}
	c := exec.CommandContext(ctx, name, args...)
	var out countingWriter
	c.Stdout, c.Stderr = &out, io.Discard
	start := time.Now()
	err := c.Run()
	s := sample{wall: time.Since(start).Seconds(), out: out.n, failed: err != nil, exit: -1}
	if c.ProcessState != nil {
		s.exit = c.ProcessState.ExitCode()
		s.cpu = (c.ProcessState.UserTime() + c.ProcessState.SystemTime()).Seconds()
		s.rssKB = peakRSSKB(c.ProcessState)
	}
	return s
}

func cpuModel() string {
	b, err := os.ReadFile("/proc/cpuinfo")
	if err != nil {
		return "unknown CPU"
	}
	for _, l := range strings.Split(string(b), "\n") {
		if k, v, ok := strings.Cut(l, ":"); ok && strings.TrimSpace(k) == "model name" {
			return strings.TrimSpace(v)
		}
	}
	return "unknown CPU"
}

func loadAvg() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "?"
	}
	f := strings.Fields(string(b))
	if len(f) < 3 {
		return "?"
	}
	return strings.Join(f[:3], " ")
}

func jqVersion() string {
	out, err := exec.Command("jq", "--version").Output()
	if err != nil {
		return "jq ?"
	}
	return strings.TrimSpace(string(out))
}

// latencyLines is how many deltas latency sends.
const latencyLines = 400

// latency feeds `convert --from claude --to jsonenv --framing ndjson`
// through a pipe one Claude delta line at a time, and measures how long
// each takes to come out as an envelope, the next line written only then.
func latency(bin string) error {
	c := exec.Command(bin, "convert", "--from", "claude", "--to", "jsonenv", "--framing", "ndjson")
	in, err := c.StdinPipe()
	if err != nil {
		return err
	}
	outPipe, err := c.StdoutPipe()
	if err != nil {
		return err
	}
	c.Stderr = io.Discard
	if err := c.Start(); err != nil {
		return err
	}
	out := bufio.NewReader(outPipe)
	head := `{"type":"stream_event","session_id":"s","event":{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[]}}}` + "\n" +
		`{"type":"stream_event","session_id":"s","event":{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}}` + "\n"
	if _, err := io.WriteString(in, head); err != nil {
		return err
	}
	waits := make([]time.Duration, 0, latencyLines)
	for i := range latencyLines {
		token := fmt.Sprintf("delta-%d ", i)
		line := `{"type":"stream_event","session_id":"s","event":{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"` + token + `"}}}` + "\n"
		start := time.Now()
		if _, err := io.WriteString(in, line); err != nil {
			return err
		}
		for {
			got, err := out.ReadString('\n')
			if err != nil {
				return fmt.Errorf("latency: delta %d never came out: %v", i, err)
			}
			if strings.Contains(got, token) {
				break
			}
		}
		waits = append(waits, time.Since(start))
	}
	in.Close()
	io.Copy(io.Discard, out)
	c.Wait()
	sort.Slice(waits, func(i, j int) bool { return waits[i] < waits[j] })
	pct := func(p int) time.Duration { return waits[len(waits)*p/100] }
	fmt.Printf("latency, line in to event out through pipes (%d deltas): p50 %v, p95 %v, max %v\n",
		latencyLines, pct(50).Round(time.Microsecond), pct(95).Round(time.Microsecond), waits[len(waits)-1].Round(time.Microsecond))
	return nil
}

// profile writes a CPU profile of the rows, each run o.runs times in
// process on inputs of the first size, to path. The garbage collector is set as the binary
// sets it (cmd.TuneGC), so that the profile weighs what the binary runs.
func profile(o options, path string) error {
	dir, err := os.MkdirTemp("", "agentstream-pgo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	units, err := loadUnits(o.corpus, o.testdata)
	if err != nil {
		return err
	}
	inputs, err := makeInputs(dir, units, o.sizes[0], o.only)
	if err != nil {
		return err
	}
	cmd.TuneGC(func(string) string { return "" })
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := pprof.StartCPUProfile(f); err != nil {
		f.Close()
		return err
	}
	cs := commands(inputs, o.only)
	for range o.runs {
		for _, c := range cs {
			// Exit codes are not checked: real recordings carry errors,
			// as measure allows.
			cmd.Run(context.Background(), c.args, &cmd.IOStreams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
		}
	}
	pprof.StopCPUProfile()
	return f.Close()
}
