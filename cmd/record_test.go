package cmd

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentstream/agentstream/recording"
)

// faults makes the n-th file system operation of a recording fail (none
// when n is 0), as a full disk, a read-only directory or a failing close
// do, and lists the operations.
type faults struct {
	n   int
	ops []string
}

var errDiskFull = fmt.Errorf("write: %w", syscall.ENOSPC)

func (fl *faults) op(what string) error {
	fl.ops = append(fl.ops, what)
	if len(fl.ops) == fl.n {
		return errDiskFull
	}
	return nil
}

func (fl *faults) options() *recording.FileOptions {
	return &recording.FileOptions{
		Create: func(name string, perm fs.FileMode) (recording.WriteFile, error) {
			if err := fl.op("create " + filepath.Base(name)); err != nil {
				return nil, err
			}
			f, err := os.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
			if err != nil {
				return nil, err
			}
			return &faultFile{f: f, fl: fl, name: filepath.Base(name)}, nil
		},
		Rename: func(oldname, newname string) error {
			if err := fl.op("rename " + filepath.Base(oldname)); err != nil {
				return err
			}
			return os.Rename(oldname, newname)
		},
		Remove: func(name string) error {
			if err := fl.op("remove " + filepath.Base(name)); err != nil {
				return err
			}
			return os.Remove(name)
		},
	}
}

type faultFile struct {
	f    *os.File
	fl   *faults
	name string
}

func (f *faultFile) Write(p []byte) (int, error) {
	if err := f.fl.op("write " + f.name); err != nil {
		return 0, err
	}
	return f.f.Write(p)
}

func (f *faultFile) Sync() error {
	if err := f.fl.op("sync " + f.name); err != nil {
		return err
	}
	return f.f.Sync()
}

func (f *faultFile) Close() error {
	err := f.f.Close()
	if ferr := f.fl.op("close " + f.name); ferr != nil {
		return ferr
	}
	return err
}

// An earlier run's recording and sidecar, which no failure may damage.
const (
	oldRecording = "{\"old\":1}\n{\"old\":2}\n"
	oldTiming    = "agentstream-timing v1\n1 0\n2 5\n"
)

var recordInputs = []struct{ name, input string }{
	{"sse", sampleRun},
	{"ndjson", "{\"a\":1}\n{\"b\":2}\n{\"c\":3}\n"},
}

// readOrNone returns a file's contents, or "<none>".
func readOrNone(name string) string {
	b, err := os.ReadFile(name)
	if err != nil {
		return "<none>"
	}
	return string(b)
}

// recordWith records input over an earlier recording in a new directory,
// with the file system operations of fl, and returns the output's name
// and runRecord's error.
func recordWith(t *testing.T, ctx context.Context, input io.Reader, fl *faults) (string, *bytes.Buffer, error) {
	t.Helper()
	output := filepath.Join(t.TempDir(), "run")
	writeFile(t, output, oldRecording)
	writeFile(t, output+".timing", oldTiming)
	// A fixed clock: the recordings of one input compare byte for byte
	// however loaded the machine is.
	epoch := time.Unix(1_700_000_000, 0)
	o := &recordOptions{output: output, maxEventBytes: 1 << 20, file: fl.options(), now: func() time.Time { return epoch }}
	var errb bytes.Buffer
	err := runRecord(ctx, &IOStreams{In: input, Out: io.Discard, Err: &errb}, o, "-")
	return output, &errb, err
}

func writeFile(t *testing.T, name, text string) {
	t.Helper()
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// playable checks that the recording name, with its sidecar if it has
// one, plays to its end, giving want.
func playable(t *testing.T, name, want string) {
	t.Helper()
	var out bytes.Buffer
	code := Run(t.Context(), []string{"replay", "--no-delay", name}, &IOStreams{In: strings.NewReader(""), Out: &out, Err: io.Discard})
	if code != 0 || out.String() != want {
		t.Errorf("replay %s: exit %d, %q; want %q", filepath.Base(name), code, out.String(), want)
	}
}

// TestRecordFailsAtEveryStep makes each file system operation of a
// recording fail in turn, over an earlier recording: the command fails,
// and the earlier recording and its sidecar are whole, unless the new
// recording was saved whole before the failure; what was recorded is
// kept where the error says.
func TestRecordFailsAtEveryStep(t *testing.T) {
	t.Parallel()
	for _, in := range recordInputs {
		t.Run(in.name, func(t *testing.T) {
			t.Parallel()
			clean := &faults{}
			output, _, err := recordWith(t, t.Context(), strings.NewReader(in.input), clean)
			if err != nil {
				t.Fatalf("without faults: %v", err)
			}
			newRecording, newTiming := readOrNone(output), readOrNone(output+".timing")
			playable(t, output, in.input)
			if in.name == "sse" && newTiming != "<none>" {
				t.Errorf("the earlier sidecar was left beside an SSE recording: %q", newTiming)
			}
			t.Logf("operations: %q", clean.ops)
			for n := 1; n <= len(clean.ops); n++ {
				fl := &faults{n: n}
				output, _, err := recordWith(t, t.Context(), strings.NewReader(in.input), fl)
				step := fl.ops[n-1]
				var ee *exitError
				if !errors.As(err, &ee) || ee.code != ExitFailure || !errors.Is(err, syscall.ENOSPC) {
					t.Errorf("failing %s: %v, want exit %d with the failure", step, err, ExitFailure)
					continue
				}
				rec, timing := readOrNone(output), readOrNone(output+".timing")
				switch rec {
				case oldRecording:
					if timing != oldTiming {
						t.Errorf("failing %s: the earlier recording's sidecar is %q", step, timing)
					}
					if !strings.Contains(err.Error(), "is left as it was") && strings.Contains(err.Error(), ".partial") {
						t.Errorf("failing %s: %q names a kept file without saying the recording is untouched", step, err)
					}
				case newRecording:
					if timing == oldTiming && in.name == "ndjson" {
						t.Errorf("failing %s: the new recording is timed by the earlier sidecar", step)
					}
				default:
					t.Errorf("failing %s: the recording is %q, neither the earlier nor the new one", step, rec)
				}
				// what was recorded is kept where the error says, and plays
				if i := strings.Index(err.Error(), "what was recorded is in "); i >= 0 {
					kept := strings.Split(strings.TrimSuffix(err.Error()[i+len("what was recorded is in "):], ")"), " and ")
					for _, k := range kept {
						if _, serr := os.Stat(k); serr != nil {
							t.Errorf("failing %s: kept file %s: %v", step, k, serr)
						}
					}
				}
				// no temporary file is left when nothing was recorded
				partials, _ := filepath.Glob(output + ".partial*")
				if len(partials) > 0 && !strings.Contains(err.Error(), partials[0]) {
					t.Errorf("failing %s: %s left and not named in %q", step, partials, err)
				}
			}
		})
	}
}

// TestRecordFailureMessage checks what the user sees when the disk fills
// up in the middle of a recording.
func TestRecordFailureMessage(t *testing.T) {
	t.Parallel()
	fl := &faults{n: 4} // create, the header, the first event, the second
	output, errb, err := recordWith(t, t.Context(), strings.NewReader(sampleRun), fl)
	var ee *exitError
	if !errors.As(err, &ee) {
		t.Fatalf("runRecord: %v, not an exit error", err)
	}
	want := fmt.Sprintf("-: %v (%s is left as it was; what was recorded is in %s.partial)", errDiskFull, output, output)
	if ee.code != ExitFailure || ee.err.Error() != want {
		t.Errorf("exit %d, %q; want exit %d, %q", ee.code, ee.err, ExitFailure, want)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr %q, want nothing before Run prints the error", errb.String())
	}
	playable(t, output+".partial", strings.SplitAfter(sampleRun, "\n\n")[0])
}

// stepReader gives its chunks one a read; at read n it cancels the
// recording, as a signal does, and ends with the context's error.
type stepReader struct {
	chunks []string
	n      int
	cancel context.CancelFunc
	ctx    context.Context
}

func (r *stepReader) Read(p []byte) (int, error) {
	if r.n == 0 || len(r.chunks) == 0 {
		r.cancel()
		return 0, r.ctx.Err()
	}
	r.n--
	c := r.chunks[0]
	r.chunks = r.chunks[1:]
	return copy(p, c), nil
}

// TestRecordInterruptedAtEveryStep interrupts a recording after each
// event in turn: the command succeeds, and the recording saved is the
// events that arrived, playable with its timing; interrupted before
// anything arrived, the earlier recording is left whole.
func TestRecordInterruptedAtEveryStep(t *testing.T) {
	t.Parallel()
	for _, in := range recordInputs {
		sep := "\n"
		if in.name == "sse" {
			sep = "\n\n"
		}
		chunks := strings.SplitAfter(in.input, sep)
		chunks = chunks[:len(chunks)-1]
		for n := 0; n <= len(chunks); n++ {
			t.Run(fmt.Sprintf("%s/after %d", in.name, n), func(t *testing.T) {
				t.Parallel()
				ctx, cancel := context.WithCancel(t.Context())
				defer cancel()
				r := &stepReader{chunks: chunks, n: n, cancel: cancel, ctx: ctx}
				output, errb, err := recordWith(t, ctx, r, &faults{})
				if err != nil {
					t.Fatalf("record: %v", err)
				}
				if n == 0 {
					if rec, timing := readOrNone(output), readOrNone(output+".timing"); rec != oldRecording || timing != oldTiming {
						t.Errorf("interrupted before anything arrived: recording %q, sidecar %q; want the earlier ones", rec, timing)
					}
					if want := "agentstream: nothing was recorded: " + output + " is left as it was\n"; errb.String() != want {
						t.Errorf("stderr %q, want %q", errb, want)
					}
				} else {
					playable(t, output, strings.Join(chunks[:n], ""))
				}
				if partials, _ := filepath.Glob(output + ".partial*"); len(partials) > 0 {
					t.Errorf("left %s", partials)
				}
			})
		}
	}
}
