package serve

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"

	"github.com/agentstream/agentstream/event"
)

// File is a fixtures file: the fixtures in the order they are tried.
type File struct {
	Fixtures []Fixture `json:"fixtures"`
}

// Fixture is one entry of a fixtures file: when to answer with which
// recording, and how.
type Fixture struct {
	Match Match `json:"match"`
	// Recording is the recording's file name, relative to the fixtures
	// file's directory; its timing sidecar is Recording + ".timing" when
	// that exists.
	Recording string `json:"recording"`
	// To is the format to serve the recording in ("" for the recorded
	// bytes): a format name of 'agentstream formats' that is written.
	To string `json:"to,omitempty"`
	// Framing is "sse" or "ndjson", for the formats written either way.
	Framing string `json:"framing,omitempty"`
	// Timing is "recorded" (play at the recorded pace) or "none"; ""
	// for recorded when the recording has timing, none when not.
	Timing string `json:"timing,omitempty"`
}

// Match holds a fixture's conditions; absent ones hold for any request.
type Match struct {
	Method            string  `json:"method,omitempty"`
	Path              string  `json:"path,omitempty"`
	UserMessage       *string `json:"userMessage,omitempty"`
	UserMessageRegexp string  `json:"userMessageRegexp,omitempty"`
	Call              *int    `json:"call,omitempty"`
}

// Timing values of a fixture.
const (
	TimingRecorded = "recorded"
	TimingNone     = "none"
)

// maxFixturesBytes caps a fixtures file.
const maxFixturesBytes = 16 << 20

// ReadFile reads and checks the fixtures file name.
func ReadFile(name string) (*File, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	b, err := io.ReadAll(io.LimitReader(f, maxFixturesBytes+1))
	if err != nil {
		return nil, err
	}
	if len(b) > maxFixturesBytes {
		return nil, fmt.Errorf("%s: a fixtures file is at most %d bytes", name, maxFixturesBytes)
	}
	return Parse(name, b)
}

// Parse parses and checks a fixtures file's contents, named name in
// errors.
func Parse(name string, b []byte) (*File, error) {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields() // our own format: a misspelt condition must not hold for every request
	var file File
	if err := dec.Decode(&file); err != nil {
		return nil, positioned(name, b, dec.InputOffset(), err)
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, positioned(name, b, dec.InputOffset(), errors.New("more after the fixtures object"))
	}
	if file.Fixtures == nil {
		return nil, fmt.Errorf("%s: no \"fixtures\" list", name)
	}
	for i, fx := range file.Fixtures {
		if err := fx.check(); err != nil {
			return nil, fmt.Errorf("%s: fixture %d: %w", name, i+1, err)
		}
	}
	return &file, nil
}

// positioned places err at a byte offset of b: the error's own offset for
// a JSON syntax or type error, off otherwise.
func positioned(name string, b []byte, off int64, err error) error {
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		off = se.Offset - 1 // the offset after the byte at fault
	case errors.As(err, &te):
		off = te.Offset - 1
	case errors.Is(err, io.EOF):
		err = errors.New("empty file")
	default:
		// json says which field it does not know, not where: the
		// first key of that name is.
		if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
			re := regexp.MustCompile(regexp.QuoteMeta(name) + `\s*:`)
			if loc := re.FindIndex(b); loc != nil {
				off = int64(loc[0])
			}
		}
	}
	off = min(max(off, 0), int64(len(b)))
	line := 1 + bytes.Count(b[:off], []byte("\n"))
	col := 1 + int(off) - (bytes.LastIndexByte(b[:off], '\n') + 1)
	return &event.ParseError{Source: name, Line: line, Column: col, Offset: off, Err: err}
}

func (fx *Fixture) check() error {
	m := fx.Match
	switch {
	case fx.Recording == "":
		return errors.New("no recording")
	case m.Path != "" && !strings.HasPrefix(m.Path, "/"):
		return fmt.Errorf("path %q does not start with /", m.Path)
	case m.Call != nil && *m.Call < 1:
		return fmt.Errorf("call %d: calls count from 1", *m.Call)
	case fx.Framing != "" && fx.Framing != "sse" && fx.Framing != "ndjson":
		return fmt.Errorf("framing %q: sse or ndjson", fx.Framing)
	case fx.Framing != "" && fx.To == "":
		return errors.New("framing applies with to")
	case fx.Timing != "" && fx.Timing != TimingRecorded && fx.Timing != TimingNone:
		return fmt.Errorf("timing %q: recorded or none", fx.Timing)
	}
	if m.UserMessageRegexp != "" {
		if _, err := regexp.Compile(m.UserMessageRegexp); err != nil {
			return fmt.Errorf("userMessageRegexp: %w", err)
		}
	}
	return nil
}

// Request is what a fixture's conditions are tested against.
type Request struct {
	Method string
	Path   string
	// UserMessage is the text of the last user message of the body;
	// HasUserMessage is false when the body holds none.
	UserMessage    string
	HasUserMessage bool
}

// Matcher finds the fixture that answers a request. It counts requests,
// for the fixtures' call conditions; it is safe for concurrent use.
type Matcher struct {
	fixtures []Fixture
	res      []*regexp.Regexp

	mu     sync.Mutex
	counts []int            // by fixture: requests that met its other conditions
	asked  map[[32]byte]int // by request (method, path, user message): requests so far
}

// maxAsked caps the distinct requests whose calls a Matcher counts for
// Match's call result.
const maxAsked = 4096

// NewMatcher returns a matcher of the checked fixtures fs.
func NewMatcher(fs []Fixture) *Matcher {
	m := &Matcher{fixtures: fs, res: make([]*regexp.Regexp, len(fs)), counts: make([]int, len(fs)), asked: map[[32]byte]int{}}
	for i, fx := range fs {
		if fx.Match.UserMessageRegexp != "" {
			m.res[i] = regexp.MustCompile(fx.Match.UserMessageRegexp)
		}
	}
	return m
}

// Match returns the index of the first fixture whose conditions req meets,
// or -1, and call: the number of requests with req's method, path and user
// message so far, this one included (0 once the matcher has counted
// maxAsked distinct requests and req is a new one).
func (m *Matcher) Match(req Request) (fixture, call int) {
	m.mu.Lock()
	defer m.mu.Unlock()
	h := sha256.New()
	fmt.Fprintf(h, "%s\x00%s\x00%t\x00%s", req.Method, req.Path, req.HasUserMessage, req.UserMessage)
	var key [32]byte
	h.Sum(key[:0])
	if n, ok := m.asked[key]; ok || len(m.asked) < maxAsked {
		call = n + 1
		m.asked[key] = call
	}
	fixture = -1
	for i := range m.fixtures {
		if !m.meets(i, req) {
			continue
		}
		m.counts[i]++
		if c := m.fixtures[i].Match.Call; fixture < 0 && (c == nil || *c == m.counts[i]) {
			fixture = i
		}
	}
	return fixture, call
}

// meets reports whether req meets fixture i's conditions other than call.
func (m *Matcher) meets(i int, req Request) bool {
	c := m.fixtures[i].Match
	switch {
	case c.Method != "" && !strings.EqualFold(c.Method, req.Method):
		return false
	case c.Path != "" && c.Path != req.Path:
		return false
	case (c.UserMessage != nil || m.res[i] != nil) && !req.HasUserMessage:
		return false
	case c.UserMessage != nil && !strings.Contains(req.UserMessage, *c.UserMessage):
		return false
	case m.res[i] != nil && !m.res[i].MatchString(req.UserMessage):
		return false
	}
	return true
}
