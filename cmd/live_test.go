package cmd

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// TestIsLive feeds a command through a pipe, one SSE message at a time,
// and checks that what each message completes reaches stdout before the
// next is written: nothing waits for the end of the stream or for a full
// buffer (output is flushed when the input has nothing more buffered).
func TestIsLive(t *testing.T) {
	t.Parallel()
	envelope := func(delta string, final bool) string {
		f := "false"
		if final {
			f = "true"
		}
		return `data: {"type":"text","agent":"a","final":` + f + `,"delta":"` + delta + `"}` + "\n\n"
	}
	tests := []struct {
		name string
		args []string
		// steps: each input written, and what must then be on stdout's
		// next line (or "" for nothing to wait for).
		steps [][2]string
		end   string // written before the input is closed
		rest  string // what then comes out
	}{
		{
			name: "convert",
			args: []string{"convert", "--framing", "ndjson"},
			steps: [][2]string{
				{envelope("first ", false), `"delta":"first "`},
				{envelope("second ", false), `"delta":"second "`},
				{envelope("third", false), `"delta":"third"`},
			},
			end:  envelope("", true) + "data: [DONE]\n\n",
			rest: `{"type":"text","agent":"a","final":true,"delta":""}` + "\n",
		},
		{
			name: "assemble -o json",
			args: []string{"assemble", "-o", "json"},
			// A text block is held until the next event (a citation may
			// follow it), then written at once.
			steps: [][2]string{
				{envelope("first ", false), ""},
				{envelope("block", true), ""},
				{envelope("second", false), `"text":"first block"`},
			},
			end:  envelope("", true) + "data: [DONE]\n\n",
			rest: `{"agent":"a","type":"text","text":"second"}` + "\n",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			inR, inW := io.Pipe()
			outR, outW := io.Pipe()
			done := make(chan int)
			go func() {
				code := Run(t.Context(), tt.args, &IOStreams{In: inR, Out: outW, Err: io.Discard})
				outW.Close()
				done <- code
			}()
			lines := bufio.NewReader(outR)
			for i, step := range tt.steps {
				if _, err := io.WriteString(inW, step[0]); err != nil {
					t.Fatal(err)
				}
				if step[1] == "" {
					continue
				}
				// The output must come out now, with the input still open.
				line, err := lines.ReadString('\n')
				if err != nil {
					t.Fatalf("step %d: %v", i, err)
				}
				if !strings.Contains(line, step[1]) {
					t.Fatalf("step %d: got %q, want it to hold %q", i, line, step[1])
				}
			}
			io.WriteString(inW, tt.end)
			inW.Close()
			rest, _ := io.ReadAll(lines)
			if got := string(rest); got != tt.rest {
				t.Errorf("rest = %q, want %q", got, tt.rest)
			}
			if code := <-done; code != 0 {
				t.Errorf("exit %d", code)
			}
		})
	}
}
