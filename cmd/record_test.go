package cmd

import (
	"bytes"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// closeFile is a file whose Close may fail, as a write that the file
// system only reports at close does (NFS, a full disk with delayed
// allocation).
type closeFile struct {
	bytes.Buffer
	closeErr error
	closed   bool
}

func (f *closeFile) Close() error {
	f.closed = true
	return f.closeErr
}

// TestRecordCloseErrors checks that record fails (exit 2) when the
// recording or its sidecar cannot be closed, that it reports the first
// such error, and that it closes every file it opened.
func TestRecordCloseErrors(t *testing.T) {
	t.Parallel()
	errRec := errors.New("close run: input/output error")
	errSide := errors.New("close run.timing: input/output error")
	tests := []struct {
		name      string
		input     string
		closeErrs map[string]error // by file name suffix: "" for the recording, ".timing"
		want      error
		wantFiles []string // the files opened
	}{
		{"sse, closed cleanly", sampleRun, nil, nil, []string{""}},
		{"sse, recording fails at close", sampleRun, map[string]error{"": errRec}, errRec, []string{""}},
		{"ndjson, closed cleanly", "{}\n{}\n", nil, nil, []string{"", ".timing"}},
		{"ndjson, recording fails at close", "{}\n{}\n", map[string]error{"": errRec}, errRec, []string{"", ".timing"}},
		{"ndjson, sidecar fails at close", "{}\n{}\n", map[string]error{".timing": errSide}, errSide, []string{"", ".timing"}},
		{"ndjson, both fail: the recording's error", "{}\n{}\n", map[string]error{"": errRec, ".timing": errSide}, errRec, []string{"", ".timing"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			output := filepath.Join(t.TempDir(), "run")
			files := map[string]*closeFile{}
			var opened []string
			o := &recordOptions{
				output: output, maxEventBytes: 1 << 20,
				create: func(name string) (io.WriteCloser, error) {
					suffix := strings.TrimPrefix(name, output)
					f := &closeFile{closeErr: tt.closeErrs[suffix]}
					files[suffix] = f
					opened = append(opened, suffix)
					return f, nil
				},
			}
			var errb bytes.Buffer
			err := runRecord(t.Context(), &IOStreams{In: strings.NewReader(tt.input), Out: io.Discard, Err: &errb}, o, "-")
			if tt.want == nil {
				if err != nil {
					t.Errorf("runRecord: %v, want no error", err)
				}
			} else {
				var ee *exitError
				if !errors.As(err, &ee) || ee.code != ExitFailure || !errors.Is(err, tt.want) {
					t.Errorf("runRecord: %#v, want an exit-%d failure with %q", err, ExitFailure, tt.want)
				}
			}
			if diff := cmp.Diff(tt.wantFiles, opened); diff != "" {
				t.Errorf("files opened (-want +got):\n%s", diff)
			}
			for suffix, f := range files {
				if !f.closed {
					t.Errorf("%q was not closed", output+suffix)
				}
			}
			// the recording was written whole before it was closed
			if got := files[""].String(); !strings.HasSuffix(got, tt.input[strings.LastIndex(strings.TrimRight(tt.input, "\n"), "\n")+1:]) {
				t.Errorf("recording %q does not end with the input's last line", got)
			}
		})
	}
}

// TestRecordCloseErrorMessage checks what the user sees when a close
// fails: the error once on stderr, and exit 2.
func TestRecordCloseErrorMessage(t *testing.T) {
	t.Parallel()
	output := filepath.Join(t.TempDir(), "run.sse")
	o := &recordOptions{
		output: output, maxEventBytes: 1 << 20,
		create: func(name string) (io.WriteCloser, error) {
			return &closeFile{closeErr: errors.New("close " + name + ": input/output error")}, nil
		},
	}
	var errb bytes.Buffer
	ios := &IOStreams{In: strings.NewReader(sampleRun), Out: io.Discard, Err: &errb}
	err := runRecord(t.Context(), ios, o, "-")
	// what Run prints for the error runRecord returns
	var ee *exitError
	if !errors.As(err, &ee) {
		t.Fatalf("runRecord: %v, not an exit error", err)
	}
	want := "close " + output + ": input/output error"
	if ee.code != ExitFailure || ee.err == nil || ee.err.Error() != want {
		t.Errorf("exit %d, %v; want exit %d, %q", ee.code, ee.err, ExitFailure, want)
	}
	if errb.Len() != 0 {
		t.Errorf("stderr %q, want nothing before Run prints the error", errb.String())
	}
}
