package codexsession

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
)

// Usage is what one token_count event of a rollout says of the model call
// before it: package usage counts model calls from these, dated by each
// line's own timestamp, without decoding the rollout into events.
type Usage struct {
	Time     time.Time
	ThreadID string // the session_meta's id
	// ParentThread is the parent thread of a subagent's rollout ("" for a
	// top-level thread).
	ParentThread string
	Model        string // the last turn_context's model; "" before one
	Cwd          string
	// Key identifies the call across files: a forked or resumed thread's
	// rollout copies the token_count lines of the history it starts
	// from, with their timestamps and cumulative totals.
	Key    string
	Tokens event.Usage
}

// MaxUsageLine caps one line ReadUsage reads; a longer line is skipped.
const MaxUsageLine = 64 << 20

var (
	markTokenCount  = []byte(`"token_count"`)
	markTurnContext = []byte(`"turn_context"`)
	markSessionMeta = []byte(`"session_meta"`)
)

// ReadUsage reads a rollout and calls fn with the usage of each
// token_count event that reports some, in file order: its
// last_token_usage, else the growth of its total_token_usage. A
// subagent's rollout starts by replaying its parent's token counts (two
// or more in the first second that has any): those are the parent's and
// are left out. Lines of a usage kind that are not JSON are skipped and
// reported once at the end, as an *event.ParseError at the first one's
// offset (a last line cut off while written is not one of them); any other
// error is the reader's.
func ReadUsage(r io.Reader, fn func(*Usage)) error {
	br := bufio.NewReaderSize(r, 256<<10)
	var (
		long           []byte
		thread, parent string
		model, cwd     string
		prev           *event.Usage
		replay         []Usage // token counts of the first second, in a subagent's rollout
		replaySecond   string
		replayDone     bool
		offset, bad    int64 // the line's input offset; bad lines
		firstBad       int64
	)
	var jr jsontext.Reader
	flushReplay := func() {
		if len(replay) == 1 {
			fn(&replay[0])
		}
		replay, replayDone = nil, true
	}
	for {
		raw, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			long = append(long[:0], raw...)
			for errors.Is(err, bufio.ErrBufferFull) {
				raw, err = br.ReadSlice('\n')
				if len(long) <= MaxUsageLine {
					long = append(long, raw...)
				}
			}
			raw = long
		}
		n := int64(len(raw))
		if n > MaxUsageLine {
			raw = nil
		}
		if usageLineKind(raw) {
			var l line
			jr.Reset(raw)
			ok := readLine(&jr, &l) && jr.End()
			if !ok {
				l = line{}
				ok = json.Unmarshal(raw, &l) == nil
			}
			if !ok && err == nil { // a last line cut off while written is not bad
				if bad == 0 {
					firstBad = offset
				}
				bad++
			}
			if ok {
				switch {
				case l.Type == typeSessionMeta:
					if thread == "" {
						thread, cwd = l.Payload.ID, l.Payload.Cwd
						parent = codexParent(l.Payload.Source)
					}
				case l.Type == typeTurnContext:
					if l.Payload.Model != "" {
						model = l.Payload.Model
					}
				case l.Type == typeEventMsg && l.Payload.Type == msgTokenCount && l.Payload.Info != nil:
					u, ok := tokenUsage(&l, &prev)
					if !ok {
						break
					}
					u.ThreadID, u.ParentThread, u.Model, u.Cwd = thread, parent, model, cwd
					if parent == "" || replayDone {
						fn(&u)
						break
					}
					sec := l.Timestamp[:min(len(l.Timestamp), 19)]
					if replaySecond == "" || sec == replaySecond {
						replaySecond = sec
						replay = append(replay, u)
						break
					}
					flushReplay()
					fn(&u)
				}
			}
		}
		offset += n
		if err == io.EOF {
			if !replayDone {
				flushReplay()
			}
			if bad > 0 {
				return &event.ParseError{Offset: firstBad, Err: fmt.Errorf("%w: %d line(s) of a usage kind are not JSON: their usage is not counted", event.ErrSyntax, bad)}
			}
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// usageLineKind reports whether a line may be one ReadUsage reads: a
// session_meta, a turn_context or a token_count. Codex writes the line's
// type before its payload, and the payload's type first in it: the
// line's first bytes tell; a line of another shape is searched whole.
func usageLineKind(raw []byte) bool {
	head := raw[:min(len(raw), 160)]
	const typeKey = `"type":"`
	i := bytes.Index(head, []byte(typeKey))
	if i < 0 {
		return bytes.Contains(raw, markTokenCount) || bytes.Contains(raw, markTurnContext) || bytes.Contains(raw, markSessionMeta)
	}
	rest := head[i+len(typeKey):]
	switch {
	case bytes.HasPrefix(rest, []byte(typeSessionMeta+`"`)), bytes.HasPrefix(rest, []byte(typeTurnContext+`"`)):
		return true
	case bytes.HasPrefix(rest, []byte(typeEventMsg+`",`)):
		rest = rest[len(typeEventMsg)+2:]
		if p := []byte(`"payload":{"type":"`); bytes.HasPrefix(rest, p) {
			return bytes.HasPrefix(rest[len(p):], []byte(msgTokenCount+`"`))
		}
		return bytes.Contains(raw, markTokenCount)
	case bytes.HasPrefix(rest, []byte(typeResponseItem+`",`)), bytes.HasPrefix(rest, []byte(typeWorldState+`",`)),
		bytes.HasPrefix(rest, []byte(typeTokenUsageRecord+`",`)), bytes.HasPrefix(rest, []byte(typeCompacted+`",`)):
		return false
	}
	return bytes.Contains(raw, markTokenCount) || bytes.Contains(raw, markTurnContext) || bytes.Contains(raw, markSessionMeta)
}

// tokenUsage returns the call a token_count line reports; false when it
// reports none (no counts, or all zero) or has no timestamp.
func tokenUsage(l *line, prev **event.Usage) (Usage, bool) {
	t, err := time.Parse(time.RFC3339Nano, l.Timestamp)
	info := l.Payload.Info
	var u, total *event.Usage
	if info.TotalTokenUsage != nil {
		c := info.TotalTokenUsage.Event()
		total = &c
	}
	switch {
	case info.LastTokenUsage != nil:
		c := info.LastTokenUsage.Event()
		u = &c
	case total != nil:
		d := *total
		if p := *prev; p != nil && total.InputTokens >= p.InputTokens && total.OutputTokens >= p.OutputTokens {
			d.Sub(p)
		}
		u = &d
	}
	if total != nil {
		*prev = total
	}
	if err != nil || u == nil || u.InputTokens == 0 && u.OutputTokens == 0 && u.CacheReadTokens == 0 &&
		u.CacheWriteTokens == 0 && u.ReasoningTokens == 0 {
		return Usage{}, false
	}
	k := u
	if total != nil {
		k = total
	}
	b := make([]byte, 0, len(l.Timestamp)+48)
	b = append(b, l.Timestamp...)
	for _, n := range [...]int64{k.InputTokens, k.CacheReadTokens, k.CacheWriteTokens, k.OutputTokens, k.ReasoningTokens} {
		b = append(b, ' ')
		b = strconv.AppendInt(b, n, 10)
	}
	key := string(b)
	tokens := *u
	tokens.CacheReadTokens = min(u.CacheReadTokens, u.InputTokens)
	return Usage{Time: t, Key: key, Tokens: tokens}, true
}

// threadSource is a session_meta's source when it is an object: a
// subagent's names the thread that spawned it.
type threadSource struct {
	Subagent struct {
		ThreadSpawn struct {
			ParentThreadID string `json:"parent_thread_id"`
		} `json:"thread_spawn"`
	} `json:"subagent"`
}

// codexParent returns the parent thread a session_meta's source names, or "".
func codexParent(source json.RawMessage) string {
	var s threadSource
	if len(source) == 0 || source[0] != '{' || json.Unmarshal(source, &s) != nil {
		return ""
	}
	return s.Subagent.ThreadSpawn.ParentThreadID
}

// LooksLikeRollout reports whether an input's first bytes are a rollout's
// session_meta line as Codex writes it ({"timestamp":...,"type":
// "session_meta","payload":...}): a cheap test, before the full detection
// (which decodes the whole first line, some 20 KB of base instructions),
// for the readers of usage lines, which count nothing of another input.
func LooksLikeRollout(head []byte) bool {
	head = head[:min(len(head), 200)]
	const typeKey = `"type":"`
	i := bytes.Index(head, []byte(typeKey))
	return bytes.HasPrefix(head, []byte(`{"timestamp":"`)) && i > 0 &&
		bytes.HasPrefix(head[i+len(typeKey):], []byte(typeSessionMeta+`","payload":{`))
}
