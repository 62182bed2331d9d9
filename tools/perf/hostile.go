package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/agentstream/agentstream/convert"
)

// hostileLimitMB is the peak RSS issue 31 allows each command on the
// hostile inputs.
const hostileLimitMB = 64

// hostileTimeout is how long a command may run on a hostile input: one
// killed then shows exit -1.
const hostileTimeout = 5 * time.Minute

// hostileInput is one of the generated inputs of docs/limits.md ("Memory
// for many agents and many open calls").
type hostileInput struct {
	name, file, from string
	n                int                          // agents, calls or choices
	write            func(w *bufio.Writer, n int) // the input, of n of them
}

var hostileInputs = []hostileInput{
	{"a1m", "a1m.jsonl", "jsonenv", 1_000_000, func(w *bufio.Writer, n int) {
		// One text delta for each of 1,000,000 agents, no block ended.
		for i := range n {
			fmt.Fprintf(w, `{"type":"text","agent":"a%d","final":false,"delta":"x"}`+"\n", i)
		}
	}},
	{"calls1m", "calls1m.jsonl", "jsonenv", 1_000_000, func(w *bufio.Writer, n int) {
		// 1,000,000 tool calls of one agent that never get a result.
		for i := range n {
			fmt.Fprintf(w, `{"type":"tool_call","agent":"","final":true,"delta":"{}","id":"c%d","name":"Read"}`+"\n", i)
		}
	}},
	{"choices200k", "choices200k.sse", "openai-chat", 200_000, func(w *bufio.Writer, n int) {
		// One chat.completion.chunk with 200,000 choices.
		w.WriteString(`data: {"id":"chatcmpl-1","object":"chat.completion.chunk","created":1,"model":"m","choices":[`)
		for i := range n {
			if i > 0 {
				w.WriteByte(',')
			}
			fmt.Fprintf(w, `{"index":%d,"delta":{"content":"x"}}`, i)
		}
		w.WriteString("]}\n\ndata: [DONE]\n\n")
	}},
}

// hostileCommands are the commands run on each hostile input: convert to
// every format written, assemble in its three views, validate, verify (the
// input against itself) and usage.
func hostileCommands(in hostileInput, path string) []command {
	var cs []command
	for _, to := range convert.Names(false) {
		cs = append(cs, command{"convert --to " + to, in.from, []string{"convert", "--from", in.from, "--to", to, path}})
	}
	for _, view := range []string{"text", "json", "html"} {
		cs = append(cs, command{"assemble -o " + view, in.from, []string{"assemble", "--from", in.from, "-o", view, path}})
	}
	cs = append(cs,
		command{"validate", in.from, []string{"validate", "--from", in.from, path}},
		command{"verify (itself)", in.from, []string{"verify", "--from-a", in.from, "--from-b", in.from, path, path}},
		command{"usage", in.from, []string{"usage", "--from", in.from, path}},
	)
	return cs
}

// hostile writes the hostile inputs and prints to out, as a Markdown
// table, the peak RSS, CPU time and exit code of every command on each
// (the largest RSS and the median CPU of o.runs rounds), a row a command
// and a column an input, marking the cells over hostileLimitMB. Each cell
// is written to stderr once measured. Each input holds its n agents,
// calls or choices divided by scale (1 for the inputs of docs/limits.md;
// more for a quick look).
func hostile(o options, out io.Writer, scale int) error {
	bin, dir, cleanup, err := workDir(o, "agentstream-hostile-")
	if err != nil {
		return err
	}
	defer cleanup()
	fmt.Fprintf(out, "machine: %d CPUs, load %s; %d rounds (peak RSS the largest, CPU the median)\n\n", runtime.NumCPU(), loadAvg(), o.runs)
	var names, inputs []string // rows, columns
	cells := map[[2]string]string{}
	var over []string
	for _, in := range hostileInputs {
		path := filepath.Join(dir, in.file)
		cs := hostileCommands(in, path)
		if o.only != nil {
			cs = slices.DeleteFunc(cs, func(c command) bool { return !o.only.MatchString(in.name + " " + c.name) })
		}
		if len(cs) == 0 {
			continue
		}
		if err := writeHostile(path, in, max(in.n/max(scale, 1), 1)); err != nil {
			return err
		}
		inputs = append(inputs, in.file)
		rows := rounds(bin, cs, o.runs, hostileTimeout, nil)
		for i, c := range cs {
			ss := rows[i]
			rss := maxRSS(ss) >> 10
			mark := ""
			if rss > hostileLimitMB {
				mark = "**"
				over = append(over, in.name+" "+c.name)
			}
			var exits []string
			for _, s := range ss {
				if e := fmt.Sprint(s.exit); !slices.Contains(exits, e) {
					exits = append(exits, e)
				}
			}
			cell := fmt.Sprintf("%s%d MB%s, %.1f s, %s", mark, rss, mark, median(ss, func(s sample) float64 { return s.cpu }), strings.Join(exits, "/"))
			fmt.Fprintf(os.Stderr, "%s %s: %s\n", in.file, c.name, cell)
			if !slices.Contains(names, c.name) {
				names = append(names, c.name)
			}
			cells[[2]string{c.name, in.file}] = cell
		}
		if !o.keep {
			os.Remove(path)
		}
	}
	fmt.Fprintf(out, "| command |")
	for _, in := range inputs {
		fmt.Fprintf(out, " `%s` |", in)
	}
	fmt.Fprintf(out, "\n| --- |%s\n", strings.Repeat(" --- |", len(inputs)))
	for _, n := range names {
		fmt.Fprintf(out, "| `%s` |", n)
		for _, in := range inputs {
			fmt.Fprintf(out, " %s |", cells[[2]string{n, in}])
		}
		fmt.Fprintln(out)
	}
	fmt.Fprintf(out, "\npeak RSS, CPU time (user + system), exit code (-1: killed after %v); in bold over %d MB (%d): %s\n", hostileTimeout, hostileLimitMB, len(over), strings.Join(over, ", "))
	return nil
}

func writeHostile(path string, in hostileInput, n int) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	w := bufio.NewWriterSize(f, 1<<20)
	in.write(w, n)
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
