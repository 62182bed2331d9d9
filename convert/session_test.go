package convert_test

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/format"
)

// conversion is what converting one input gives: the output, the problems
// reported (in order) and the error that stopped it.
type conversion struct {
	Out      string
	Problems []string
	Err      string
}

// wholeConversion converts data read at once, as the convert command does:
// detect, pipe, and the encoder's end only for an input with an event.
func wholeConversion(data []byte, to convert.Format) conversion {
	var c conversion
	var out bytes.Buffer
	br := bufio.NewReaderSize(bytes.NewReader(data), 64<<10)
	from, _, err := convert.Detect(br)
	if err != nil {
		c.Err = err.Error()
		return c
	}
	cut := false
	problem := func(err error) bool {
		cut = cut || errors.Is(err, event.ErrTruncated)
		c.Problems = append(c.Problems, err.Error())
		return true
	}
	dec := &countingDec{dec: from.NewDecoder(br, &format.Options{Source: "in"})}
	enc := to.NewEncoder(&out, &format.Options{})
	err = convert.Pipe(dec, enc, &convert.PipeOptions{Problem: problem})
	if err == nil && dec.n > 0 {
		// A cut input stays cut (event.End), reported once, by the
		// decoder.
		if cerr := event.End(enc, cut); cerr != nil && (!cut || !errors.Is(cerr, event.ErrTruncated)) {
			problem(cerr)
		}
	}
	if err != nil {
		c.Err = err.Error()
	}
	c.Out = out.String()
	return c
}

type countingDec struct {
	dec event.Decoder
	n   int
}

func (d *countingDec) Next() (event.Event, error) {
	ev, err := d.dec.Next()
	if _, unknown := ev.(*event.Unknown); err == nil && !unknown {
		d.n++
	}
	return ev, err
}

// sessionConversion converts data through a Session, pushed in the pieces
// split cuts it into.
func sessionConversion(data []byte, to convert.Format, split func(rest []byte) int) conversion {
	var c conversion
	var out bytes.Buffer
	s := convert.NewSession(&out, &convert.SessionOptions{
		To:      to,
		Decode:  &format.Options{Source: "in"},
		Problem: func(err error) bool { c.Problems = append(c.Problems, err.Error()); return true },
	})
	var err error
	for rest := data; len(rest) > 0 && err == nil; {
		n := min(max(split(rest), 1), len(rest))
		_, err = s.Write(rest[:n])
		rest = rest[n:]
		if err == io.EOF {
			// The decoder ended the input in-band: it reads no
			// further, as when reading the whole input.
			err = nil
			break
		}
	}
	if cerr := s.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		c.Err = err.Error()
	}
	c.Out = out.String()
	return c
}

// sessionInputs returns every file of testdata/ and ../shared/corpus/
// (when it is there) but the test scripts, the READMEs and the model text
// of the inline tool protocols: recordings of every format, hand-made bad
// inputs too. The text formats (detected by a guess) make a text delta of
// each piece of text they are given, so their output depends on how the
// input is cut (as it does for convert reading a pipe); what they write
// is the same text.
func sessionInputs(t *testing.T) map[string][]byte {
	t.Helper()
	inputs := map[string][]byte{}
	for _, root := range []string{"../testdata", "../../shared/corpus"} {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if errors.Is(err, fs.ErrNotExist) && path == root {
				return fs.SkipDir
			}
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "script" {
				return fs.SkipDir
			}
			if d.IsDir() || strings.HasSuffix(path, ".md") {
				return nil
			}
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			if _, guessed, _ := convert.Detect(bufio.NewReader(bytes.NewReader(b))); !guessed {
				inputs[path] = b
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	if len(inputs) == 0 {
		t.Fatal("no recordings found")
	}
	return inputs
}

// TestSessionAnySplit: a Session's output, problems and error are the
// same as converting the whole input, at every split tried: one byte at a
// time, small and odd pieces, random pieces, and pieces at line ends
// (one message of a stream engine each). Each input goes to one output
// format, in turn, so that every encoder is covered.
func TestSessionAnySplit(t *testing.T) {
	t.Parallel()
	var targets []convert.Format
	for _, f := range convert.Formats() {
		if f.NewEncoder != nil {
			targets = append(targets, f)
		}
	}
	inputs := sessionInputs(t)
	paths := make([]string, 0, len(inputs))
	for p := range inputs {
		paths = append(paths, p)
	}
	var mu sync.Mutex
	converted := 0
	slices.Sort(paths)
	for i, path := range paths {
		data := inputs[path]
		to := targets[i%len(targets)]
		t.Run(fmt.Sprintf("%s/%s", path, to.Name), func(t *testing.T) {
			t.Parallel()
			want := wholeConversion(data, to)
			seed := uint64(len(data))
			rng := rand.New(rand.NewPCG(seed, uint64(i)))
			rng2 := rand.New(rand.NewPCG(seed, uint64(i)+1))
			splits := map[string]func([]byte) int{
				// One byte at a time over the first KiB (detection,
				// the first lines), then random pieces: a whole file
				// byte by byte costs minutes under -race.
				"1": func(rest []byte) int {
					if len(data)-len(rest) < 1<<10 {
						return 1
					}
					return 1 + rng.IntN(200)
				},
				"7":      func([]byte) int { return 7 },
				"64":     func([]byte) int { return 64 },
				"random": func([]byte) int { return 1 + rng2.IntN(200) },
				"lines": func(rest []byte) int {
					if i := bytes.IndexByte(rest, '\n'); i >= 0 {
						return i + 1
					}
					return len(rest)
				},
			}
			for name, split := range splits {
				got := sessionConversion(data, to, split)
				if diff := cmp.Diff(want, got); diff != "" {
					t.Errorf("split %s: session differs from the whole conversion (-whole +session):\n%s", name, diff)
				}
			}
			mu.Lock()
			converted++
			mu.Unlock()
		})
	}
	t.Cleanup(func() {
		if converted < 100 {
			t.Errorf("only %d inputs converted", converted)
		}
	})
}

// TestSessionEnd: an End that accepts an event ends the input there: the
// output is complete, Done is true, and the session takes nothing more.
func TestSessionEnd(t *testing.T) {
	t.Parallel()
	to, _ := convert.Lookup("jsonenv")
	from, _ := convert.Lookup("claude")
	data, err := os.ReadFile("../testdata/claude/tooluse.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	var out bytes.Buffer
	s := convert.NewSession(&out, &convert.SessionOptions{
		From: from, To: to,
		End: func(ev event.Event) bool { _, ok := ev.(*event.RunEnd); return ok },
	})
	for line := range bytes.Lines(data) {
		if s.Done() {
			t.Fatal("done before the result line")
		}
		if _, err := s.Write(line); err != nil {
			t.Fatal(err)
		}
	}
	if !s.Done() {
		t.Fatal("not done after the result line")
	}
	if !strings.HasSuffix(out.String(), "data: [DONE]\n\n") {
		t.Errorf("output does not end with [DONE]: %q", out.String()[max(0, out.Len()-100):])
	}
	before := out.Len()
	if _, err := s.Write([]byte("{}\n")); err == nil {
		t.Error("Write after the end: no error")
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if out.Len() != before {
		t.Errorf("Close after the end wrote %q", out.String()[before:])
	}
}

// TestSessionStops: with no Problem function the first problem stops the
// session, and every later Write and Close return it.
func TestSessionStops(t *testing.T) {
	t.Parallel()
	to, _ := convert.Lookup("jsonenv")
	from, _ := convert.Lookup("claude")
	var out bytes.Buffer
	s := convert.NewSession(&out, &convert.SessionOptions{From: from, To: to, Decode: &format.Options{Source: "run"}})
	_, err := s.Write([]byte("{not json\n"))
	var perr *event.ParseError
	if !errors.As(err, &perr) {
		t.Fatalf("Write of a bad line: %v, want a *event.ParseError", err)
	}
	if _, err2 := s.Write([]byte(`{"type":"system"}` + "\n")); err2 != err {
		t.Errorf("later Write: %v, want %v", err2, err)
	}
	if cerr := s.Close(); cerr != err {
		t.Errorf("Close: %v, want %v", cerr, err)
	}
}

// TestSessionConcurrentWrites: Writes from several goroutines are taken
// in turn (run with -race).
func TestSessionConcurrentWrites(t *testing.T) {
	t.Parallel()
	to, _ := convert.Lookup("jsonenv")
	from, _ := convert.Lookup("jsonenv")
	var out bytes.Buffer
	s := convert.NewSession(&out, &convert.SessionOptions{From: from, To: to, Encode: &format.Options{Framing: "ndjson"}})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 50 {
				if _, err := s.Write([]byte(`data: {"type":"text","agent":"a","final":false,"delta":"x"}` + "\n\n")); err != nil {
					t.Error(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if _, err := s.Write([]byte(`data: {"type":"text","agent":"a","final":true,"delta":""}` + "\n\ndata: [DONE]\n\n")); err != nil {
		t.Fatal(err)
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got, want := strings.Count(out.String(), `"delta":"x"`), 200; got != want {
		t.Errorf("%d deltas written, want %d", got, want)
	}
}

// FuzzSession: for any input (not read by a guess) and any cuts, a
// Session writes what converting the whole input writes, reports the same
// problems and never panics.
func FuzzSession(f *testing.F) {
	files, _ := filepath.Glob("../testdata/*/*")
	for _, name := range files {
		if strings.HasSuffix(name, ".md") {
			continue
		}
		if b, err := os.ReadFile(name); err == nil {
			f.Add(b[:min(len(b), 4096)], uint64(len(b)))
		}
	}
	f.Add([]byte("data: {\"type\":\"text\"}\n\n"), uint64(1))
	var targets []convert.Format
	for _, fm := range convert.Formats() {
		if fm.NewEncoder != nil {
			targets = append(targets, fm)
		}
	}
	f.Fuzz(func(t *testing.T, in []byte, seed uint64) {
		if _, guessed, _ := convert.Detect(bufio.NewReader(bytes.NewReader(in))); guessed {
			return // the text formats' deltas follow the cuts (sessionInputs)
		}
		to := targets[seed%uint64(len(targets))]
		rng := rand.New(rand.NewPCG(seed, uint64(len(in))))
		want := wholeConversion(in, to)
		got := sessionConversion(in, to, func([]byte) int { return 1 + rng.IntN(32) })
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("to %s: session differs from the whole conversion (-whole +session):\n%s", to.Name, diff)
		}
	})
}

// TestSessionStreamsHeldText: a Session's input is live (Write hands over
// what has arrived), so the text of a source that may abandon it leaves
// before Write returns, for a target that cannot mark an abandon too, as
// Write promises; convert.AbandonHold holds it only until the input waits.
func TestSessionStreamsHeldText(t *testing.T) {
	t.Parallel()
	for _, to := range []string{"openai-chat", "aisdk", "openai-responses"} {
		t.Run(to, func(t *testing.T) {
			t.Parallel()
			f, ok := convert.Lookup(to)
			if !ok {
				t.Fatalf("no format %s", to)
			}
			var out bytes.Buffer
			s := convert.NewSession(&out, &convert.SessionOptions{To: f, Decode: &format.Options{Source: "in"}})
			defer s.Close()
			for _, msg := range []string{
				`{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}`,
				`{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}`,
				`{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Streamed"}}`,
			} {
				if _, err := s.Write([]byte("data: " + msg + "\n\n")); err != nil {
					t.Fatal(err)
				}
			}
			if !strings.Contains(out.String(), "Streamed") {
				t.Errorf("after the delta's Write, the output is %q: its text is held", out.String())
			}
		})
	}
}

// TestSessionStopWritesHeld: a Session stopped by a problem (Problem
// returns false) writes what it read before it, the text of a source that
// may abandon it too, for a target that cannot mark an abandon.
func TestSessionStopWritesHeld(t *testing.T) {
	t.Parallel()
	f, _ := convert.Lookup("openai-chat")
	var out bytes.Buffer
	s := convert.NewSession(&out, &convert.SessionOptions{
		To: f, Decode: &format.Options{Source: "in"},
		Problem: func(error) bool { return false },
	})
	in := "data: " + `{"type":"message_start","message":{"id":"msg_1","type":"message","role":"assistant","model":"m","content":[],"stop_reason":null,"stop_sequence":null,"usage":{"input_tokens":5,"output_tokens":1}}}` + "\n\n" +
		"data: " + `{"type":"content_block_start","index":0,"content_block":{"type":"text","text":""}}` + "\n\n" +
		"data: " + `{"type":"content_block_delta","index":0,"delta":{"type":"text_delta","text":"Read"}}` + "\n\n" +
		"data: {\"type\":\"content_block_delta\",\n\n"
	if _, err := s.Write([]byte(in)); err == nil {
		t.Error("Write of a bad message: no error")
	}
	if err := s.Close(); err == nil {
		t.Error("Close: no error")
	}
	if !strings.Contains(out.String(), `"content":"Read"`) {
		t.Errorf("output %q lacks the text read before the stop", out.String())
	}
}
