package serve

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
	"github.com/agentstream/agentstream/recording"
)

// Options configure a Server. The zero value serves recordings at their
// recorded pace, as recorded or in the format each fixture names.
type Options struct {
	// Timing plays the recordings served at their recorded pace (Speed,
	// MaxGap), or at another (NoDelay, Interval, for every recording).
	Timing recording.Timing
	// To is the format to serve a recording in when its fixture names
	// none, and in a directory ("" for the recorded bytes); Framing is
	// its framing, for the formats written either way.
	To, Framing string
	// From is the format of the recordings ("" or "auto" to detect it
	// from each recording's first event).
	From string
	// Decode and Encode are the options of the decoders and encoders a
	// recording is converted with (Source, Framing and Warn are set per
	// recording).
	Decode, Encode format.Options
	// Lookup returns the format to convert to by name (convert.Lookup
	// when nil).
	Lookup func(name string) (convert.Format, bool)
	// Warn is told of each problem in a recording served and of what its
	// target format cannot carry, once per message, one call at a time.
	Warn func(error)
	// MaxBodyBytes caps a request body (event.DefaultMaxBytes when 0).
	MaxBodyBytes int64
}

// Server answers HTTP requests with recordings: the fixture a request
// matches, or the recording of a directory its path names.
type Server struct {
	o        Options
	fixtures []*fixture // fixtures mode
	matcher  *Matcher
	root     *os.Root // directory mode

	mu     sync.Mutex
	warned map[string]bool
}

// maxWarned caps the distinct warnings a server remembers having given.
const maxWarned = 1024

// fixture is a recording ready to serve, and how.
type fixture struct {
	name    string // the recording, as named in errors
	open    func(name string) (*os.File, error)
	path    string // what open opens
	from    convert.Format
	to      *convert.Format
	framing string // the output's framing, with to
	timing  recording.Timing
	media   Media
}

func (o *Options) lookup(name string) (convert.Format, bool) {
	if o.Lookup != nil {
		return o.Lookup(name)
	}
	return convert.Lookup(name)
}

// New returns a server of the fixtures file, whose recordings are
// checked now: each must exist, be playable as its fixture says and, to
// be converted, be in a format agentstream reads.
func New(fixturesFile string, o *Options) (*Server, error) {
	file, err := ReadFile(fixturesFile)
	if err != nil {
		return nil, err
	}
	s := newServer(o)
	dir := filepath.Dir(fixturesFile)
	for i, f := range file.Fixtures {
		path := f.Recording
		if !filepath.IsAbs(path) {
			path = filepath.Join(dir, path)
		}
		fx, err := s.prepare(f, path, os.Open)
		if err != nil {
			return nil, fmt.Errorf("%s: fixture %d: %w", fixturesFile, i+1, err)
		}
		s.fixtures = append(s.fixtures, fx)
	}
	s.matcher = NewMatcher(file.Fixtures)
	return s, nil
}

// NewDir returns a server of the recordings in dir: /NAME serves the
// recording NAME. A recording is checked when it is asked for.
func NewDir(dir string, o *Options) (*Server, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	s := newServer(o)
	s.root = root
	return s, nil
}

func newServer(o *Options) *Server {
	s := &Server{warned: map[string]bool{}}
	if o != nil {
		s.o = *o
	}
	if s.o.MaxBodyBytes <= 0 {
		s.o.MaxBodyBytes = event.DefaultMaxBytes
	}
	return s
}

// Close releases the directory a server of a directory holds open.
func (s *Server) Close() error {
	if s.root != nil {
		return s.root.Close()
	}
	return nil
}

// prepare checks the recording of f at path and works out how to serve it.
func (s *Server) prepare(f Fixture, path string, open func(string) (*os.File, error)) (*fixture, error) {
	fx := &fixture{name: f.Recording, open: open, path: path}
	to, framing := f.To, f.Framing
	if to == "" {
		to, framing = s.o.To, s.o.Framing
	}
	if framing == "" {
		framing = "sse"
	}
	p, closeRec, err := fx.player()
	if err != nil {
		return nil, err
	}
	defer closeRec()
	recFraming, err := p.Framing()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", fx.name, err)
	}
	timed, _ := p.Timed()
	fx.timing = s.o.Timing
	switch {
	case f.Timing == TimingNone || (f.Timing == "" && !timed):
		fx.timing = recording.Timing{NoDelay: true}
	case !timed && !fx.timing.NoDelay && fx.timing.Interval == 0:
		return nil, fmt.Errorf("%s: the recording has no timing (use \"timing\": \"none\")", fx.name)
	}
	// Detection reads the first event, as convert does.
	rc := recording.Reader(context.Background(), p, recording.Timing{NoDelay: true})
	from, _, derr := convert.Detect(bufio.NewReader(rc))
	rc.Close()
	if s.o.From != "" && s.o.From != "auto" {
		f, ok := convert.Lookup(s.o.From)
		if !ok || f.NewDecoder == nil {
			return nil, fmt.Errorf("unknown input format %q (one of %s)", s.o.From, strings.Join(convert.Names(true), ", "))
		}
		from, derr = f, nil
	}
	if derr == nil {
		fx.from = from
	}
	if to == "" {
		fx.media = LookupMedia(from.Format, recFraming)
		return fx, nil
	}
	out, ok := s.o.lookup(to)
	if !ok || out.NewEncoder == nil {
		return nil, fmt.Errorf("unknown output format %q (one of %s)", to, strings.Join(convert.Names(false), ", "))
	}
	if derr != nil {
		return nil, fmt.Errorf("%s: %w", fx.name, derr)
	}
	fx.to, fx.framing = &out, framing
	fx.media = LookupMedia(out.Format, framing)
	return fx, nil
}

// player opens the recording and its sidecar.
func (fx *fixture) player() (*recording.Player, func(), error) {
	rec, err := fx.open(fx.path)
	if err != nil {
		return nil, nil, err
	}
	if st, err := rec.Stat(); err == nil && st.IsDir() {
		rec.Close()
		return nil, nil, fmt.Errorf("%s is a directory", fx.name)
	}
	side, err := fx.open(fx.path + ".timing")
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return recording.NewPlayer(rec, nil), func() { rec.Close() }, nil
	case err != nil:
		rec.Close()
		return nil, nil, err
	}
	return recording.NewPlayer(rec, side), func() { rec.Close(); side.Close() }, nil
}

// requestError is the JSON body of a request that is not answered with a
// recording.
type requestError struct {
	Error       string  `json:"error"`
	Method      string  `json:"method"`
	Path        string  `json:"path"`
	UserMessage *string `json:"userMessage"`
	Call        int     `json:"call,omitempty"`
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, _ := json.Marshal(v)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	w.Write(append(b, '\n'))
}

// ServeHTTP answers a request with the recording its fixture names or its
// path names, or 404 with a JSON body naming what was asked.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, s.o.MaxBodyBytes))
	if err != nil {
		code := http.StatusBadRequest
		if _, ok := errors.AsType[*http.MaxBytesError](err); ok {
			code = http.StatusRequestEntityTooLarge
		}
		writeJSON(w, code, requestError{Error: "reading the request body: " + err.Error(), Method: r.Method, Path: r.URL.Path})
		return
	}
	req := Request{Method: r.Method, Path: r.URL.Path}
	req.UserMessage, req.HasUserMessage = LastUserMessage(body)
	asked := requestError{Method: req.Method, Path: req.Path}
	if req.HasUserMessage {
		asked.UserMessage = &req.UserMessage
	}
	var fx *fixture
	if s.root != nil {
		fx, err = s.dirFixture(req.Path)
		if errors.Is(err, fs.ErrNotExist) {
			asked.Error = "no recording at this path"
			writeJSON(w, http.StatusNotFound, asked)
			return
		}
	} else {
		i, call := s.matcher.Match(req)
		if i < 0 {
			asked.Error, asked.Call = "no fixture matches the request", call
			writeJSON(w, http.StatusNotFound, asked)
			return
		}
		fx = s.fixtures[i]
	}
	if err != nil {
		asked.Error = err.Error()
		writeJSON(w, http.StatusInternalServerError, asked)
		return
	}
	s.play(w, r, fx)
}

// dirFixture returns the recording of the directory the path names: one
// file of it, not a timing sidecar.
func (s *Server) dirFixture(path string) (*fixture, error) {
	name := strings.TrimPrefix(path, "/")
	if name == "" || strings.Contains(name, "/") || strings.HasSuffix(name, ".timing") || !fs.ValidPath(name) {
		return nil, fs.ErrNotExist
	}
	if st, err := s.root.Stat(name); err != nil || !st.Mode().IsRegular() {
		return nil, fs.ErrNotExist
	}
	return s.prepare(Fixture{Recording: name}, name, s.root.Open)
}

// play writes the recording of fx to w.
func (s *Server) play(w http.ResponseWriter, r *http.Request, fx *fixture) {
	p, closeRec, err := fx.player()
	if err != nil {
		writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
		return
	}
	defer closeRec()
	h := w.Header()
	for k, v := range fx.media.Header {
		h[k] = slices.Clone(v) // the table's own stays as it is
	}
	h.Set("Content-Type", fx.media.ContentType)
	h.Set("Cache-Control", "no-cache")
	h.Set("X-Accel-Buffering", "no")
	rc := http.NewResponseController(w)
	w.WriteHeader(http.StatusOK)
	if rc.Flush() != nil { // the headers, before the first wait
		return
	}
	ctx := r.Context()
	if fx.to == nil {
		err = recording.Play(ctx, p, fx.timing, func(c recording.Chunk) error {
			if _, err := w.Write(c.Data); err != nil {
				return err
			}
			return rc.Flush()
		})
	} else {
		err = s.convert(ctx, w, rc.Flush, fx, p)
	}
	if err != nil && ctx.Err() == nil {
		s.warn(fmt.Errorf("%s: %w", fx.name, err))
	}
}

// convert plays the recording of fx through its decoder and the encoder
// of fx.to, as replay --to does: each event is written when the recorded
// bytes that complete it are played.
func (s *Server) convert(ctx context.Context, w io.Writer, flush func() error, fx *fixture, p *recording.Player) error {
	rc := recording.Reader(ctx, p, fx.timing)
	defer rc.Close()
	bw := bufio.NewWriterSize(w, 64<<10)
	var enc event.Encoder
	flushAll := func() error {
		if err := convert.FlushEncoder(enc); err != nil {
			return err
		}
		if err := bw.Flush(); err != nil {
			return err
		}
		return flush()
	}
	do := s.o.Decode
	do.Source, do.Warn = fx.name, s.warn
	dec := &countingDecoder{dec: fx.from.NewDecoder(bufio.NewReaderSize(convert.FlushOnIdle(rc, flushAll), 64<<10), &do)}
	eo := s.o.Encode
	eo.Framing, eo.Warn = fx.framing, s.warn
	// What the source abandons is dropped for a target that cannot mark
	// it (convert.AbandonHold).
	hold := convert.HoldAbandoned(fx.to.NewEncoder(bw, &eo), fx.from.Format, *fx.to, s.warn)
	// Played with its timing, the recording is a live input: what the
	// hold keeps leaves whenever the player waits (flushAll).
	hold.SetLive(!fx.timing.NoDelay)
	enc = hold
	cut := false // the recording was cut off
	err := convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(err error) bool {
		cut = cut || errors.Is(err, event.ErrTruncated)
		s.warn(err)
		return true
	}})
	if err == nil && dec.n > 0 {
		// The end marker is written only for a recording played to its
		// end that held events of its format, and a cut recording stays
		// cut, as convert writes it (event.End).
		if cerr := event.End(enc, cut); cerr != nil && (!cut || !errors.Is(cerr, event.ErrTruncated)) {
			s.warn(cerr)
		}
	}
	if ferr := flushAll(); err == nil {
		err = ferr
	}
	return err
}

// countingDecoder counts the events of the format read (not
// event.Unknown).
type countingDecoder struct {
	dec event.Decoder
	n   int
}

func (c *countingDecoder) Next() (event.Event, error) {
	ev, err := c.dec.Next()
	if _, unknown := ev.(*event.Unknown); err == nil && !unknown {
		c.n++
	}
	return ev, err
}

// warn hands err to Options.Warn the first time its message is seen (of
// the first maxWarned messages: later ones are not given).
func (s *Server) warn(err error) {
	if s.o.Warn == nil {
		return
	}
	msg := err.Error()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.warned[msg] || len(s.warned) >= maxWarned {
		return
	}
	s.warned[msg] = true
	s.o.Warn(err)
}
