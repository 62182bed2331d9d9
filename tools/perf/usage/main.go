// Command usage measures `agentstream usage` against ccusage, as
// `make perf` runs it: it grows a Claude Code projects tree and a Codex
// sessions tree of -mb MB each from the session logs in testdata/ (each
// copy of a log with new session, message and request ids and its lines
// dated later, Claude sessions with subagent folders, some sessions
// resumed in a new log that copies their history), runs
// `agentstream usage --by day --json` and `ccusage daily --json --offline`
// on each (HOME pointing at the tree, TZ=UTC) and prints one row per tree:
// the CPU time (user and system, all threads) of each, their ratio, and
// the two totals side by side. -runs N keeps the fastest of N runs.
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

func main() {
	bin := flag.String("bin", "bin/agentstream", "agentstream binary")
	ccusage := flag.String("ccusage", "", "ccusage's binary")
	testdata := flag.String("testdata", "testdata", "testdata directory holding claude-session/ and codex-session/")
	mb := flag.Int("mb", 200, "size of each tree in MB")
	runs := flag.Int("runs", 1, "runs per row; the fastest is reported")
	keep := flag.String("keep", "", "build the trees in this directory and keep them")
	flag.Parse()
	if err := run(*bin, *ccusage, *testdata, *mb, *runs, *keep); err != nil {
		fmt.Fprintln(os.Stderr, "usage:", err)
		os.Exit(1)
	}
}

func run(bin, ccusage, testdata string, mb, runs int, keep string) error {
	dir := keep
	if dir == "" {
		d, err := os.MkdirTemp("", "usageperf")
		if err != nil {
			return err
		}
		defer os.RemoveAll(d)
		dir = d
	}
	size := int64(mb) << 20
	claudeHome := filepath.Join(dir, "claude-home")
	codexHome := filepath.Join(dir, "codex-home")
	if _, err := os.Stat(codexHome); err == nil && keep != "" {
		fmt.Fprintf(os.Stderr, "usage: reusing the trees in %s\n", dir)
	} else {
		if err := growClaude(filepath.Join(testdata, "claude-session"), filepath.Join(claudeHome, ".claude", "projects"), size); err != nil {
			return err
		}
		if err := growCodex(filepath.Join(testdata, "codex-session"), filepath.Join(codexHome, ".codex", "sessions"), size); err != nil {
			return err
		}
	}
	fmt.Printf("| tree (%d MB) | agentstream CPU s | ccusage CPU s | ratio | agentstream in / out / cache w / cache r / $ | ccusage in / out / cache w / cache r / $ |\n", mb)
	fmt.Println("|---|---|---|---|---|---|")
	for _, tree := range []struct{ name, home string }{{"Claude Code", claudeHome}, {"Codex", codexHome}} {
		ours, oursCPU, err := best(runs, tree.home, bin, "usage", "--by", "day", "--json", "--timezone", "UTC")
		if err != nil {
			return err
		}
		theirs, theirsCPU, err := best(runs, tree.home, ccusage, "daily", "--json", "--offline")
		if err != nil {
			return err
		}
		a, err := ourTotals(ours)
		if err != nil {
			return err
		}
		b, err := ccusageTotals(theirs)
		if err != nil {
			return err
		}
		fmt.Printf("| %s | %.2f | %.2f | %.2f | %s | %s |\n", tree.name, oursCPU.Seconds(), theirsCPU.Seconds(),
			oursCPU.Seconds()/theirsCPU.Seconds(), a, b)
	}
	return nil
}

// best runs a command runs times and returns its output and its least CPU
// time.
func best(runs int, home, name string, args ...string) ([]byte, time.Duration, error) {
	var out []byte
	cpu := time.Duration(math.MaxInt64)
	for range max(runs, 1) {
		c := exec.Command(name, args...)
		c.Env = []string{"HOME=" + home, "TZ=UTC"}
		for _, e := range os.Environ() {
			if k, _, _ := strings.Cut(e, "="); k != "HOME" && k != "TZ" && k != "CLAUDE_CONFIG_DIR" && k != "CODEX_HOME" {
				c.Env = append(c.Env, e)
			}
		}
		var stdout, stderr bytes.Buffer
		c.Stdout, c.Stderr = &stdout, &stderr
		if err := c.Run(); err != nil {
			return nil, 0, fmt.Errorf("%s %s: %v: %s", name, strings.Join(args, " "), err, stderr.Bytes())
		}
		cpu = min(cpu, c.ProcessState.UserTime()+c.ProcessState.SystemTime())
		out = stdout.Bytes()
	}
	return out, cpu, nil
}

type totals struct {
	in, out, cacheWrite, cacheRead int64
	cost                           float64
}

func (t totals) String() string {
	return fmt.Sprintf("%d / %d / %d / %d / %.2f", t.in, t.out, t.cacheWrite, t.cacheRead, t.cost)
}

// ourTotals reads usage --json's total. Input is shown as ccusage shows
// it, without cache reads (for Codex, whose input count includes them,
// they are taken out).
func ourTotals(b []byte) (totals, error) {
	var r struct {
		Rows []struct {
			Models []string `json:"models"`
		} `json:"rows"`
		Total struct {
			In         int64    `json:"input_tokens"`
			Out        int64    `json:"output_tokens"`
			CacheWrite int64    `json:"cache_write_tokens"`
			CacheRead  int64    `json:"cache_read_tokens"`
			Cost       *float64 `json:"cost_usd"`
			Models     []string `json:"models"`
		} `json:"total"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return totals{}, err
	}
	t := totals{r.Total.In, r.Total.Out, r.Total.CacheWrite, r.Total.CacheRead, 0}
	if r.Total.Cost != nil {
		t.cost = *r.Total.Cost
	}
	for _, m := range r.Total.Models {
		if strings.HasPrefix(m, "gpt-") {
			t.in -= t.cacheRead // a Codex tree: its input count includes cache reads
			break
		}
	}
	return t, nil
}

func ccusageTotals(b []byte) (totals, error) {
	var r struct {
		Totals struct {
			In         int64   `json:"inputTokens"`
			Out        int64   `json:"outputTokens"`
			CacheWrite int64   `json:"cacheCreationTokens"`
			CacheRead  int64   `json:"cacheReadTokens"`
			Cost       float64 `json:"totalCost"`
		} `json:"totals"`
	}
	if err := json.Unmarshal(b, &r); err != nil {
		return totals{}, fmt.Errorf("ccusage: %v", err)
	}
	x := r.Totals
	return totals{x.In, x.Out, x.CacheWrite, x.CacheRead, x.Cost}, nil
}

// obj is a JSON object that keeps its keys in order, as the CLIs wrote
// them (readers may rely on the order to skip lines cheaply: the copies
// must be written alike).
type obj struct {
	keys []string
	vals map[string]any
}

func (o *obj) get(k string) any { return o.vals[k] }

func (o *obj) set(k string, v any) {
	if _, ok := o.vals[k]; !ok {
		o.keys = append(o.keys, k)
	}
	o.vals[k] = v
}

func (o *obj) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		b.Write(kb)
		b.WriteByte(':')
		vb, err := json.Marshal(o.vals[k])
		if err != nil {
			return nil, err
		}
		b.Write(vb)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// decodeOrdered decodes one JSON value, objects as *obj.
func decodeOrdered(d *json.Decoder) (any, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch t {
	case json.Delim('{'):
		o := &obj{vals: map[string]any{}}
		for d.More() {
			k, err := d.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeOrdered(d)
			if err != nil {
				return nil, err
			}
			o.set(k.(string), v)
		}
		_, err := d.Token()
		return o, err
	case json.Delim('['):
		var a []any
		for d.More() {
			v, err := decodeOrdered(d)
			if err != nil {
				return nil, err
			}
			a = append(a, v)
		}
		_, err := d.Token()
		return a, err
	}
	return t, nil
}

// readLog reads a log's lines as JSON objects.
func readLog(name string) ([]*obj, error) {
	data, err := os.ReadFile(name)
	if err != nil {
		return nil, err
	}
	var out []*obj
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		d := json.NewDecoder(bytes.NewReader(l))
		d.UseNumber()
		v, err := decodeOrdered(d)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		o, ok := v.(*obj)
		if !ok {
			return nil, fmt.Errorf("%s: a line that is no object", name)
		}
		out = append(out, o)
	}
	return out, nil
}

// readLogs reads the logs in src whose names match pattern, but for the
// truncated ones; what names them in the error when there are none.
func readLogs(src, pattern, what string) ([][]*obj, error) {
	names, err := filepath.Glob(filepath.Join(src, pattern))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no %s in %s", what, src)
	}
	var logs [][]*obj
	for _, n := range names {
		if strings.Contains(n, "truncated") {
			continue
		}
		l, err := readLog(n)
		if err != nil {
			return nil, err
		}
		logs = append(logs, l)
	}
	return logs, nil
}

// writeLog writes lines to the log name and adds its size to total.
func writeLog(name string, lines []*obj, total *int64) error {
	var buf bytes.Buffer
	for _, c := range lines {
		b, err := json.Marshal(c)
		if err != nil {
			return err
		}
		buf.Write(b)
		buf.WriteByte('\n')
	}
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		return err
	}
	*total += int64(buf.Len())
	return os.WriteFile(name, buf.Bytes(), 0o666)
}

// clone copies a JSON value deeply, renaming ids with the suffix sfx.
func clone(v any, sfx string) any {
	switch x := v.(type) {
	case *obj:
		m := &obj{keys: x.keys, vals: make(map[string]any, len(x.vals))}
		for k, e := range x.vals {
			switch s, _ := e.(string); {
			case (k == "id" || k == "requestId" || k == "uuid" || k == "parentUuid" || k == "tool_use_id" || k == "leafUuid") && s != "":
				m.vals[k] = s + sfx
			default:
				m.vals[k] = clone(e, sfx)
			}
		}
		return m
	case []any:
		s := make([]any, len(x))
		for i, e := range x {
			s[i] = clone(e, sfx)
		}
		return s
	}
	return v
}

// varyClaudeUsage gives a message's usage cache reads and writes, and
// sometimes more than 200,000 tokens of a kind, derived from its id (the
// lines of one message alike): the recordings have none, and the prices
// of those tokens are part of what the two programs must agree on.
func varyClaudeUsage(line *obj) {
	m, _ := line.get("message").(*obj)
	if m == nil {
		return
	}
	u, _ := m.get("usage").(*obj)
	id, _ := m.get("id").(string)
	if u == nil || id == "" || m.get("model") == "<synthetic>" {
		return // Claude Code's made-up API error messages count nothing
	}
	h := hash(id)
	u.set("cache_read_input_tokens", h%420000)
	w5m, w1h := (h/7)%60000, (h/17)%30000
	u.set("cache_creation_input_tokens", w5m+w1h)
	if b, _ := u.get("cache_creation").(*obj); b != nil {
		b.set("ephemeral_5m_input_tokens", w5m)
		b.set("ephemeral_1h_input_tokens", w1h)
	}
	u.set("input_tokens", 1+(h/13)%3000)
}

// varyCodexUsage gives a token count cached input and larger prompts.
func varyCodexUsage(u *obj, seed string) {
	h := hash(seed)
	in := 1000 + h%300000
	u.set("input_tokens", in)
	u.set("cached_input_tokens", (h/11)%in)
	if t, ok := u.vals["total_tokens"]; ok && t != nil {
		out, _ := u.get("output_tokens").(json.Number).Int64()
		u.set("total_tokens", in+out)
	}
}

func hash(s string) int64 {
	h := uint64(14695981039346656037)
	for i := 0; i < len(s); i++ {
		h ^= uint64(s[i])
		h *= 1099511628211
	}
	return int64(h >> 1)
}

var epoch = time.Date(2026, 1, 5, 8, 0, 0, 0, time.UTC)

// growClaude writes session logs under projects until size bytes: each
// session repeats a recorded log's turns with new ids, a minute apart,
// the subagent's transcript in the session's subagents folder; every
// tenth session is resumed in a log of its own that copies its history.
func growClaude(src, projects string, size int64) error {
	logs, err := readLogs(src, "claude-*.session.jsonl", "Claude session logs")
	if err != nil {
		return err
	}
	sub, err := readLog(filepath.Join(src, "claude-subagent.session-1.jsonl"))
	if err != nil {
		return err
	}
	var total int64
	for s := 0; total < size; s++ {
		session := fmt.Sprintf("5e55%04x-0000-4000-8000-%012x", s, s)
		project := fmt.Sprintf("-home-dev-project-%d", s%40)
		t := epoch.Add(time.Duration(s) * 37 * time.Minute)
		var hist []*obj
		turns := 20 + s%60
		for k := range turns {
			for _, l := range logs[(s+k)%len(logs)] {
				c := clone(l, fmt.Sprintf("_%d_%d", s, k)).(*obj)
				varyClaudeUsage(c)
				if c.get("sessionId") != nil {
					c.set("sessionId", session)
				}
				if c.get("timestamp") != nil {
					c.set("timestamp", t.Format("2006-01-02T15:04:05.000Z"))
				}
				t = t.Add(time.Second)
				hist = append(hist, c)
			}
			if k%7 == 3 {
				var lines []*obj
				for _, l := range sub {
					c := clone(l, fmt.Sprintf("_%d_%d_sub", s, k)).(*obj)
					c.set("sessionId", session)
					c.set("timestamp", t.Format("2006-01-02T15:04:05.000Z"))
					t = t.Add(time.Second)
					lines = append(lines, c)
				}
				if err := writeLog(filepath.Join(projects, project, session, "subagents", fmt.Sprintf("agent-a%d%d.jsonl", s, k)), lines, &total); err != nil {
					return err
				}
			}
		}
		if err := writeLog(filepath.Join(projects, project, session+".jsonl"), hist, &total); err != nil {
			return err
		}
		if s%10 == 9 {
			if err := writeLog(filepath.Join(projects, project, session+"-resumed.jsonl"), hist, &total); err != nil {
				return err
			}
		}
	}
	return nil
}

// growCodex writes rollouts under sessions until size bytes: each repeats
// a recorded rollout's turns with their token counts added up, a second
// per line.
func growCodex(src, sessions string, size int64) error {
	logs, err := readLogs(src, "codex-*.session.jsonl", "Codex rollouts")
	if err != nil {
		return err
	}
	var total int64
	for s := 0; total < size; s++ {
		thread := fmt.Sprintf("019a%04x-0000-7000-8000-%012x", s, s)
		t := epoch.Add(time.Duration(s) * 41 * time.Minute)
		name := filepath.Join(sessions, t.Format("2006/01/02"), "rollout-"+t.Format("2006-01-02T15-04-05")+"-"+thread+".jsonl")
		var lines []*obj
		sum := map[string]int64{}
		turns := 10 + s%40
		for k := range turns {
			for i, l := range logs[(s+k)%len(logs)] {
				if l.get("type") == "session_meta" && (k > 0 || i > 0) {
					continue
				}
				c := clone(l, fmt.Sprintf("_%d_%d", s, k)).(*obj)
				c.set("timestamp", t.Format("2006-01-02T15:04:05.000Z"))
				t = t.Add(time.Second)
				p, _ := c.get("payload").(*obj)
				if p == nil {
					p = &obj{vals: map[string]any{}}
				}
				if c.get("type") == "session_meta" {
					p.set("id", thread)
				}
				if info, _ := p.get("info").(*obj); c.get("type") == "event_msg" && p.get("type") == "token_count" && info != nil {
					last, _ := info.get("last_token_usage").(*obj)
					if last == nil {
						continue
					}
					varyCodexUsage(last, c.get("timestamp").(string)+thread)
					tot := &obj{vals: map[string]any{}}
					for _, k := range last.keys {
						var f int64
						switch v := last.vals[k].(type) {
						case json.Number:
							f, _ = v.Int64()
						case int64:
							f = v
						}
						sum[k] += f
						tot.set(k, sum[k])
					}
					info.set("total_token_usage", tot)
				}
				lines = append(lines, c)
			}
		}
		if err := writeLog(name, lines, &total); err != nil {
			return err
		}
	}
	return nil
}
