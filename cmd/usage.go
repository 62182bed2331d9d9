package cmd

import (
	"bufio"
	"cmp"
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode/utf8"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/claudesession"
	"github.com/agentstream/agentstream/parse/codexsession"
	"github.com/agentstream/agentstream/render"
	"github.com/agentstream/agentstream/source"
	"github.com/agentstream/agentstream/source/sessions"
	"github.com/agentstream/agentstream/usage"
)

type usageOptions struct {
	in     inputOptions
	filter usageFilter
	by     string
	json   bool
	csv    bool
	prices string
	follow followOptions
	gc     *usageGC // nil: the user's GOGC or GOMEMLIMIT hold
}

// usageFilter selects the model calls counted; its flags are those of
// usage and sessions.
type usageFilter struct {
	agent, project, cli, timezone string
}

func addUsageFilterFlags(fs *pflag.FlagSet, f *usageFilter) {
	// The input flags' --since, --until and --session select model calls
	// here, by their own times, whatever the input.
	for name, usage := range map[string]string{
		"since":   "calls at or after this time (YYYY-MM-DD: from the start of that day in --timezone; RFC 3339; or a duration ago such as 36h or 7d)",
		"until":   "calls before the end of this time (YYYY-MM-DD: the whole day in --timezone; as --since)",
		"session": "calls of the sessions whose id starts or ends with this",
	} {
		if fl := fs.Lookup(name); fl != nil {
			fl.Usage = usage
		}
	}
	fs.StringVar(&f.agent, "agent", "all", "agents counted: all, main, or an agent id (or id prefix), as on assemble")
	fs.StringVar(&f.project, "project", "", "only this project (as the PROJECT column shows it)")
	fs.StringVar(&f.cli, "cli", "", "only the logs of this agent CLI: claude, codex, gemini (or an input format name)")
	fs.StringVar(&f.timezone, "timezone", "", "time zone days, weeks, months and --since/--until dates are in (IANA name; default local)")
}

func newUsageCmd(ios *IOStreams) *cobra.Command {
	o := &usageOptions{}
	c := &cobra.Command{
		Use:   "usage [INPUT...]",
		Short: "Count the tokens and the cost of agent runs",
		Long: `Usage reads each INPUT (files, globs, directories walked recursively, - for
stdin, URLs), in any format, and prints the tokens and the cost of the model
calls in them, grouped --by day, week, month, session, model, block (5-hour
billing windows), agent or run (each input): by day with no INPUT, by run
otherwise.

With no INPUT it reads the session logs the agent CLIs keep: Claude Code's
(CLAUDE_CONFIG_DIR, comma-separated, else ~/.config/claude and ~/.claude),
Codex's (CODEX_HOME, else ~/.codex) and Gemini CLI's (~/.gemini/tmp), and says
on stderr which it read.

Each model call is counted once across everything read (a message id and
request id seen again, in a resumed session's copy or a subagent's
transcript, is the same call), dated by its own line's timestamp, with input,
output, cache write, cache read and reasoning apart. The cost is the input's
own where it reports one, otherwise it is priced from LiteLLM's price table
embedded in the binary, or from --prices FILE. A model without a price is
listed as unpriced, never counted as free. docs/usage.md says where each
number comes from.

In a directory, files that hold no agent stream are skipped with a note.`,
		Example: `  agentstream usage
  agentstream usage --by month --since 2026-01-01
  agentstream usage --by model ~/.claude/projects/
  agentstream usage --by session --project -home-me-src-app --json
  agentstream usage --by day --csv runs/ > usage.csv
  agentstream usage --prices my-prices.json --json run.jsonl`,
		Args: usageArgs(cobra.ArbitraryArgs),
		RunE: func(c *cobra.Command, args []string) error {
			return runUsage(c.Context(), ios, o, args)
		},
	}
	fs := c.Flags()
	addInputFlags(fs, &o.in)
	addUsageFilterFlags(fs, &o.filter)
	fs.StringVar(&o.by, "by", "", "group by "+strings.Join(usage.Groupings, ", ")+" (default: day with no INPUT, else run)")
	fs.BoolVar(&o.json, "json", false, "write the rows as JSON")
	fs.BoolVar(&o.csv, "csv", false, "write the rows as CSV")
	fs.StringVar(&o.prices, "prices", "", "price table to use instead of the embedded one (LiteLLM's JSON form, docs/usage.md)")
	o.in.follow = &o.follow
	addFollowFlags(fs, &o.follow)
	return c
}

// usageInput is one input to read; walked: found in a directory, where a
// file that is no agent stream is skipped.
type usageInput struct {
	name    string
	walked  bool
	shown   string // the name rows show ("" for name)
	cli     string // the agent CLI of a default place's log
	format  string // the format of a default place's log
	project string
}

// expandInputs turns the command line's inputs into the files to read:
// directories walked in lexical order (hidden directories, such as .git,
// skipped), globs the shell left alone expanded. With no inputs, the
// agent CLIs' default places are read (usagePlaces).
func expandInputs(args []string) ([]usageInput, error) {
	var out []usageInput
	walk := func(dir string) error {
		return filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && p != dir && strings.HasPrefix(d.Name(), ".") {
				return filepath.SkipDir
			}
			if d.Type().IsRegular() {
				out = append(out, usageInput{name: p, walked: true})
			}
			return nil
		})
	}
	for _, a := range args {
		if a == "-" || source.IsURL(a) {
			out = append(out, usageInput{name: a})
			continue
		}
		names := []string{a}
		if _, err := os.Stat(a); err != nil && strings.ContainsAny(a, "*?[") {
			m, gerr := filepath.Glob(a)
			if gerr != nil {
				return nil, fmt.Errorf("%s: %w", a, gerr)
			}
			if len(m) == 0 {
				return nil, fmt.Errorf("%s: no file matches", a)
			}
			names = m
		}
		for _, n := range names {
			if st, err := os.Stat(n); err == nil && st.IsDir() {
				if err := walk(n); err != nil {
					return nil, err
				}
				continue
			}
			out = append(out, usageInput{name: n})
		}
	}
	return out, nil
}

// usagePlaces lists the session logs of the agent CLIs' default places
// and says on stderr which places were read.
func usagePlaces(ios *IOStreams, rep *reporter) ([]usageInput, error) {
	getenv := ios.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	home := getenv("HOME")
	if home == "" {
		home, _ = os.UserHomeDir()
	}
	has := func(name string) bool { _, ok := convert.Lookup(name); return ok }
	places := sessions.DefaultPlaces(getenv, home, has)
	if len(places) == 0 {
		return nil, errors.New("no input given and no agent CLI session logs in the default places (~/.claude/projects, ~/.config/claude/projects, CLAUDE_CONFIG_DIR, ~/.codex/sessions, CODEX_HOME, ~/.gemini/tmp)")
	}
	var out []usageInput
	for _, p := range places {
		logs, err := p.Logs()
		if err != nil {
			return nil, err
		}
		rep.note("reading %s session logs in %s (%d files)", p.CLI, p.Dir, len(logs))
		for _, l := range logs {
			rel, _ := filepath.Rel(p.Dir, l.Path)
			out = append(out, usageInput{name: l.Path, walked: true, shown: filepath.ToSlash(rel), cli: l.CLI, format: l.Format, project: l.Project})
		}
	}
	return out, nil
}

// cliOf names the agent CLI of an input format.
func cliOf(formatName string) string {
	switch formatName {
	case "claude", "claude-session":
		return "claude"
	case "codex", "codex-session":
		return "codex"
	case "gemini", "gemini-session":
		return "gemini"
	}
	return formatName
}

// claudeProject names the project of a Claude Code session log by its
// path: the folder under projects/, else the folder it is in.
func claudeProject(path string) string {
	parts := strings.Split(filepath.ToSlash(filepath.Clean(path)), "/")
	for i := len(parts) - 2; i >= 0; i-- {
		if parts[i] == "projects" && i+2 < len(parts) {
			return parts[i+1]
		}
	}
	if len(parts) >= 2 {
		return parts[len(parts)-2]
	}
	return ""
}

// readUsage reads the inputs' model calls into a ledger, which hands
// each call to sink once it is final (usage.NewWindow): the session logs
// (claude-session, codex-session) by a pool of workers, one per CPU, that
// read their usage lines alone; every other input, in order, as events.
func readUsage(ctx context.Context, ios *IOStreams, o *usageOptions, inputs []usageInput, rep *reporter, sink func(*usage.Entry)) (*usage.Ledger, bool, error) {
	led := usage.NewWindow(usage.Window, usage.MaxForgotten, sink)
	failed := false
	in := o.in
	in.sessions = sessionOptions{} // --since/--until/--session select calls, not files
	prog := newProgress(ios, len(inputs))
	defer prog.finish()
	rollouts := &rolloutModels{ios: ios}
	results, window := readSessionLogs(ctx, o, inputs, prog)
	for i, ui := range inputs {
		res := <-results[i]
		<-window
		if res.read {
			if res.err != nil {
				if !rep.problem(named(ui.name, res.err)) {
					return nil, false, errStrictStop
				}
			}
			led.Merge(res.calls)
			o.gc.hold(held(led))
			continue
		}
		shown := cmp.Or(ui.shown, ui.name)
		err := eachInput(ctx, ios, &in, rep, []string{ui.name}, func(inp *input) error {
			cli := cmp.Or(ui.cli, cliOf(inp.format.Name))
			if r := sessionReader(inp.format.Name); r != nil {
				file := usage.NewLedger()
				err := r(inp.r, ui, shown, cli, file)
				led.Merge(file)
				o.gc.hold(held(led))
				if err != nil && !rep.problem(named(ui.name, err)) {
					return errStrictStop
				}
				return nil
			}
			c := usage.NewCounter()
			stop := eachEvent(inp.decoder(), rep, func(ev event.Event) error {
				c.Add(ev)
				o.gc.hold(held(led) + c.Len())
				return nil
			})
			if n := c.Forgotten(); n > 0 {
				rep.note("%s: more than %d turns open at once: forgot the model of %d opened longest ago (their usage counts under their agent's model)", shown, usage.MaxOpenTurns, n)
			}
			r := c.Run()
			r.Name = shown
			// An input without a single event is no run (an empty file).
			if r.Events > 0 {
				for _, e := range usage.RunEntries(&r, cli) {
					e.Project = ui.project // a default place's log (Gemini's) names its project by its folder
					if e.Model == "" && cli == "codex" && r.Session != "" {
						// Codex's stdout names no model; its thread's
						// rollout does.
						e.Model = rollouts.model(r.Session)
					}
					led.Add(e, "")
				}
			} else {
				rep.note("%s: skipped: no events", inp.name)
			}
			return readError(stop)
		})
		var ue *unreadableError
		switch {
		case err == nil:
		case ui.walked && errors.As(err, &ue) && errors.Is(ue.err, convert.ErrUnknownFormat):
			if ui.cli == "" && !sessions.IsOwnFile(ui.name) { // the CLIs' own files are skipped without a word
				rep.note("%s: skipped: not an agent stream", ui.name)
			}
		case errors.As(err, &ue) && !o.in.strict && len(inputs) > 1:
			rep.note("%v", ue.err)
			failed = true
		default:
			return nil, false, err
		}
	}
	return led, failed, nil
}

// held returns the calls led holds.
func held(led *usage.Ledger) int {
	n, _ := led.Held()
	return n
}

// noCalls is the error of a usage that found no model call: it names the
// inputs (the first few), and the format they were read as when forced.
func noCalls(inputs []usageInput, from string) error {
	what := "no agent stream"
	if from != "" && from != "auto" {
		what = "no " + from + " model call"
	}
	switch n := len(inputs); {
	case n == 0:
		return fmt.Errorf("%s: nothing to read", what)
	case n <= 3:
		names := make([]string, n)
		for i, in := range inputs {
			names[i] = in.name
		}
		return fmt.Errorf("%s: %s in the input", strings.Join(names, ", "), what)
	default:
		return fmt.Errorf("%s in the %d inputs (the first: %s)", what, n, inputs[0].name)
	}
}

// named gives a reader's positioned error the input's name.
func named(name string, err error) error {
	var pe *event.ParseError
	if errors.As(err, &pe) {
		if pe.Source == "" {
			pe.Source = name
		}
		return pe
	}
	return fmt.Errorf("%s: %w", name, err)
}

// rolloutModels finds the model of a Codex thread in its rollout, in the
// Codex sessions place (CODEX_HOME, else ~/.codex/sessions), listed once.
type rolloutModels struct {
	ios    *IOStreams
	listed bool
	paths  map[string]string // thread id -> rollout
	models map[string]string
}

func (m *rolloutModels) model(thread string) string {
	if !m.listed {
		m.listed = true
		m.paths, m.models = map[string]string{}, map[string]string{}
		getenv := m.ios.Getenv
		if getenv == nil {
			getenv = os.Getenv
		}
		home := getenv("HOME")
		if home == "" {
			home, _ = os.UserHomeDir()
		}
		for _, p := range sessions.DefaultPlaces(getenv, home, func(f string) bool { return f == "codex-session" }) {
			logs, _ := p.Logs()
			for _, l := range logs {
				// rollout-YYYY-MM-DDThh-mm-ss-<thread id>.jsonl
				name := strings.TrimSuffix(filepath.Base(l.Path), ".jsonl")
				if n := len("rollout-2006-01-02T15-04-05-"); len(name) > n {
					m.paths[name[n:]] = l.Path
				}
			}
		}
	}
	if model, ok := m.models[thread]; ok {
		return model
	}
	model := ""
	if path, ok := m.paths[thread]; ok {
		if f, err := os.Open(path); err == nil {
			_ = codexsession.ReadUsage(f, func(u *codexsession.Usage) { model = cmp.Or(model, u.Model) })
			f.Close()
		}
	}
	m.models[thread] = model
	return model
}

// sessionResult is what a worker read of one input: the input's calls,
// each once; read is false when the input is left to readUsage's own loop
// (not a session log, or one that could not be opened: the loop reports
// that).
type sessionResult struct {
	read  bool
	calls *usage.Ledger
	err   error
}

// readSessionLogs reads the session logs among the inputs with a pool of
// workers, one per CPU, and hands each input's result over on a channel of
// its own, in order. An input's format is known without looking when it
// comes from a default place or --from names a session format; otherwise
// it is detected from its first line, as every input is. At most a few
// inputs' results wait at once: memory holds each call once.
func readSessionLogs(ctx context.Context, o *usageOptions, inputs []usageInput, prog *progress) (results []chan sessionResult, window chan struct{}) {
	results = make([]chan sessionResult, len(inputs))
	for i := range results {
		results[i] = make(chan sessionResult, 1)
	}
	workers := runtime.GOMAXPROCS(0)
	// window holds a token for each input handed to the workers and not
	// yet taken by the caller, who takes one back with each result.
	window = make(chan struct{}, 2*workers)
	if o.follow.on || o.in.tools.protocol != "" {
		go func() {
			for i := range results {
				window <- struct{}{}
				results[i] <- sessionResult{}
			}
		}()
		return results, window
	}
	jobs := make(chan int)
	for range workers {
		go func() {
			br := bufio.NewReaderSize(nil, 256<<10)
			for i := range jobs {
				results[i] <- readSessionLog(o, inputs[i], br)
				prog.done()
			}
		}()
	}
	go func() {
		defer close(jobs)
		for i := range inputs {
			window <- struct{}{}
			select {
			case jobs <- i:
			case <-ctx.Done():
				results[i] <- sessionResult{}
			}
		}
	}()
	return results, window
}

func readSessionLog(o *usageOptions, ui usageInput, br *bufio.Reader) sessionResult {
	if ui.name == "-" || source.IsURL(ui.name) {
		return sessionResult{}
	}
	formatName := ui.format
	if formatName == "" && o.in.from != "auto" {
		formatName = o.in.from
	}
	if formatName != "" && sessionReader(formatName) == nil {
		return sessionResult{}
	}
	f, err := os.Open(ui.name)
	if err != nil {
		return sessionResult{}
	}
	defer f.Close()
	br.Reset(f)
	defer br.Reset(nil)
	if head, _ := br.Peek(200); formatName == "" && codexsession.LooksLikeRollout(head) {
		formatName = "codex-session"
	}
	if formatName == "" {
		detected, _, err := convert.Detect(br)
		if err != nil || sessionReader(detected.Name) == nil {
			return sessionResult{}
		}
		formatName = detected.Name
	}
	res := sessionResult{read: true, calls: usage.NewLedger()}
	res.err = sessionReader(formatName)(br, ui, cmp.Or(ui.shown, ui.name), cmp.Or(ui.cli, cliOf(formatName)), res.calls)
	return res
}

// sessionReader returns the reader of a session log format's usage
// lines, nil for another format.
func sessionReader(formatName string) func(r io.Reader, ui usageInput, shown, cli string, out *usage.Ledger) error {
	switch formatName {
	case "claude-session":
		return readClaudeUsage
	case "codex-session":
		return readCodexUsage
	}
	return nil
}

func readClaudeUsage(r io.Reader, ui usageInput, shown, cli string, out *usage.Ledger) error {
	project := cmp.Or(ui.project, claudeProject(ui.name))
	return claudesession.ReadUsage(r, func(u *claudesession.Usage) {
		if claudesession.IsSynthetic(u.Model) && usage.FromEvent(&u.Tokens).IsZero() {
			return
		}
		e := usage.Entry{
			Time: u.Time, CLI: cli, Project: project, Session: u.SessionID, Agent: u.AgentID,
			Model: u.Model, Sidechain: u.Sidechain, Tokens: usage.FromEvent(&u.Tokens), Run: shown,
		}
		e.Tokens.CacheWrite1h = u.CacheWrite1h
		e.CostUSD = u.CostUSD
		if claudesession.IsSynthetic(e.Model) {
			e.Model = ""
		}
		if u.MessageID != "" {
			e.Key = u.MessageID + "\x00" + u.RequestID
		}
		out.Add(e, u.MessageID)
	})
}

func readCodexUsage(r io.Reader, ui usageInput, shown, cli string, out *usage.Ledger) error {
	return codexsession.ReadUsage(r, func(u *codexsession.Usage) {
		project := ui.project
		if project == "" && u.Cwd != "" {
			project = filepath.Base(u.Cwd)
		}
		session, agent := u.ThreadID, ""
		if u.ParentThread != "" {
			session, agent = u.ParentThread, u.ThreadID
		}
		out.Add(usage.Entry{
			Time: u.Time, CLI: cli, Project: project, Session: session, Agent: agent,
			Model: u.Model, Key: u.Key, Tokens: usage.FromEvent(&u.Tokens), Run: shown,
		}, "")
	})
}

// entryFilter returns whether the filters keep an entry.
func (o *usageOptions) entryFilter(loc *time.Location) (func(*usage.Entry) bool, error) {
	var since, until time.Time
	now := time.Now()
	for _, t := range []struct {
		flag, value string
		dst         *time.Time
		end         bool
	}{{"since", o.in.sessions.since, &since, false}, {"until", o.in.sessions.until, &until, true}} {
		if t.value == "" {
			continue
		}
		if d, err := time.ParseInLocation(time.DateOnly, t.value, loc); err == nil {
			if t.end {
				d = d.AddDate(0, 0, 1) // the whole day
			}
			*t.dst = d
			continue
		}
		v, err := sessions.ParseTime(t.value, now)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", t.flag, err)
		}
		*t.dst = v
	}
	f := &o.filter
	session := o.in.sessions.session
	return func(e *usage.Entry) bool {
		if !since.IsZero() && (e.Time.IsZero() || e.Time.Before(since)) {
			return false
		}
		if !until.IsZero() && (e.Time.IsZero() || !e.Time.Before(until)) {
			return false
		}
		if session != "" && !strings.HasPrefix(e.Session, session) && !strings.HasSuffix(e.Session, session) {
			return false
		}
		if f.project != "" && e.Project != f.project {
			return false
		}
		if f.cli != "" && e.CLI != f.cli {
			return false
		}
		switch f.agent {
		case "", "all":
		case "main":
			return e.Agent == ""
		default:
			return e.Agent != "" && strings.HasPrefix(e.Agent, f.agent)
		}
		return true
	}, nil
}

func loadLocation(name string) (*time.Location, error) {
	if name == "" {
		return time.Local, nil
	}
	loc, err := time.LoadLocation(name)
	if err != nil {
		return nil, fmt.Errorf("--timezone: %w", err)
	}
	return loc, nil
}

func runUsage(ctx context.Context, ios *IOStreams, o *usageOptions, args []string) error {
	if ctx == nil {
		ctx = context.Background()
	}
	if o.json && o.csv {
		return failure(errors.New("--json and --csv cannot be used together"))
	}
	if o.by == "" {
		o.by = usage.ByRun
		if len(args) == 0 {
			o.by = usage.ByDay
		}
	}
	if !slices.Contains(usage.Groupings, o.by) {
		return failure(fmt.Errorf("--by must be one of %s, not %q", strings.Join(usage.Groupings, ", "), o.by))
	}
	rows, total, result, err := usageRows(ctx, ios, o, args)
	if err != nil {
		return err
	}
	switch {
	case o.json:
		err = writeUsageJSON(ios, rows, total)
	case o.csv:
		err = writeUsageCSV(ios, o.by, rows)
	default:
		err = writeUsageTable(ios, o.by, rows, total)
	}
	if err != nil {
		return failure(err)
	}
	return result()
}

// usageRows reads the inputs (the default places when there are none) and
// returns their calls grouped by o.by, and the command's result once the
// rows are written.
func usageRows(ctx context.Context, ios *IOStreams, o *usageOptions, args []string) (rows []usage.Row, total usage.Row, result func() error, err error) {
	loc, err := loadLocation(o.filter.timezone)
	if err != nil {
		return nil, total, nil, failure(err)
	}
	o.gc = tuneUsageGC(ios)
	prices, err := loadPrices(o.prices)
	if err != nil {
		return nil, total, nil, failure(err)
	}
	rep := newReporter(ios.Err, o.in.strict)
	var inputs []usageInput
	if len(args) == 0 {
		inputs, err = usagePlaces(ios, rep)
	} else {
		inputs, err = expandInputs(args)
	}
	if err != nil {
		return nil, total, nil, failure(err)
	}
	names := make([]string, len(inputs))
	for i, in := range inputs {
		names[i] = in.name
	}
	ctx, stop, err := o.follow.start(ctx, names)
	if err != nil {
		return nil, total, nil, err
	}
	defer stop()
	// The calls are summed as the ledger lets go of them; a filter's
	// error is reported once they are read, as before.
	keep, selectErr := o.entryFilter(loc)
	sum, sumErr := usage.NewSummary(o.by, loc, prices)
	sink := func(e *usage.Entry) {
		if selectErr == nil && sumErr == nil && keep(e) {
			sum.Add(e)
		}
	}
	led, failed, err := readUsage(ctx, ios, o, inputs, rep, sink)
	if err != nil {
		return nil, total, nil, err
	}
	if led.Len() == 0 {
		return nil, total, nil, failure(noCalls(inputs, o.in.from))
	}
	led.Flush()
	if sumErr == nil {
		sumErr = sum.Err() // past usage.MaxBlockCalls by block
	}
	if err := cmp.Or(selectErr, sumErr); err != nil {
		return nil, total, nil, failure(err)
	}
	if n := led.Late(); n > 0 {
		rep.note("%d line(s) of model calls read more than %d calls after their call's first line would have replaced it (more tokens, or the main agent's copy): each call counts once, as first read", n, usage.Window)
	}
	if led.Forgot() {
		rep.note("more than %d keys of model calls let go of: forgot the oldest; a later line of one of those calls may have counted again", usage.MaxForgotten)
	}
	rows, total = sum.Rows()
	return rows, total, func() error {
		if failed {
			return &exitError{code: ExitFailure}
		}
		return rep.result()
	}, nil
}

func loadPrices(name string) (*usage.Prices, error) {
	if name == "" {
		return usage.Default()
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	p, err := usage.ReadPrices(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return p, nil
}

func writeUsageJSON(ios *IOStreams, rows []usage.Row, total usage.Row) error {
	if rows == nil {
		rows = []usage.Row{}
	}
	enc := json.NewEncoder(ios.Out)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Rows  []usage.Row `json:"rows"`
		Total usage.Row   `json:"total"`
	}{rows, total})
}

var usageColumns = []string{"runs", "messages", "input", "output", "cache_write", "cache_read", "reasoning", "cost_usd", "cost_source", "unpriced_models"}

func usageCells(r usage.Row) []string {
	cost := ""
	if r.CostUSD != nil {
		cost = strconv.FormatFloat(*r.CostUSD, 'f', 6, 64)
	}
	return []string{
		strconv.Itoa(r.Runs), strconv.Itoa(r.Messages),
		strconv.FormatInt(r.Input, 10), strconv.FormatInt(r.Output, 10),
		strconv.FormatInt(r.CacheWrite, 10), strconv.FormatInt(r.CacheRead, 10),
		strconv.FormatInt(r.Reasoning, 10), cost, r.CostSource, strings.Join(r.Unpriced, ";"),
	}
}

func writeUsageCSV(ios *IOStreams, by string, rows []usage.Row) error {
	w := csv.NewWriter(ios.Out)
	if err := w.Write(append([]string{by}, usageColumns...)); err != nil {
		return err
	}
	for _, r := range rows {
		if err := w.Write(append([]string{r.Key}, usageCells(r)...)); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}

func writeUsageTable(ios *IOStreams, by string, rows []usage.Row, total usage.Row) error {
	// Numbers right-aligned, the key column left-aligned (padded here,
	// since tabwriter aligns every column alike).
	w := len(by)
	for _, r := range append(rows, total) {
		w = max(w, utf8.RuneCountInString(r.Key))
	}
	pad := func(s string) string { return s + strings.Repeat(" ", w-utf8.RuneCountInString(s)) }
	tw := tabwriter.NewWriter(ios.Out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "%s\tRUNS\tMSGS\tINPUT\tOUTPUT\tCACHE WRITE\tCACHE READ\tREASONING\tCOST\t\n", pad(strings.ToUpper(by)))
	line := func(r usage.Row) {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%s\t%s\t\n", pad(r.Key), r.Runs, r.Messages,
			render.FormatCount(r.Input), render.FormatCount(r.Output), render.FormatCount(r.CacheWrite), render.FormatCount(r.CacheRead), render.FormatCount(r.Reasoning), costCell(r))
	}
	for _, r := range rows {
		line(r)
	}
	if len(rows) > 1 {
		line(total)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(total.Unpriced) > 0 {
		_, err := fmt.Fprintf(ios.Out, "* leaves out models without a price: %s\n", strings.Join(total.Unpriced, ", "))
		return err
	}
	return nil
}

// costCell shows a cost: "-" when nothing was priced, a * when unpriced
// models are left out, "(table)" when it was priced from the table.
func costCell(r usage.Row) string {
	if r.CostUSD == nil {
		if len(r.Unpriced) > 0 {
			return "unpriced*"
		}
		return "-"
	}
	s := "$" + strconv.FormatFloat(*r.CostUSD, 'f', 4, 64)
	switch r.CostSource {
	case usage.SourceTable:
		s += " (table)"
	case usage.SourceMixed:
		s += " (stream+table)"
	}
	if len(r.Unpriced) > 0 {
		s += "*"
	}
	return s
}
