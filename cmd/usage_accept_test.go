package cmd

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

// The acceptance test of usage: a HOME built from the real session logs of
// ../shared/corpus/sessions/ (Claude Code projects with a subagent folder
// and its meta file, a resumed session that copies its history, a log
// copied into another project with a new modification time, Codex
// rollouts with a forked copy), their timestamps rewritten so that
// sessions cross midnight. The totals per day, per session and per model
// that usage prints must equal what the logs' own lines say, computed
// here from the raw JSON lines.

// sessionDirs hold the real session logs of the shared corpus's sessions/
// folder (copied unchanged), the subagent's meta file beside its log.
var sessionDirs = []string{"../testdata/claude-session", "../testdata/codex-session"}

// acceptTokens is a group's count, as the test computes it.
type acceptTokens struct {
	Messages                             int
	Input, Output, CacheWrite, CacheRead int64
}

func TestUsageAcceptance(t *testing.T) {
	home := t.TempDir()
	buildUsageTree(t, home)

	// What the lines say, from the raw JSON.
	wantDay, wantSession, wantModel := rawTotals(t, home)
	if len(wantDay) < 2 {
		t.Fatalf("the tree should cross midnight: days %v", wantDay)
	}

	for _, tt := range []struct {
		by   string
		want map[string]acceptTokens
		key  func(row map[string]any) string
	}{
		{"day", wantDay, func(r map[string]any) string { return r["key"].(string) }},
		{"session", wantSession, func(r map[string]any) string { return r["session"].(string) }},
		{"model", wantModel, func(r map[string]any) string { return r["key"].(string) }},
	} {
		t.Run(tt.by, func(t *testing.T) {
			var out, errb bytes.Buffer
			env := map[string]string{"HOME": home}
			ios := &IOStreams{In: strings.NewReader(""), Out: &out, Err: &errb, Getenv: func(k string) string { return env[k] }}
			if code := Run(t.Context(), []string{"usage", "--by", tt.by, "--json", "--timezone", "UTC"}, ios); code != 0 {
				t.Fatalf("exit %d: %s", code, errb.String())
			}
			var got struct {
				Rows []map[string]any `json:"rows"`
			}
			if err := json.Unmarshal(out.Bytes(), &got); err != nil {
				t.Fatal(err)
			}
			gotTotals := map[string]acceptTokens{}
			for _, r := range got.Rows {
				gotTotals[tt.key(r)] = acceptTokens{
					Messages: int(r["messages"].(float64)),
					Input:    int64(r["input_tokens"].(float64)), Output: int64(r["output_tokens"].(float64)),
					CacheWrite: int64(r["cache_write_tokens"].(float64)), CacheRead: int64(r["cache_read_tokens"].(float64)),
				}
			}
			if diff := cmp.Diff(tt.want, gotTotals); diff != "" {
				t.Errorf("usage --by %s (-want +got):\n%s", tt.by, diff)
			}
			if strings.Contains(errb.String(), "meta.json") {
				t.Errorf("stderr names Claude Code's own meta file:\n%s", errb.String())
			}
		})
	}
}

// buildUsageTree lays out home/.claude/projects and home/.codex/sessions.
func buildUsageTree(t *testing.T, home string) {
	t.Helper()
	var names []string
	for _, dir := range sessionDirs {
		found, err := filepath.Glob(filepath.Join(dir, "*-*.session.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range found {
			// The real runs only: not the hand-made or cut logs.
			if b := filepath.Base(n); !strings.HasPrefix(b, "hand-") && !strings.Contains(b, "truncated") {
				names = append(names, n)
			}
		}
	}
	if len(names) == 0 {
		t.Fatalf("no session logs in %v", sessionDirs)
	}
	projects := filepath.Join(home, ".claude", "projects")
	codex := filepath.Join(home, ".codex", "sessions", "2026", "11", "23")
	write := func(path string, lines []map[string]any) {
		t.Helper()
		var b bytes.Buffer
		for _, l := range lines {
			j, err := json.Marshal(l)
			if err != nil {
				t.Fatal(err)
			}
			b.Write(j)
			b.WriteByte('\n')
		}
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for i, name := range names {
		run := strings.TrimSuffix(filepath.Base(name), ".session.jsonl")
		// Each log starts a few minutes before midnight: its later
		// messages are on the next day.
		base := time.Date(2026, 11, 23, 23, 40+i, 0, 0, time.UTC)
		lines := readLines(t, name)
		switch {
		case strings.HasPrefix(run, "claude-"):
			restampClaude(lines, base)
			session, _ := lines[len(lines)-1]["sessionId"].(string)
			dir := filepath.Join(projects, "-home-dev-"+run)
			write(filepath.Join(dir, session+".jsonl"), lines)
			// The subagent's transcript in its folder, with Claude Code's
			// meta file beside it.
			if sub := filepath.Join(filepath.Dir(name), run+".session-1.jsonl"); fileExists(sub) {
				sl := readLines(t, sub)
				restampClaude(sl, base.Add(time.Minute))
				agent, _ := sl[0]["agentId"].(string)
				write(filepath.Join(dir, session, "subagents", "agent-"+agent+".jsonl"), sl)
				meta, err := os.ReadFile(filepath.Join(filepath.Dir(name), run+".session-2.meta.json"))
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(filepath.Join(dir, session, "subagents", "agent-"+agent+".meta.json"), meta, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if run == "claude-tooluse" {
				// Resumed: a new session whose log copies the history and
				// goes on with a message of its own, the next day.
				resumed := slices.Clone(lines)
				resumed = append(resumed, map[string]any{
					"type": "assistant", "sessionId": "resumed-session", "requestId": "req_resumed",
					"timestamp": base.Add(26 * time.Hour).Format(time.RFC3339Nano),
					"message": map[string]any{
						"id": "msg_resumed", "model": "claude-opus-4-8[1m]", "role": "assistant",
						"content": []any{map[string]any{"type": "text", "text": "again"}},
						"usage":   map[string]any{"input_tokens": 7, "output_tokens": 3, "cache_read_input_tokens": 100, "cache_creation_input_tokens": 20},
					},
				})
				write(filepath.Join(dir, "resumed-session.jsonl"), resumed)
				// Copied into another project (a synced tree), with a new
				// modification time.
				cp := filepath.Join(projects, "-home-dev-copy", session+".jsonl")
				write(cp, lines)
				old := time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)
				if err := os.Chtimes(cp, old, old); err != nil {
					t.Fatal(err)
				}
			}
		case strings.HasPrefix(run, "codex-"):
			restampCodex(lines, base)
			id, _ := lines[0]["payload"].(map[string]any)["id"].(string)
			write(filepath.Join(codex, "rollout-2026-11-23T23-40-00-"+id+".jsonl"), lines)
			if run == "codex-multi-shell" {
				// A fork: a new thread whose rollout copies the history.
				fork := slices.Clone(lines)
				meta := map[string]any{}
				for k, v := range lines[0]["payload"].(map[string]any) {
					meta[k] = v
				}
				meta["id"] = "fork-thread"
				fork[0] = map[string]any{"timestamp": lines[0]["timestamp"], "type": "session_meta", "payload": meta}
				write(filepath.Join(codex, "rollout-2026-11-24T00-10-00-fork-thread.jsonl"), fork)
			}
		}
	}
}

func fileExists(name string) bool {
	_, err := os.Stat(name)
	return err == nil
}

func readLines(t *testing.T, name string) []map[string]any {
	t.Helper()
	data, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	var out []map[string]any
	for _, l := range bytes.Split(data, []byte("\n")) {
		if len(bytes.TrimSpace(l)) == 0 {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal(l, &m); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, m)
	}
	return out
}

// restampClaude dates the k-th message of a log 9 minutes after the one
// before it (the lines of one message alike), from base.
func restampClaude(lines []map[string]any, base time.Time) {
	index := map[string]int{}
	for _, l := range lines {
		ts := base
		if m, ok := l["message"].(map[string]any); ok {
			if id, ok := m["id"].(string); ok {
				if _, seen := index[id]; !seen {
					index[id] = len(index) + 1
				}
				ts = base.Add(time.Duration(index[id]) * 9 * time.Minute)
			}
		}
		if _, ok := l["timestamp"]; ok {
			l["timestamp"] = ts.Format(time.RFC3339Nano)
		}
	}
}

// restampCodex dates the k-th token count of a rollout 9 minutes after
// the one before it, from base.
func restampCodex(lines []map[string]any, base time.Time) {
	k := 0
	for _, l := range lines {
		ts := base
		if p, ok := l["payload"].(map[string]any); ok && l["type"] == "event_msg" && p["type"] == "token_count" {
			k++
			ts = base.Add(time.Duration(k) * 9 * time.Minute)
		}
		l["timestamp"] = ts.Format(time.RFC3339Nano)
	}
}

// rawTotals reads every log under home, in the order usage reads them
// (Claude's projects, then Codex's sessions, each in lexical order), and
// counts each call once: a Claude message by its message id and request
// id (the main agent's copy over a sidechain's, else the one with more
// tokens), a Codex token count by its timestamp and totals.
func rawTotals(t *testing.T, home string) (day, session, model map[string]acceptTokens) {
	t.Helper()
	type call struct {
		day, session, model string
		sidechain           bool
		tok                 acceptTokens
	}
	var calls []call
	byKey := map[string]int{}
	add := func(key string, c call) {
		if i, ok := byKey[key]; ok && key != "" {
			old := &calls[i]
			total := func(x acceptTokens) int64 { return x.Input + x.Output + x.CacheWrite + x.CacheRead }
			if (old.sidechain && !c.sidechain) || (old.sidechain == c.sidechain && total(c.tok) > total(old.tok)) {
				*old = c
			}
			return
		}
		byKey[key] = len(calls)
		calls = append(calls, c)
	}
	num := func(m map[string]any, k string) int64 {
		v, _ := m[k].(float64)
		return int64(v)
	}
	walk := func(root string, fn func(path string)) {
		err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() && strings.HasSuffix(p, ".jsonl") {
				fn(p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	walk(filepath.Join(home, ".claude", "projects"), func(p string) {
		for _, l := range readLines(t, p) {
			m, _ := l["message"].(map[string]any)
			u, _ := m["usage"].(map[string]any)
			if l["type"] != "assistant" || u == nil {
				continue
			}
			ts, err := time.Parse(time.RFC3339Nano, l["timestamp"].(string))
			if err != nil {
				t.Fatal(err)
			}
			c := call{day: ts.UTC().Format(time.DateOnly), session: l["sessionId"].(string), sidechain: l["isSidechain"] == true}
			c.model, _ = m["model"].(string)
			c.model, _, _ = strings.Cut(c.model, "[")
			c.tok = acceptTokens{1, num(u, "input_tokens"), num(u, "output_tokens"), num(u, "cache_creation_input_tokens"), num(u, "cache_read_input_tokens")}
			if c.model == "<synthetic>" {
				if c.tok == (acceptTokens{Messages: 1}) {
					continue
				}
				c.model = "(no model)"
			}
			key := ""
			if id, _ := m["id"].(string); id != "" {
				req, _ := l["requestId"].(string)
				key = "claude " + id + " " + req
			}
			add(key, c)
		}
	})
	walk(filepath.Join(home, ".codex", "sessions"), func(p string) {
		thread, mdl := "", ""
		for _, l := range readLines(t, p) {
			pl, _ := l["payload"].(map[string]any)
			switch {
			case l["type"] == "session_meta":
				thread, _ = pl["id"].(string)
			case l["type"] == "turn_context":
				mdl, _ = pl["model"].(string)
			case l["type"] == "event_msg" && pl["type"] == "token_count":
				info, _ := pl["info"].(map[string]any)
				if info == nil {
					continue // a token count of rate limits only
				}
				last, _ := info["last_token_usage"].(map[string]any)
				if last == nil {
					t.Fatalf("%s: a token count without last_token_usage: the test does not compute those", p)
				}
				tok := acceptTokens{1, num(last, "input_tokens"), num(last, "output_tokens"), num(last, "cache_write_input_tokens"), num(last, "cached_input_tokens")}
				if tok == (acceptTokens{Messages: 1}) && num(last, "reasoning_output_tokens") == 0 {
					continue
				}
				ts, err := time.Parse(time.RFC3339Nano, l["timestamp"].(string))
				if err != nil {
					t.Fatal(err)
				}
				total, _ := json.Marshal(info["total_token_usage"])
				add(fmt.Sprintf("codex %s %s", l["timestamp"], total), call{
					day: ts.UTC().Format(time.DateOnly), session: thread, model: mdl, tok: tok,
				})
			}
		}
	})
	day, session, model = map[string]acceptTokens{}, map[string]acceptTokens{}, map[string]acceptTokens{}
	for _, c := range calls {
		for _, g := range []struct {
			m map[string]acceptTokens
			k string
		}{{day, c.day}, {session, c.session}, {model, c.model}} {
			a := g.m[g.k]
			a.Messages++
			a.Input += c.tok.Input
			a.Output += c.tok.Output
			a.CacheWrite += c.tok.CacheWrite
			a.CacheRead += c.tok.CacheRead
			g.m[g.k] = a
		}
	}
	return day, session, model
}
