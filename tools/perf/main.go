// Command perf measures agentstream's throughput, as `make perf` runs
// it: it generates large inputs of every wire format from testdata/ in a
// temporary directory (the partial Claude recordings, and their conversion
// to each other format by the binary under test, repeated with their ids
// renumbered per copy up to the size), runs every convert pair
// among the five wire formats and `assemble -o json` on each, and prints
// one table per size: MB of input per second of wall time and per second
// of CPU time (user and system, all threads), the ratio of the latter to
// `jq -c .`'s on the Claude input of the same size, and peak RSS. The
// ratio uses CPU time because on a shared machine wall time mostly
// measures the neighbours; -runs N keeps the best of N runs.
//
// It uses public tools only: the binary, jq, and getrusage (through
// os/exec) for the peak RSS.
//
// With -pgo FILE it measures nothing: it runs the same commands on the
// inputs of the first size in process (cmd.Run, output discarded) under
// the CPU profiler and writes the profile to FILE, which `make pgo` makes
// the repository's default.pgo (profile-guided optimisation of the
// binary; docs/performance.md).
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
	"runtime"
	"runtime/pprof"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/agentstream/agentstream/cmd"
)

// formats are the five wire formats, in table order; ext is the input's
// file extension.
var formats = []struct{ name, ext string }{
	{"jsonenv", "sse"}, {"xml", "xml"}, {"claude", "jsonl"}, {"anthropic", "sse"}, {"codex", "jsonl"},
}

func main() {
	bin := flag.String("bin", "bin/agentstream", "agentstream binary to measure")
	testdata := flag.String("testdata", "testdata", "testdata directory holding claude/partial-*.jsonl")
	sizes := flag.String("sizes", "20,200", "input sizes in MB, comma separated")
	keep := flag.Bool("keep", false, "keep the temporary directory")
	runs := flag.Int("runs", 1, "runs per row; the fastest is reported")
	pgo := flag.String("pgo", "", "instead of measuring, write a CPU profile of every command, run in process on the inputs of the first size, to this file")
	flag.Parse()
	var err error
	if *pgo != "" {
		err = profile(*bin, *testdata, *sizes, *pgo)
	} else {
		err = run(*bin, *testdata, *sizes, *keep, *runs)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "perf:", err)
		os.Exit(1)
	}
}

func run(bin, testdata, sizeList string, keep bool, runs int) error {
	if _, err := exec.LookPath("jq"); err != nil {
		return fmt.Errorf("jq not found: install it (apt-get install -y jq)")
	}
	bin, err := filepath.Abs(bin)
	if err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "agentstream-perf-")
	if err != nil {
		return err
	}
	if keep {
		fmt.Fprintln(os.Stderr, "inputs in", dir)
	} else {
		defer os.RemoveAll(dir)
	}
	unit, err := claudeUnit(testdata)
	if err != nil {
		return err
	}
	fmt.Printf("machine: %d CPUs (%s), %s/%s, %s\n", runtime.NumCPU(), cpuModel(), runtime.GOOS, runtime.GOARCH, jqVersion())
	if err := latency(bin); err != nil {
		return err
	}
	for _, s := range strings.Split(sizeList, ",") {
		mb, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || mb <= 0 {
			return fmt.Errorf("bad size %q", s)
		}
		if err := measureSize(bin, dir, unit, mb, runs); err != nil {
			return err
		}
	}
	return nil
}

// claudeUnit returns the partial Claude recordings concatenated (but
// the error one, after which some encoders write nothing more): the unit
// the inputs repeat.
func claudeUnit(testdata string) ([]byte, error) {
	files, err := filepath.Glob(filepath.Join(testdata, "claude", "partial-*.jsonl"))
	if err != nil || len(files) == 0 {
		return nil, fmt.Errorf("no claude/partial-*.jsonl under %s", testdata)
	}
	sort.Strings(files)
	var unit []byte
	for _, f := range files {
		if strings.Contains(f, "error") {
			continue
		}
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		unit = append(unit, b...)
	}
	return unit, nil
}

// doneMarker ends a jsonenv or xml stream: the decoders stop at it, so
// the copies of a unit are written without it, and it comes once at the
// end.
const doneMarker = "data: [DONE]\n\n"

// writeRepeated writes at least size bytes of copies of unit, each with
// its message, tool and session ids renumbered so that no two copies
// share one (decoders recognise a message id seen before as a repeat).
func writeRepeated(path string, unit []byte, size int64) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	done := bytes.Contains(unit, []byte(doneMarker))
	u := strings.ReplaceAll(string(unit), doneMarker, "")
	var n int64
	for copyNum := 0; n < size; copyNum++ {
		tag := fmt.Sprintf("%d", copyNum)
		r := strings.NewReplacer(`"msg_`, `"msg_`+tag+`x`, `"toolu_`, `"toolu_`+tag+`x`,
			`"srvtoolu_`, `"srvtoolu_`+tag+`x`, `"session_id":"`, `"session_id":"`+tag+`x`,
			`"call_`, `"call_`+tag+`x`)
		m, err := r.WriteString(w, u)
		if err != nil {
			f.Close()
			return err
		}
		n += int64(m)
	}
	if done {
		w.WriteString(doneMarker)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type row struct {
	name    string
	inBytes int64
	secs    float64 // wall time
	cpu     float64 // user and system time
	rssKB   int64
}

// makeInputs writes the inputs of mb MB of every format into dir and
// returns their paths by format.
func makeInputs(bin, dir string, claude []byte, mb int) (map[string]string, error) {
	size := int64(mb) << 20
	inputs := map[string]string{}
	for _, f := range formats {
		u := claude
		if f.name != "claude" {
			var err error
			if u, err = convertUnit(bin, dir, claude, f.name); err != nil {
				return nil, err
			}
		}
		in := filepath.Join(dir, fmt.Sprintf("%s-%d.%s", f.name, mb, f.ext))
		if err := writeRepeated(in, u, size); err != nil {
			return nil, err
		}
		inputs[f.name] = in
	}
	return inputs, nil
}

// commands returns the commands measured on the inputs, in table order:
// every convert pair, then assemble -o json of each format.
func commands(inputs map[string]string) (names []string, args [][]string) {
	for _, from := range formats {
		for _, to := range formats {
			names = append(names, from.name+" -> "+to.name)
			args = append(args, []string{"convert", "--from", from.name, "--to", to.name, inputs[from.name]})
		}
	}
	for _, from := range formats {
		names = append(names, from.name+" -> assemble -o json")
		args = append(args, []string{"assemble", "--from", from.name, "-o", "json", inputs[from.name]})
	}
	return names, args
}

func measureSize(bin, dir string, claude []byte, mb, runs int) error {
	inputs, err := makeInputs(bin, dir, claude, mb)
	if err != nil {
		return err
	}
	claudeIn := inputs["claude"]

	jq, err := measure(runs, claudeIn, "jq", "-c", ".", claudeIn)
	if err != nil {
		return err
	}
	jq.name = "jq -c . (claude)"
	rows := []row{jq}
	names, args := commands(inputs)
	for i, a := range args {
		r, err := measure(runs, a[len(a)-1], bin, a...)
		if err != nil {
			return err
		}
		r.name = names[i]
		rows = append(rows, r)
	}
	jqRate := cpuRate(jq)
	fmt.Printf("\n%d MB inputs\n", mb)
	fmt.Printf("%-32s %8s %9s %8s %7s %9s\n", "pair", "MB", "wall MB/s", "CPU MB/s", "x jq", "peak RSS")
	for _, r := range rows {
		fmt.Printf("%-32s %8.1f %9.1f %8.1f %7.1f %6d MB\n", r.name, float64(r.inBytes)/(1<<20),
			float64(r.inBytes)/(1<<20)/r.secs, cpuRate(r), cpuRate(r)/jqRate, r.rssKB>>10)
	}
	return nil
}

// cpuRate is the throughput per second of CPU time (user and system, all
// threads): on a shared machine wall time mostly measures the neighbours.
func cpuRate(r row) float64 { return float64(r.inBytes) / (1 << 20) / r.cpu }

func fileSize(path string) int64 {
	fi, err := os.Stat(path)
	if err != nil {
		return 0
	}
	return fi.Size()
}

// convertUnit returns the Claude unit converted to format to.
func convertUnit(bin, dir string, unit []byte, to string) ([]byte, error) {
	in := filepath.Join(dir, "unit.jsonl")
	if err := os.WriteFile(in, unit, 0o644); err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "convert", "--from", "claude", "--to", to, in)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("making the %s input: %v: %s", to, err, firstLine(stderr.String()))
	}
	return out, nil
}

// measure runs the command runs times, its output read through a pipe
// and discarded, and returns the fastest run with the largest peak RSS
// seen. A command that exits non-zero is measured all the same (inputs
// made by conversion may carry warnings); one that cannot start is an
// error.
func measure(runs int, in, name string, args ...string) (row, error) {
	best := row{inBytes: fileSize(in)}
	for i := 0; i < runs; i++ {
		cmd := exec.Command(name, args...)
		cmd.Stdout, cmd.Stderr = io.Discard, io.Discard
		start := time.Now()
		err := cmd.Run()
		secs := time.Since(start).Seconds()
		if cmd.ProcessState == nil {
			return row{}, fmt.Errorf("%s: %v", name, err)
		}
		cpu := (cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime()).Seconds()
		if kb := peakRSSKB(cmd.ProcessState); kb > best.rssKB {
			best.rssKB = kb
		}
		if best.secs == 0 || secs < best.secs {
			best.secs = secs
		}
		if best.cpu == 0 || cpu < best.cpu {
			best.cpu = cpu
		}
	}
	return best, nil
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

func jqVersion() string {
	out, err := exec.Command("jq", "--version").Output()
	if err != nil {
		return "jq ?"
	}
	return strings.TrimSpace(string(out))
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}

// latencyLines is how many deltas latency sends.
const latencyLines = 400

// latency feeds `convert --from claude --to jsonenv --framing ndjson`
// through a pipe one Claude delta line at a time, and measures how long
// each takes to come out as an envelope, the next line written only then.
func latency(bin string) error {
	cmd := exec.Command(bin, "convert", "--from", "claude", "--to", "jsonenv", "--framing", "ndjson")
	in, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	outPipe, err := cmd.StdoutPipe()
	if err != nil {
		return err
	}
	cmd.Stderr = io.Discard
	if err := cmd.Start(); err != nil {
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
	cmd.Wait()
	sort.Slice(waits, func(i, j int) bool { return waits[i] < waits[j] })
	pct := func(p int) time.Duration { return waits[len(waits)*p/100] }
	fmt.Printf("latency, line in to event out through pipes (%d deltas): p50 %v, p95 %v, max %v\n",
		latencyLines, pct(50).Round(time.Microsecond), pct(95).Round(time.Microsecond), waits[len(waits)-1].Round(time.Microsecond))
	return nil
}

// pgoRounds is how many times profile runs every command: about 15 s of
// CPU on 20 MB inputs, some 1500 samples.
const pgoRounds = 3

// profile writes a CPU profile of every measured command, run in process
// on inputs of the first of sizeList's sizes, to path. The garbage
// collector is set as the binary sets it (cmd.TuneGC), so
// that the profile weighs what the binary runs.
func profile(bin, testdata, sizeList, path string) error {
	mb, err := strconv.Atoi(strings.TrimSpace(strings.Split(sizeList, ",")[0]))
	if err != nil || mb <= 0 {
		return fmt.Errorf("bad size %q", sizeList)
	}
	if bin, err = filepath.Abs(bin); err != nil {
		return err
	}
	dir, err := os.MkdirTemp("", "agentstream-pgo-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	unit, err := claudeUnit(testdata)
	if err != nil {
		return err
	}
	inputs, err := makeInputs(bin, dir, unit, mb)
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
	_, args := commands(inputs)
	for range pgoRounds {
		for _, a := range args {
			// Exit codes are not checked: inputs made by conversion may
			// carry warnings, as measure allows.
			cmd.Run(context.Background(), a, &cmd.IOStreams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard})
		}
	}
	pprof.StopCPUProfile()
	return f.Close()
}
