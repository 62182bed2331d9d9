// Package sessions finds the session logs the agent CLIs keep on disk:
// it expands a directory or a glob pattern into one input per session,
// oldest first, and opens the transcript of a subagent that a session log
// keeps in a file of its own.
//
// Layouts it knows: Claude Code's ~/.claude/projects/<project>/<session>.jsonl
// with each subagent's transcript in <session>/subagents/agent-<id>.jsonl,
// Codex's ~/.codex/sessions/YYYY/MM/DD/rollout-<time>-<thread id>.jsonl,
// where a subagent thread's rollout is one of them whose session_meta
// names its parent thread, and the recordings
// of this project's corpus, where a subagent's transcript of
// <run>.session.jsonl is <run>.session-<n>.jsonl beside it.
package sessions

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Filter selects sessions. The zero value selects every one.
type Filter struct {
	Since   time.Time // sessions still written at or after it
	Until   time.Time // sessions started at or before it
	Session string    // a session id, or a prefix of one
}

// IsZero reports whether f selects every session.
func (f *Filter) IsZero() bool {
	return f == nil || (f.Since.IsZero() && f.Until.IsZero() && f.Session == "")
}

// Expand returns the inputs names stand for. A directory (walked
// recursively) or a glob pattern stands for the session logs in it,
// each its own input, oldest first, subagent transcripts left out (they
// are read with their parent, see Subagents); f selects among them. Any
// other name (a file, "-", a URL) is returned as it is. A directory or
// pattern that holds no selected session is an error.
func Expand(names []string, f *Filter) ([]string, error) {
	var out []string
	for _, name := range names {
		paths, expanded, err := expand(name)
		if err != nil {
			return nil, err
		}
		if !expanded {
			out = append(out, name)
			continue
		}
		all := make([]log, 0, len(paths))
		ids := map[string]bool{}
		listed := make(map[string]bool, len(paths))
		for _, p := range paths {
			listed[p] = true
		}
		for _, p := range paths {
			if isSubagent(p, listed) {
				continue
			}
			l, err := head(p)
			if err != nil {
				return nil, err
			}
			all = append(all, l)
			for _, id := range l.ids {
				ids[id] = true
			}
		}
		logs := make([]log, 0, len(all))
		for _, l := range all {
			// A Codex subagent's rollout is read with its parent's when
			// that is here too.
			if (l.parent == "" || !ids[l.parent]) && f.match(&l) {
				logs = append(logs, l)
			}
		}
		if len(logs) == 0 {
			return nil, fmt.Errorf("%s: no session logs found", name)
		}
		slices.SortStableFunc(logs, func(a, b log) int {
			if c := a.start.Compare(b.start); c != 0 {
				return c
			}
			return strings.Compare(a.path, b.path)
		})
		for _, l := range logs {
			out = append(out, l.path)
		}
	}
	return out, nil
}

// expand lists the .jsonl files a directory or pattern stands for; false
// when name is neither.
func expand(name string) ([]string, bool, error) {
	if name == "-" || strings.Contains(name, "://") {
		return nil, false, nil
	}
	st, err := os.Stat(name)
	switch {
	case err == nil && st.IsDir():
		var paths []string
		err := filepath.WalkDir(name, func(p string, e fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !e.IsDir() && strings.HasSuffix(p, ".jsonl") {
				paths = append(paths, p)
			}
			return nil
		})
		return paths, true, err
	case err == nil || !strings.ContainsAny(name, "*?["):
		return nil, false, nil
	}
	matches, err := filepath.Glob(name)
	if err != nil {
		return nil, true, fmt.Errorf("%s: %w", name, err)
	}
	var paths []string
	for _, m := range matches {
		if st, err := os.Stat(m); err == nil && !st.IsDir() {
			paths = append(paths, m)
		}
	}
	return paths, true, nil
}

var corpusSubagent = regexp.MustCompile(`^(.*\.session)-[0-9]+\.jsonl$`)

// isSubagent reports whether path is a subagent's transcript: under a
// subagents directory, named agent-*.jsonl, or <run>.session-<n>.jsonl
// beside its <run>.session.jsonl.
func isSubagent(path string, all map[string]bool) bool {
	if filepath.Base(filepath.Dir(path)) == "subagents" || strings.HasPrefix(filepath.Base(path), "agent-") {
		return true
	}
	m := corpusSubagent.FindStringSubmatch(path)
	return m != nil && all[m[1]+".jsonl"]
}

// log is what Expand knows of one session log.
type log struct {
	path       string
	start, end time.Time
	ids        []string
	parent     string // the parent thread of a Codex subagent's rollout
}

// maxHead bounds what head reads of a log: its first lines.
const (
	maxHeadLines = 8
	maxHeadBytes = 1 << 20
)

// head reads the start time and session ids from the first lines of a
// log (the file's modification time when none says), and takes its end
// time from the modification time.
func head(path string) (log, error) {
	l := log{path: path, ids: []string{strings.TrimSuffix(filepath.Base(path), ".jsonl")}}
	f, err := os.Open(path)
	if err != nil {
		return l, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return l, err
	}
	l.end = st.ModTime()
	br := bufio.NewReader(io.LimitReader(f, maxHeadBytes))
	for range maxHeadLines {
		line, err := br.ReadBytes('\n')
		var h struct {
			Timestamp string `json:"timestamp"`
			SessionID string `json:"sessionId"`
			Payload   struct {
				ID     string          `json:"id"`
				Source json.RawMessage `json:"source"`
			} `json:"payload"`
		}
		if json.Unmarshal(bytes.TrimSpace(line), &h) == nil {
			if p := codexParent(h.Payload.Source); p != "" && l.parent == "" {
				l.parent = p
			}
			if t, perr := time.Parse(time.RFC3339Nano, h.Timestamp); perr == nil && l.start.IsZero() {
				l.start = t
			}
			for _, id := range []string{h.SessionID, h.Payload.ID} {
				if id != "" && !slices.Contains(l.ids, id) {
					l.ids = append(l.ids, id)
				}
			}
		}
		if err != nil {
			break
		}
	}
	if l.start.IsZero() {
		l.start = l.end
	}
	return l, nil
}

func (f *Filter) match(l *log) bool {
	if f.IsZero() {
		return true
	}
	if !f.Since.IsZero() && l.end.Before(f.Since) {
		return false
	}
	if !f.Until.IsZero() && l.start.After(f.Until) {
		return false
	}
	if f.Session == "" {
		return true
	}
	for _, id := range l.ids {
		if strings.HasPrefix(id, f.Session) || strings.HasSuffix(id, f.Session) {
			return true
		}
	}
	return false
}

// ParseTime reads a --since or --until value: an RFC 3339 time, a date
// (YYYY-MM-DD, UTC), or a duration before now ("36h", or days: "7d").
func ParseTime(s string, now time.Time) (time.Time, error) {
	if t, err := time.Parse(time.RFC3339Nano, s); err == nil {
		return t, nil
	}
	if t, err := time.Parse(time.DateOnly, s); err == nil {
		return t, nil
	}
	if d, err := time.ParseDuration(s); err == nil && d >= 0 {
		return now.Add(-d), nil
	}
	if n, ok := strings.CutSuffix(s, "d"); ok {
		if days, err := strconv.Atoi(n); err == nil && days >= 0 {
			return now.AddDate(0, 0, -days), nil
		}
	}
	return time.Time{}, fmt.Errorf("%q is not a time (RFC 3339, YYYY-MM-DD, or a duration such as 36h or 7d)", s)
}

// Subagents returns the opener of the subagent transcripts kept beside
// the session log path, or nil when path is not a file (standard input,
// a URL). The opener returns a nil reader when there is no transcript of
// that agent.
func Subagents(path string) func(agentID string) (io.ReadCloser, string, error) {
	if path == "-" || strings.Contains(path, "://") {
		return nil
	}
	if st, err := os.Stat(path); err != nil || st.IsDir() {
		return nil
	}
	base := strings.TrimSuffix(path, ".jsonl")
	return func(agentID string) (io.ReadCloser, string, error) {
		if agentID == "" || strings.ContainsAny(agentID, `/\`) {
			return nil, "", nil
		}
		for _, p := range []string{
			filepath.Join(base, "subagents", "agent-"+agentID+".jsonl"),
			filepath.Join(filepath.Dir(path), "subagents", "agent-"+agentID+".jsonl"),
			filepath.Join(filepath.Dir(path), "agent-"+agentID+".jsonl"),
		} {
			f, err := os.Open(p)
			if err == nil {
				return f, p, nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return nil, "", err
			}
		}
		// A directory is listed only for the layout that needs it: a
		// Claude Code project folder of thousands of logs is not listed
		// once per subagent.
		if strings.HasPrefix(filepath.Base(path), "rollout-") {
			if p := codexRollout(path, agentID); p != "" {
				f, err := os.Open(p)
				return f, p, err
			}
			return nil, "", nil
		}
		if !strings.HasSuffix(path, ".session.jsonl") {
			return nil, "", nil
		}
		// The corpus's layout: <run>.session-<n>.jsonl, whose lines carry
		// the agentId.
		siblings, _ := filepath.Glob(globEscape(base) + "-*.jsonl")
		for _, p := range siblings {
			if corpusSubagent.MatchString(p) && firstAgentID(p) == agentID {
				f, err := os.Open(p)
				return f, p, err
			}
		}
		return nil, "", nil
	}
}

// codexParent returns the parent thread a Codex session_meta's source
// names ({"subagent": {"thread_spawn": {"parent_thread_id": ...}}}), or "".
func codexParent(source json.RawMessage) string {
	var s struct {
		Subagent struct {
			ThreadSpawn struct {
				ParentThreadID string `json:"parent_thread_id"`
			} `json:"thread_spawn"`
		} `json:"subagent"`
	}
	if len(source) == 0 || source[0] != '{' || json.Unmarshal(source, &s) != nil {
		return ""
	}
	return s.Subagent.ThreadSpawn.ParentThreadID
}

var dayDir = regexp.MustCompile(`[/\\][0-9]{4}[/\\][0-9]{2}[/\\][0-9]{2}$`)

// codexRollout returns the rollout of Codex thread id that belongs with
// the rollout path: rollout-<time>-<id>.jsonl beside it, or in another
// day's directory of the same ~/.codex/sessions/YYYY/MM/DD tree (a
// subagent may outlive midnight). "" when there is none.
func codexRollout(path, id string) string {
	name := "rollout-*-" + globEscape(id) + ".jsonl"
	dir := filepath.Dir(path)
	patterns := []string{filepath.Join(globEscape(dir), name)}
	if dayDir.MatchString(dir) {
		root := filepath.Dir(filepath.Dir(filepath.Dir(dir)))
		patterns = append(patterns, filepath.Join(globEscape(root), "*", "*", "*", name))
	}
	for _, pat := range patterns {
		if m, _ := filepath.Glob(pat); len(m) > 0 {
			slices.Sort(m)
			return m[0]
		}
	}
	return ""
}

// firstAgentID returns the agentId of the first line of a transcript.
func firstAgentID(path string) string {
	f, err := os.Open(path)
	if err != nil {
		return ""
	}
	defer f.Close()
	line, _ := bufio.NewReader(io.LimitReader(f, maxHeadBytes)).ReadBytes('\n')
	var h struct {
		AgentID string `json:"agentId"`
	}
	json.Unmarshal(line, &h)
	return h.AgentID
}

// globEscape escapes the pattern characters of a path.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}
