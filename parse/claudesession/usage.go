package claudesession

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/internal/jsontext"
	"github.com/agentstream/agentstream/internal/wire/anthropic"
)

// Usage is what one assistant line of a session log says of the model
// call that wrote it: package usage counts model calls from these, dated
// by each line's own timestamp, without decoding the transcript into
// events.
type Usage struct {
	Time      time.Time
	SessionID string
	// AgentID is the subagent's id on a subagent's line ("" on the main
	// agent's).
	AgentID   string
	Sidechain bool
	MessageID string
	RequestID string
	Model     string // as written; "<synthetic>" for an API error Claude Code made up
	Cwd       string
	Version   string
	Tokens    event.Usage
	// CacheWrite1h is the part of Tokens.CacheWriteTokens written for an
	// hour (usage.cache_creation.ephemeral_1h_input_tokens), priced apart.
	CacheWrite1h int64
	// CostUSD is the line's own costUSD (older Claude Code versions wrote
	// one), nil when it has none.
	CostUSD *float64
	// Progress: the usage is of a subagent's message that an older Claude
	// Code version copied into its parent's log (a progress line's
	// data.message).
	Progress bool
}

// usageLine is the part of a line ReadUsage reads: the fields of line
// that say who, when and what, and the two line does not keep.
type usageLine struct {
	Type        string        `json:"type"`
	Timestamp   string        `json:"timestamp"`
	RequestID   string        `json:"requestId"`
	SessionID   string        `json:"sessionId"`
	AgentID     string        `json:"agentId"`
	IsSidechain bool          `json:"isSidechain"`
	Cwd         string        `json:"cwd"`
	Version     string        `json:"version"`
	Message     *usageMessage `json:"message"`
	CostUSD     *float64      `json:"costUSD"`
	Data        *struct {
		Message *usageLine `json:"message"`
	} `json:"data"`
}

// typeProgress is the line type older Claude Code versions wrote a
// subagent's progress with, its messages in data.message.
const typeProgress = "progress"

type usageMessage struct {
	ID    string      `json:"id"`
	Model string      `json:"model"`
	Usage *usageCount `json:"usage"`
}

// usageCount is a message's usage with its cache writes by duration,
// where the line gives them.
type usageCount struct {
	anthropic.Usage
	CacheCreation *struct {
		Ephemeral5m int64 `json:"ephemeral_5m_input_tokens"`
		Ephemeral1h int64 `json:"ephemeral_1h_input_tokens"`
	} `json:"cache_creation"`
}

// UnmarshalJSON decodes the usage as messages.Usage does (whose method the
// embedding would otherwise promote, leaving cache_creation unread) and
// the cache_creation breakdown.
func (u *usageCount) UnmarshalJSON(b []byte) error {
	if err := u.Usage.UnmarshalJSON(b); err != nil {
		return err
	}
	var c struct {
		CacheCreation json.RawMessage `json:"cache_creation"`
	}
	if err := json.Unmarshal(b, &c); err != nil || c.CacheCreation == nil {
		return err
	}
	return json.Unmarshal(c.CacheCreation, &u.CacheCreation)
}

// MaxUsageLine caps one line ReadUsage reads; a longer line is skipped
// (an assistant line of that size is a tool input, not a usage record).
const MaxUsageLine = 64 << 20

// usageMark is on every line that reports usage; lines without it are
// not decoded.
var usageMark = []byte(`"usage"`)

// ReadUsage reads a session log and calls fn with the usage of each
// assistant line that has one and a timestamp, in file order. Claude Code
// writes one line per content block, each with its message's usage: the
// lines of one message share MessageID and RequestID, and the caller
// counts them once. Lines of another shape are skipped; lines that report
// usage but are not JSON are skipped and reported once at the end, as an
// *event.ParseError at the first one's offset (a last line cut off while
// it was written is not one of them). Any other error is the reader's.
func ReadUsage(r io.Reader, fn func(*Usage)) error {
	br := bufio.NewReaderSize(r, 256<<10)
	var u Usage
	var ur usageReader
	var bad badLines
	var base int64 // the input offset of the buffer's first byte
	line := func(l []byte, at int64, last bool) {
		ok, isJSON := ur.usageOf(l, &u)
		if ok {
			fn(&u)
		} else if !isJSON && !last {
			bad.add(at)
		}
	}
	var long []byte
	for {
		// The whole lines in the buffer: only those holding usageMark
		// are looked at, found by one search for it.
		buf, err := br.Peek(br.Size())
		end := bytes.LastIndexByte(buf, '\n') + 1
		for pos := 0; pos < end; {
			i := bytes.Index(buf[pos:end], usageMark)
			if i < 0 {
				break
			}
			i += pos
			start := bytes.LastIndexByte(buf[pos:i], '\n') + 1 + pos
			stop := bytes.IndexByte(buf[i:end], '\n') + 1 + i
			line(buf[start:stop], base+int64(start), false)
			pos = stop
		}
		if _, derr := br.Discard(end); derr != nil {
			return derr
		}
		base += int64(end)
		switch {
		case err == nil || errors.Is(err, bufio.ErrBufferFull):
			if end > 0 {
				continue
			}
			// A line longer than the buffer.
			long = long[:0]
			for {
				part, err := br.ReadSlice('\n')
				if len(long) <= MaxUsageLine {
					long = append(long, part...)
				}
				if errors.Is(err, bufio.ErrBufferFull) {
					continue
				}
				if len(long) <= MaxUsageLine && bytes.Contains(long, usageMark) {
					line(long, base, err == io.EOF)
				}
				base += int64(len(long))
				if err == io.EOF {
					return bad.err()
				}
				if err != nil {
					return err
				}
				break
			}
		case err == io.EOF:
			// The last line, without a line end.
			if rest := buf[end:]; bytes.Contains(rest, usageMark) {
				line(rest, base, true) // cut off while it was written: not a bad line
			}
			return bad.err()
		default:
			return err
		}
	}
}

// usageReader reads usage lines, in one pass where jsontext.Reader can
// (the session fields that repeat from line to line interned).
type usageReader struct {
	jr       jsontext.Reader
	interned [4]string
}

// usageOf reads a line's usage into u; isJSON is false for a line that
// is not a JSON object of the line's shape.
func (ur *usageReader) usageOf(raw []byte, u *Usage) (ok, isJSON bool) {
	var l usageLine
	ur.jr.Reset(raw)
	if !ur.read(&l) || !ur.jr.End() {
		l = usageLine{}
		if json.Unmarshal(raw, &l) != nil {
			return false, false
		}
	}
	progress := false
	if l.Type == typeProgress && l.Data != nil && l.Data.Message != nil {
		top := l
		l = *l.Data.Message
		l.SessionID = cmp.Or(l.SessionID, top.SessionID)
		l.Cwd = cmp.Or(l.Cwd, top.Cwd)
		l.Version = cmp.Or(l.Version, top.Version)
		l.Timestamp = cmp.Or(l.Timestamp, top.Timestamp)
		progress = true
	}
	if l.Type != typeAssistant || l.Message == nil || l.Message.Usage == nil {
		return false, true
	}
	t, err := time.Parse(time.RFC3339Nano, l.Timestamp)
	if err != nil {
		return false, true
	}
	mu := l.Message.Usage
	if !mu.HasCounts() {
		return false, true // a usage of null counts gives none
	}
	*u = Usage{
		Time: t, SessionID: l.SessionID, AgentID: l.AgentID, Sidechain: l.IsSidechain,
		MessageID: l.Message.ID, RequestID: l.RequestID, Model: l.Message.Model,
		Cwd: l.Cwd, Version: l.Version, Tokens: *mu.Event(), CostUSD: l.CostUSD, Progress: progress,
	}
	if c := mu.CacheCreation; c != nil {
		// The breakdown is what the cache writes were; ccusage counts it
		// over cache_creation_input_tokens too.
		u.Tokens.CacheWriteTokens = c.Ephemeral5m + c.Ephemeral1h
		u.Tokens.Has |= event.HasCacheWrite
		u.CacheWrite1h = c.Ephemeral1h
	}
	return true, true
}

// badLines counts the lines with usage that are not JSON.
type badLines struct {
	n     int
	first int64
}

func (b *badLines) add(at int64) {
	if b.n == 0 {
		b.first = at
	}
	b.n++
}

// err is ReadUsage's error for the bad lines read, nil for none: the
// usage they report is not counted, the lines around them are.
func (b *badLines) err() error {
	if b.n == 0 {
		return nil
	}
	return &event.ParseError{Offset: b.first, Err: fmt.Errorf("%w: %d line(s) reporting usage are not JSON: their usage is not counted", event.ErrSyntax, b.n)}
}

// read decodes a line into l, which is zero, reading the fields of
// usageLine and skipping the others; false where encoding/json is left
// to decide (a key that matches a field only case-insensitively, a
// repeated message).
func (ur *usageReader) read(l *usageLine) bool {
	return ur.readObject(l, 0)
}

func (ur *usageReader) readObject(l *usageLine, depth int) bool {
	r := &ur.jr
	if !r.Object() {
		return false
	}
	for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
		switch string(key) {
		case "type":
			if !r.Null() {
				l.Type = lineType(r.Str())
			}
		case "timestamp":
			r.StringField(&l.Timestamp)
		case "requestId":
			r.StringField(&l.RequestID)
		case "sessionId":
			ur.intern(&l.SessionID, 0)
		case "agentId":
			ur.intern(&l.AgentID, 1)
		case "cwd":
			ur.intern(&l.Cwd, 2)
		case "version":
			ur.intern(&l.Version, 3)
		case "isSidechain":
			jsontext.ReadBool(r, &l.IsSidechain)
		case "costUSD":
			if l.CostUSD != nil {
				return false
			}
			if !r.Null() {
				v := r.Float()
				l.CostUSD = &v
			}
		case "data":
			if depth > 0 || l.Data != nil || r.Peek() != '{' {
				if r.Null() {
					continue
				}
				return false
			}
			l.Data = &struct {
				Message *usageLine `json:"message"`
			}{}
			r.Object()
			for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
				if string(key) != "message" {
					r.SkipField(key, func(name string) bool { return name == "message" })
					continue
				}
				if l.Data.Message != nil || r.Peek() != '{' {
					return false
				}
				l.Data.Message = new(usageLine)
				if !ur.readObject(l.Data.Message, depth+1) {
					return false
				}
			}
		case "message":
			if l.Message != nil {
				return false
			}
			if r.Null() {
				continue
			}
			m := &l.Message
			*m = &usageMessage{}
			if !r.Object() {
				return false
			}
			for key, ok := r.KeyFold(); ok; key, ok = r.KeyFold() {
				switch string(key) {
				case "id":
					r.StringField(&(*m).ID)
				case "model":
					r.StringField(&(*m).Model)
				case "usage":
					if r.Null() {
						(*m).Usage = nil
						continue
					}
					(*m).Usage = new(usageCount)
					readUsageCount(r, (*m).Usage)
				default:
					r.SkipField(key, isUsageMessageField)
				}
			}
		default:
			r.SkipField(key, isUsageLineField)
		}
	}
	return !r.Failed()
}

// readUsageCount reads a message's usage as messages.ReadUsage does, and
// its cache_creation breakdown.
func readUsageCount(r *jsontext.Reader, u *usageCount) {
	if !r.Object() {
		return
	}
	num := func(f *int64) {
		if !r.Null() {
			*f = r.Int()
		}
	}
	count := func(f *int64, c event.Counts) {
		if !r.Null() {
			*f = r.Int()
			u.Has |= c // as messages.ReadUsage marks a count given
		}
	}
	for key, ok := r.Key(); ok; key, ok = r.Key() {
		switch string(key) {
		case "input_tokens":
			count(&u.InputTokens, event.HasInput)
		case "output_tokens":
			count(&u.OutputTokens, event.HasOutput)
		case "cache_creation_input_tokens":
			count(&u.CacheCreationInputTokens, event.HasCacheWrite)
		case "cache_read_input_tokens":
			count(&u.CacheReadInputTokens, event.HasCacheRead)
		case "service_tier":
			r.StringField(&u.ServiceTier)
		case "cache_creation":
			if r.Null() {
				u.CacheCreation = nil
				continue
			}
			if u.CacheCreation != nil {
				r.Fail() // encoding/json would merge the two
				return
			}
			u.CacheCreation = &struct {
				Ephemeral5m int64 `json:"ephemeral_5m_input_tokens"`
				Ephemeral1h int64 `json:"ephemeral_1h_input_tokens"`
			}{}
			if !r.Object() {
				return
			}
			for key, ok := r.Key(); ok; key, ok = r.Key() {
				switch string(key) {
				case "ephemeral_5m_input_tokens":
					num(&u.CacheCreation.Ephemeral5m)
				case "ephemeral_1h_input_tokens":
					num(&u.CacheCreation.Ephemeral1h)
				default:
					r.Skip()
				}
			}
		default:
			r.Skip()
		}
	}
}

func (ur *usageReader) intern(s *string, slot int) {
	r := &ur.jr
	if r.Null() {
		return
	}
	if b := r.Str(); string(b) != ur.interned[slot] {
		ur.interned[slot] = string(b)
	}
	*s = ur.interned[slot]
}

func isUsageLineField(name string) bool {
	switch name {
	case "type", "timestamp", "requestid", "sessionid", "agentid", "cwd", "version", "issidechain", "message", "costusd", "data":
		return true
	}
	return false
}

func isUsageMessageField(name string) bool {
	switch name {
	case "id", "model", "usage":
		return true
	}
	return false
}

// IsSynthetic reports whether model is the one Claude Code names the
// messages it makes up to report an API error with.
func IsSynthetic(model string) bool { return model == syntheticModel }
