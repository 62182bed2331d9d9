package verify

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"sort"
	"strings"

	"github.com/agentstream/agentstream/assemble"
	"github.com/agentstream/agentstream/format"
)

// The --ignore names that stand for several fields. Any field or block type
// name of Fields may be given to --ignore as well.
const (
	IgnoreIDs        = "ids"        // tool call ids, wherever they appear
	IgnoreAgentIDs   = "agent-ids"  // agent ids
	IgnoreThinking   = "thinking"   // thinking blocks
	IgnoreWhitespace = "whitespace" // runs of white space count as one space; leading and trailing space is dropped
	IgnoreMeta       = "meta"       // the session's model and prompt
)

// IgnoreNames returns the group names --ignore accepts, in documentation
// order.
func IgnoreNames() []string {
	return []string{IgnoreIDs, IgnoreAgentIDs, IgnoreThinking, IgnoreWhitespace, IgnoreMeta}
}

// Fields returns the vocabulary of compared fields and block types: what
// --ignore accepts besides IgnoreNames, and what reports name
// (docs/verify.md explains each). It holds every format.Content, the
// vocabulary of format.Format.Lacks, so a format can lack only what verify
// knows.
func Fields() []string {
	fields := []string{
		// block fields every format carries
		"text", "id", "name", "input", "content", "pending", "files", "message", "changes", "todos",
	}
	for _, c := range format.AllContent() {
		if !slices.Contains(fields, string(c)) {
			fields = append(fields, string(c))
		}
	}
	return fields
}

// CitationExtras names the citation fields beyond those the legacy XML
// stream writes for the citation's type (char_location: document index and
// title, char range; page_location: document index and title, page range;
// web_search_result_location: url, title; any other type: document index).
const CitationExtras = string(format.CitationExtras)

// citationFields are the fields kept per citation type when
// CitationExtras is not compared; type and cited_text are always kept.
var citationFields = map[string][]string{
	"char_location":              {"document_index", "document_title", "start_char_index", "end_char_index"},
	"page_location":              {"document_index", "document_title", "start_page_number", "end_page_number"},
	"web_search_result_location": {"url", "title"},
	"":                           {"document_index"},
}

// standardCitations drops the citation extras from citations as JSON values.
func standardCitations(v any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	for _, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		typ, _ := m["type"].(string)
		keep, ok := citationFields[typ]
		if !ok {
			keep = citationFields[""]
		}
		for k := range m {
			if k != "type" && k != "cited_text" && !slices.Contains(keep, k) {
				delete(m, k)
			}
		}
	}
	return list
}

// fieldsOf lists the compared fields of each content block type, in report
// order. Block types not listed here are not content.
var fieldsOf = map[string][]string{
	assemble.TypeText:             {"text", "citations"},
	assemble.TypeThinking:         {"text", "signature"},
	assemble.TypeToolCall:         {"id", "name", "input", "mcp_server"},
	assemble.TypeServerToolCall:   {"id", "name", "input", "mcp_server"},
	assemble.TypeToolResult:       {"id", "name", "content", "images", "is_error", "exit_code", "status", "structured"},
	assemble.TypeServerToolResult: {"id", "name", "content", "images", "is_error", "exit_code", "status", "structured"},
	assemble.TypeAwaitingTools:    {"pending"},
	assemble.TypeMetaFiles:        {"files"},
	assemble.TypeError:            {"message", "kind"},
	assemble.TypeFileChange:       {"id", "changes", "status"},
	assemble.TypeTodoList:         {"id", "todos"},
}

// Side is one of the two streams compared.
type Side struct {
	Name   string // input name, for the report
	Format string // format name
	// Lacks is what the format cannot carry (format.Format.Lacks).
	Lacks []format.Content
	// Blocks are the whole stream's, for Compare (a Stream is given
	// them one by one).
	Blocks []*assemble.Block
}

// Options tune the comparison.
type Options struct {
	// Ignore holds IgnoreNames and Fields not to compare.
	Ignore []string
	// Usage compares token usage and cost, which are left out otherwise.
	Usage bool
	// Strict compares the fields one side's format cannot carry too.
	Strict bool
	// AllowCut lets a Stream say equal of sides it was told were cut off
	// (Stream.Cut): by default a run that is not whole is never equal,
	// whatever its content.
	AllowCut bool
	// A Stream's caps, none where 0 (Compare has none): the agents of
	// one side, and the content blocks held unmatched (both sides) and
	// the size of their canonical forms. Past one, Stream.Add fails.
	MaxAgents, MaxHeld, MaxHeldBytes int
}

// CheckIgnore returns an error naming the first entry of names (for
// Options.Ignore) that is neither of IgnoreNames nor of Fields.
func CheckIgnore(names []string) error {
	for _, n := range names {
		if !slices.Contains(IgnoreNames(), n) && !slices.Contains(Fields(), n) {
			return fmt.Errorf("unknown field %q (one of %s, or a field of docs/verify.md)", n, strings.Join(IgnoreNames(), ", "))
		}
	}
	return nil
}

// Report is the outcome of a comparison. Its JSON form is what
// `verify --json` writes; docs/verify.md is its schema.
type Report struct {
	// Equal: the content is equal, and neither side was cut off (or
	// Options.AllowCut).
	Equal       bool         `json:"equal"`
	A           Summary      `json:"a"`
	B           Summary      `json:"b"`
	NotCompared []Skip       `json:"not_compared"`
	Differences []Difference `json:"differences"`
}

// Summary describes one side.
type Summary struct {
	Name   string `json:"name"`
	Format string `json:"format"`
	Agents int    `json:"agents"`
	Blocks int    `json:"blocks"` // compared content blocks, all agents
	// Cut: the input ended without its format's end (its reader
	// reported it truncated): the run is not whole.
	Cut bool `json:"cut,omitempty"`
}

// Skip is a field that was not compared, and why.
type Skip struct {
	Field  string `json:"field"`
	Side   string `json:"side"` // "a" or "b": the side whose format lacks it
	Reason string `json:"reason"`
}

// Difference kinds.
const (
	Changed = "changed" // a field differs
	Missing = "missing" // a block or agent of A is not in B
	Extra   = "extra"   // a block or agent of B is not in A
	Moved   = "moved"   // the same block sits elsewhere in B
)

// Difference is one place where the streams differ.
type Difference struct {
	Kind string `json:"kind"`
	// Agent is the agent's number, from 1, in order of first appearance;
	// AgentLabel is "main" for the first, else the subagent's name.
	Agent      int    `json:"agent"`
	AgentLabel string `json:"agent_label"`
	AgentA     string `json:"agent_a,omitempty"`
	AgentB     string `json:"agent_b,omitempty"`
	// BlockA and BlockB number the block among the agent's compared
	// blocks, from 1, on each side; 0 where it has none (a missing or extra
	// block, or a difference in the agent's own fields).
	BlockA int    `json:"block_a,omitempty"`
	BlockB int    `json:"block_b,omitempty"`
	Type   string `json:"type,omitempty"`
	// Field is the field's path: text, input.path, citations[0].url, ...
	Field string `json:"field,omitempty"`
	// A and B are the two values as JSON text; long strings are cut to
	// the 40 characters either side of the first difference, which At
	// numbers (from 0, in characters).
	A  string `json:"a,omitempty"`
	B  string `json:"b,omitempty"`
	At *int   `json:"at,omitempty"`
}

// Compare compares the content of a and b, whose Blocks hold their
// streams whole. Stream compares streams as they are assembled.
func Compare(a, b Side, o *Options) *Report {
	var uncapped Options
	if o != nil {
		uncapped = *o
	}
	uncapped.MaxAgents, uncapped.MaxHeld, uncapped.MaxHeldBytes = 0, 0, 0
	s := NewStream(a, b, &uncapped)
	// Fed as a command feeds it (the side holding fewer unmatched blocks
	// first), though with no cap the order does not change the report.
	blocks := [2][]*assemble.Block{a.Blocks, b.Blocks}
	for len(blocks[0]) > 0 || len(blocks[1]) > 0 {
		k := s.Next()
		if len(blocks[k]) == 0 {
			k = 1 - k
		}
		_ = s.Add(k, blocks[k][0]) // no cap: no error
		blocks[k] = blocks[k][1:]
	}
	return s.Report()
}

type comparer struct {
	skip       map[string]bool // fields and block types not compared
	whitespace bool
	notes      []agentNote // what agents add to the fields not compared
	agentNo    int         // the number of the agent being compared
	// lacked are the fields not compared because one side's format lacks
	// them, in report order; present[i] tells whether either stream has
	// a value for lacked[i], which is when the report names it.
	lacked  []Skip
	present []bool
}

func newComparer(a, b Side, o *Options) *comparer {
	c := &comparer{skip: map[string]bool{}}
	for _, n := range o.Ignore {
		switch n {
		case IgnoreIDs:
			c.skip["id"] = true
		case IgnoreAgentIDs:
			c.skip["agent_id"] = true
		case IgnoreThinking:
			c.skip[assemble.TypeThinking] = true
		case IgnoreWhitespace:
			c.whitespace = true
		case IgnoreMeta:
			c.skip["model"], c.skip["prompt"] = true, true
		default:
			c.skip[n] = true
		}
	}
	if !o.Usage {
		c.skip["usage"], c.skip["cost"] = true, true
	}
	if o.Strict || a.Format == b.Format {
		// Same format: what it cannot carry is empty on both sides.
		return c
	}
	lacked := map[string][]string{} // field: the sides ("a", "b") whose format lacks it
	for i, s := range []Side{a, b} {
		side := []string{"a", "b"}[i]
		for _, c := range s.Lacks {
			f := string(c)
			if !slices.Contains(lacked[f], side) {
				lacked[f] = append(lacked[f], side)
			}
		}
	}
	for _, f := range slices.Sorted(maps.Keys(lacked)) {
		if c.skip[f] {
			continue
		}
		c.skip[f] = true
		// Lacked by both: empty on both sides. Lacked by one and empty in
		// both streams: nothing was left out. Neither is worth a note; nor
		// is a block type that is never compared as such (turn_end).
		// Whether either stream has a value for it is known at the end.
		if len(lacked[f]) != 1 || f == assemble.TypeTurnEnd {
			continue
		}
		side, s := lacked[f][0], a
		if side == "b" {
			s = b
		}
		c.lacked = append(c.lacked, Skip{Field: f, Side: side, Reason: fmt.Sprintf("%s (%s) cannot carry it", strings.ToUpper(side), s.Format)})
	}
	c.present = make([]bool, len(c.lacked))
	return c
}

// agent is one agent's share of a stream.
type agent struct {
	id    string
	meta  *metaInfo  // its first meta_init's
	final *finalInfo // its last meta_final's
	// turnEnds counts its turn ends; lastStop is the last one's stop
	// reason, usage the sum of their usage (nil when none had any).
	turnEnds int
	lastStop string
	usage    *assemble.Usage
	// blocks are its content blocks not yet matched, in order, and keys
	// their canonical forms (comparer.key); the blocks before them
	// matched the other side's.
	blocks []*assemble.Block
	keys   []string
}

func isText(b *assemble.Block) bool {
	return b.Type == assemble.TypeText || b.Type == assemble.TypeThinking
}

func (c *comparer) norm(s string) string {
	switch {
	case c.whitespace:
		return strings.Join(strings.Fields(s), " ")
	case c.skip[string(format.TextEdges)]:
		// One side keeps its text trimmed.
		return strings.TrimSpace(s)
	}
	return s
}

func label(n int, x, y *agent) string {
	if n == 1 {
		return "main"
	}
	for _, a := range []*agent{x, y} {
		if a != nil && a.meta != nil && a.meta.Name != "" {
			return a.meta.Name
		}
	}
	return "subagent"
}

// agent compares the n-th agent of each side; one of them may be nil.
func (c *comparer) agent(n, off int, x, y *agent) []Difference {
	c.agentNo = n
	base := Difference{Agent: n, AgentLabel: label(n, x, y)}
	if x != nil {
		base.AgentA = x.id
	}
	if y != nil {
		base.AgentB = y.id
	}
	switch {
	case y == nil:
		d := base
		d.Kind = Missing
		return []Difference{d}
	case x == nil:
		d := base
		d.Kind = Extra
		return []Difference{d}
	}
	var out []Difference
	add := func(typ, field string, va, vb any) {
		for _, fd := range diffValues(field, va, vb) {
			d := base
			d.Kind, d.Type, d.Field, d.A, d.B, d.At = Changed, typ, fd.path, fd.a, fd.b, fd.at
			out = append(out, d)
		}
	}
	if !c.skip["agent_id"] && x.id != "" && y.id != "" {
		add("", "agent_id", x.id, y.id)
	}
	switch {
	case c.skip[assemble.TypeMetaInit]:
	case (x.meta == nil) != (y.meta == nil) && (hasInit(x.meta) || hasInit(y.meta)):
		d := base
		d.Kind, d.Type = Missing, assemble.TypeMetaInit
		if x.meta == nil {
			d.Kind = Extra
		}
		out = append(out, d)
	case x.meta != nil:
		if !c.skip["model"] {
			c.model(add, x.meta.Model, y.meta.Model)
		}
		if !c.skip["prompt"] {
			add(assemble.TypeMetaInit, "prompt", c.norm(x.meta.Prompt), c.norm(y.meta.Prompt))
		}
	}
	// A subagent's outcome is not compared where one side's format
	// closes only the main agent's run.
	outcome := n == 1 || !c.skip[string(format.SubagentOutcome)]
	finalDiffers := outcome && !c.skip[assemble.TypeMetaFinal] && (x.final == nil) != (y.final == nil) &&
		(hasFinal(x.final) || hasFinal(y.final))
	if finalDiffers {
		d := base
		d.Kind, d.Type = Missing, assemble.TypeMetaFinal
		if x.final == nil {
			d.Kind = Extra
		}
		out = append(out, d)
	}
	out = append(out, c.blocks(base, off, x.blocks, y.blocks, x.keys, y.keys)...)
	if finalDiffers || !outcome {
		return out // the outcome differs for that reason alone, or is not compared
	}
	oa, ob := c.outcome(x), c.outcome(y)
	// The outcome is the meta_final's, or when it is not compared the
	// turn ends': then it is reported as the agent's, not meta_final's.
	typ := assemble.TypeMetaFinal
	if c.skip[assemble.TypeMetaFinal] {
		typ = ""
	}
	for _, f := range []string{"stop_reason", "usage", "cost"} {
		if !c.skip[f] {
			add(typ, f, oa[f], ob[f])
		}
	}
	return out
}

// model compares the models the two sides name for an agent, without the
// suffix a producer adds to the model's name (Claude Code's "[1m]", the
// context window it chose): "claude-opus-4-8[1m]" and "claude-opus-4-8"
// are one model. A side that names none (a Claude Code session log of a
// run whose only answer was an API error: the model is on the assistant
// lines) is not compared, and the report says so.
func (c *comparer) model(add func(typ, field string, va, vb any), a, b string) {
	switch {
	case a == "" && b == "":
	case a == "" || b == "":
		side := "a"
		if b == "" {
			side = "b"
		}
		c.note(Skip{Field: "model", Side: side, Reason: strings.ToUpper(side) + " names no model"})
	default:
		add(assemble.TypeMetaInit, "model", baseModel(a), baseModel(b))
	}
}

// baseModel returns a model's name without a bracketed suffix.
func baseModel(m string) string {
	if i := strings.LastIndexByte(m, '['); i > 0 && strings.HasSuffix(m, "]") {
		return m[:i]
	}
	return m
}

// agentNote is a field not compared, and the first agent that says so.
type agentNote struct {
	Skip
	agent int
}

// note adds a field not compared to the report, once.
func (c *comparer) note(s Skip) {
	i := slices.IndexFunc(c.notes, func(n agentNote) bool { return n.Skip == s })
	if i < 0 {
		c.notes = append(c.notes, agentNote{s, c.agentNo})
	} else {
		c.notes[i].agent = min(c.notes[i].agent, c.agentNo)
	}
}

// hasInit reports whether a meta_init says anything compared. Formats
// such as Claude's stream-json always open with one; written from a
// source that had none, it carries no model and no prompt, and is no
// difference.
func hasInit(b *metaInfo) bool {
	return b != nil && (b.Model != "" || b.Prompt != "")
}

// hasFinal is hasInit for meta_final: a closing line written with nothing
// known (no stop reason, usage, cost or failure) is no difference.
func hasFinal(b *finalInfo) bool {
	return b != nil && (b.StopReason != "" || b.Usage != nil || b.CostUSD != nil || b.Failed)
}

// metaInfo is what is compared of a meta_init.
type metaInfo struct{ Model, Prompt, Name string }

// finalInfo is what is compared of a meta_final: Failed is its is_error
// or errors.
type finalInfo struct {
	StopReason string
	Usage      *assemble.Usage
	CostUSD    *float64
	Failed     bool
}

// outcome is an agent's final outcome: the stop reason, usage and cost of
// its meta_final or, for formats without one, of its turn ends. A source
// one side's format lacks is not used.
func (c *comparer) outcome(a *agent) map[string]any {
	out := map[string]any{"stop_reason": ""}
	switch {
	case a.final != nil && !c.skip[assemble.TypeMetaFinal]:
		out["stop_reason"] = a.final.StopReason
		out["usage"] = jsonValue(a.final.Usage)
		out["cost"] = jsonValue(a.final.CostUSD)
	case a.turnEnds > 0 && !c.skip[assemble.TypeTurnEnd]:
		out["stop_reason"] = a.lastStop
		out["usage"] = jsonValue(a.usage)
	}
	return out
}

// canon returns the compared fields of b as JSON values, so that two
// blocks compare equal exactly when their canonical forms do.
func (c *comparer) canon(b *assemble.Block) map[string]any {
	m := map[string]any{}
	for _, f := range fieldsOf[b.Type] {
		if c.skip[f] {
			continue
		}
		var v any
		switch f {
		case "text":
			v = c.norm(b.Text)
		case "message":
			v = c.norm(b.Text)
		case "signature":
			v = b.Signature
		case "citations":
			v = jsonValue(b.Citations)
			if c.skip[CitationExtras] {
				v = standardCitations(v)
			}
		case "id":
			v = b.ID
		case "name":
			v = b.Name
		case "input":
			v = rawValue(b.Input)
		case "mcp_server":
			v = b.MCPServer
		case "content":
			s := ""
			if b.Content != nil {
				s = *b.Content
			}
			v = c.norm(s)
		case "images":
			v = jsonValue(b.Images)
		case "is_error":
			v = b.IsError
		case "exit_code":
			v = jsonValue(b.ExitCode)
		case "status":
			v = b.Status
		case "structured":
			v = rawValue(b.Structured)
		case "pending":
			p := slices.Clone(b.Pending)
			if c.skip["id"] {
				for i := range p {
					p[i].ID = ""
				}
			}
			v = jsonValue(p)
		case "files":
			v = jsonValue(b.Files)
		case "kind":
			v = b.Kind
			if v == assemble.TypeError {
				v = "" // the generic kind some formats write for none
			}
		case "changes":
			v = jsonValue(b.Changes)
		case "todos":
			v = jsonValue(b.Todos)
		}
		m[f] = v
	}
	return m
}

// jsonValue returns v as the JSON value it marshals to (maps, slices,
// float64, string, bool, nil).
func jsonValue(v any) any {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return rawValue(b)
}

// rawValue decodes JSON text; text that does not parse is kept as a string.
func rawValue(b json.RawMessage) any {
	if len(b) == 0 {
		return nil
	}
	var v any
	if err := json.Unmarshal(b, &v); err != nil {
		return string(b)
	}
	return v
}

// key is a block's canonical form as text: blocks with equal keys are equal.
func (c *comparer) key(b *assemble.Block) string {
	k, _ := json.Marshal(c.canon(b)) // maps marshal with sorted keys
	return b.Type + "\x00" + string(k)
}

// blocks aligns two agents' blocks and reports what differs.
// The first off blocks of both matched already: xs and ys (keys ka and
// kb) are those after them.
func (c *comparer) blocks(base Difference, off int, xs, ys []*assemble.Block, ka, kb []string) []Difference {
	pairs := align(ka, kb)

	var out []Difference
	matchedA := make([]bool, len(xs))
	matchedB := make([]bool, len(ys))
	for _, p := range pairs {
		matchedA[p[0]], matchedB[p[1]] = true, true
	}
	var onlyA, onlyB []int
	for i, m := range matchedA {
		if !m {
			onlyA = append(onlyA, i)
		}
	}
	for j, m := range matchedB {
		if !m {
			onlyB = append(onlyB, j)
		}
	}
	// The same block elsewhere: moved.
	type found struct{ a, b int }
	var moved []found
	for _, i := range onlyA {
		for _, j := range onlyB {
			if !matchedB[j] && ka[i] == kb[j] {
				matchedA[i], matchedB[j] = true, true
				moved = append(moved, found{i, j})
				break
			}
		}
	}
	// Within each gap between aligned blocks, blocks of the same type pair
	// up as changed.
	type change struct{ a, b int }
	var changes []change
	gapOf := func(idx int, side int) int {
		// number of aligned pairs before idx on this side
		return sort.Search(len(pairs), func(k int) bool { return pairs[k][side] > idx })
	}
	for _, i := range onlyA {
		if matchedA[i] {
			continue
		}
		g := gapOf(i, 0)
		for _, j := range onlyB {
			if matchedB[j] || gapOf(j, 1) != g || xs[i].Type != ys[j].Type {
				continue
			}
			matchedA[i], matchedB[j] = true, true
			changes = append(changes, change{i, j})
			break
		}
	}

	// Report in stream order: gap by gap, A's blocks first, then B's.
	type item struct {
		gap, extra, idx int
		diffs           []Difference
	}
	var items []item
	for _, ch := range changes {
		ca, cb := c.canon(xs[ch.a]), c.canon(ys[ch.b])
		var ds []Difference
		for _, f := range fieldsOf[xs[ch.a].Type] {
			if _, ok := ca[f]; !ok {
				continue
			}
			for _, fd := range diffValues(f, ca[f], cb[f]) {
				d := base
				d.Kind, d.BlockA, d.BlockB, d.Type = Changed, off+ch.a+1, off+ch.b+1, xs[ch.a].Type
				d.Field, d.A, d.B, d.At = fd.path, fd.a, fd.b, fd.at
				ds = append(ds, d)
			}
		}
		items = append(items, item{gap: gapOf(ch.a, 0), idx: ch.a, diffs: ds})
	}
	for _, m := range moved {
		d := base
		d.Kind, d.BlockA, d.BlockB, d.Type = Moved, off+m.a+1, off+m.b+1, xs[m.a].Type
		items = append(items, item{gap: gapOf(m.a, 0), idx: m.a, diffs: []Difference{d}})
	}
	for _, i := range onlyA {
		if matchedA[i] {
			continue
		}
		d := base
		d.Kind, d.BlockA, d.Type = Missing, off+i+1, xs[i].Type
		items = append(items, item{gap: gapOf(i, 0), idx: i, diffs: []Difference{d}})
	}
	for _, j := range onlyB {
		if matchedB[j] {
			continue
		}
		d := base
		d.Kind, d.BlockB, d.Type = Extra, off+j+1, ys[j].Type
		items = append(items, item{gap: gapOf(j, 1), extra: 1, idx: j, diffs: []Difference{d}})
	}
	slices.SortFunc(items, func(x, y item) int {
		return cmp.Or(cmp.Compare(x.gap, y.gap), cmp.Compare(x.extra, y.extra), cmp.Compare(x.idx, y.idx))
	})
	for _, it := range items {
		out = append(out, it.diffs...)
	}
	return out
}

// maxCells bounds the alignment table; longer differing stretches are
// aligned position by position.
const maxCells = 4 << 20

// align returns the pairs (i, j) of a longest common subsequence of a and
// b, in order.
func align(a, b []string) [][2]int {
	var pairs [][2]int
	// Common prefix and suffix first: most comparisons are of equal or
	// nearly equal streams.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pairs = append(pairs, [2]int{pre, pre})
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	n, m := len(ma), len(mb)
	if n > 0 && m > 0 {
		if (n+1)*(m+1) > maxCells {
			for i := range min(n, m) {
				if ma[i] == mb[i] {
					pairs = append(pairs, [2]int{pre + i, pre + i})
				}
			}
		} else {
			// t[i][j]: LCS length of ma[i:], mb[j:].
			t := make([]int32, (n+1)*(m+1))
			at := func(i, j int) *int32 { return &t[i*(m+1)+j] }
			for i := n - 1; i >= 0; i-- {
				for j := m - 1; j >= 0; j-- {
					if ma[i] == mb[j] {
						*at(i, j) = *at(i+1, j+1) + 1
					} else {
						*at(i, j) = max(*at(i+1, j), *at(i, j+1))
					}
				}
			}
			for i, j := 0, 0; i < n && j < m; {
				switch {
				case ma[i] == mb[j]:
					pairs = append(pairs, [2]int{pre + i, pre + j})
					i++
					j++
				case *at(i+1, j) >= *at(i, j+1):
					i++
				default:
					j++
				}
			}
		}
	}
	for k := suf; k > 0; k-- {
		pairs = append(pairs, [2]int{len(a) - k, len(b) - k})
	}
	return pairs
}
