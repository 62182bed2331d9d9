package sessions

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// An agent CLI and where it keeps its session logs: one entry of the
// table DefaultPlaces reads.
type agentLogs struct {
	cli    string // the agent CLI
	format string // the format its logs are in (a name of convert's table)
	// roots returns the directories its logs are under, given the
	// environment and the home directory.
	roots func(getenv func(string) string, home string) []string
	// log reports whether a file, by its path below its root, is one of
	// its session logs (the CLIs keep other files there too).
	log func(rel string) bool
	// own are patterns (path.Match, of a file's name) of the files the
	// CLI keeps beside its logs that are no agent streams.
	own []string
}

var agents = []agentLogs{
	{
		cli: "claude", format: "claude-session",
		roots: func(getenv func(string) string, home string) []string {
			if v := getenv("CLAUDE_CONFIG_DIR"); v != "" {
				var out []string
				for _, d := range strings.Split(v, ",") {
					if d = strings.TrimSpace(d); d != "" {
						if filepath.Base(d) != "projects" {
							d = filepath.Join(d, "projects")
						}
						out = append(out, d)
					}
				}
				return out
			}
			return []string{filepath.Join(home, ".config", "claude", "projects"), filepath.Join(home, ".claude", "projects")}
		},
		// <project>/<session>.jsonl and <project>/<session>/subagents/agent-<id>.jsonl
		log: func(rel string) bool { return strings.HasSuffix(rel, ".jsonl") },
		own: []string{"agent-*.meta.json"},
	},
	{
		cli: "codex", format: "codex-session",
		roots: func(getenv func(string) string, home string) []string {
			if v := getenv("CODEX_HOME"); v != "" {
				return []string{filepath.Join(v, "sessions")}
			}
			return []string{filepath.Join(home, ".codex", "sessions")}
		},
		// YYYY/MM/DD/rollout-<time>-<thread id>.jsonl
		log: func(rel string) bool {
			b := filepath.Base(rel)
			return strings.HasPrefix(b, "rollout-") && strings.HasSuffix(b, ".jsonl")
		},
	},
	{
		cli: "gemini", format: "gemini-session",
		roots: func(_ func(string) string, home string) []string {
			return []string{filepath.Join(home, ".gemini", "tmp")}
		},
		// <project>/chats/session-*.jsonl
		log: func(rel string) bool {
			b := filepath.Base(rel)
			return filepath.Base(filepath.Dir(rel)) == "chats" && strings.HasPrefix(b, "session-") && strings.HasSuffix(b, ".jsonl")
		},
		own: []string{"logs.json"},
	},
}

// CLIs returns the names of the agent CLIs whose logs are found by
// default (usage --cli), in the order they are looked for.
func CLIs() []string {
	out := make([]string, 0, len(agents))
	for _, a := range agents {
		out = append(out, a.cli)
	}
	return out
}

// IsOwnFile reports whether a file is one an agent CLI keeps beside its
// session logs that is no agent stream (Claude Code's agent-*.meta.json):
// commands walking a directory skip those without a word.
func IsOwnFile(name string) bool {
	base := filepath.Base(name)
	for _, a := range agents {
		for _, p := range a.own {
			if ok, _ := filepath.Match(p, base); ok {
				return true
			}
		}
	}
	return false
}

// Place is a directory an agent CLI keeps its session logs in.
type Place struct {
	CLI    string
	Format string
	Dir    string
}

// DefaultPlaces returns the directories of the agent CLIs' session logs
// that exist: Claude Code's (each of CLAUDE_CONFIG_DIR's comma-separated
// directories' projects/, else ~/.config/claude/projects and
// ~/.claude/projects), Codex's (CODEX_HOME's sessions/, else
// ~/.codex/sessions) and Gemini CLI's (~/.gemini/tmp). has reports
// whether a format can be read: an agent whose format cannot is left out.
func DefaultPlaces(getenv func(string) string, home string, has func(format string) bool) []Place {
	var out []Place
	seen := map[string]bool{}
	for _, a := range agents {
		if !has(a.format) {
			continue
		}
		for _, d := range a.roots(getenv, home) {
			if seen[d] {
				continue
			}
			if st, err := os.Stat(d); err == nil && st.IsDir() {
				seen[d] = true
				out = append(out, Place{CLI: a.cli, Format: a.format, Dir: d})
			}
		}
	}
	return out
}

// Log is a session log found in a place.
type Log struct {
	Path    string
	CLI     string
	Format  string
	Project string // the project it belongs to, as the CLI names it
}

// Logs walks a place and returns its session logs, in lexical order.
// Files the CLI keeps there that are no session logs (Claude Code's
// agent-*.meta.json, say) are left out without a word.
func (p Place) Logs() ([]Log, error) {
	var a *agentLogs
	for i := range agents {
		if agents[i].cli == p.CLI {
			a = &agents[i]
		}
	}
	var out []Log
	err := filepath.WalkDir(p.Dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == p.Dir {
				return err
			}
			return nil // a directory that went away or cannot be read
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, _ := filepath.Rel(p.Dir, path)
		if a == nil || !a.log(rel) {
			return nil
		}
		out = append(out, Log{Path: path, CLI: p.CLI, Format: p.Format, Project: project(p.CLI, rel)})
		return nil
	})
	return out, err
}

// project names the project of a log by its path below its place:
// Claude Code's and Gemini CLI's project folder; "" for Codex, whose
// rollouts say their working directory instead.
func project(cli, rel string) string {
	if cli == "codex" {
		return ""
	}
	first, _, found := strings.Cut(filepath.ToSlash(rel), "/")
	if !found {
		return ""
	}
	return first
}
