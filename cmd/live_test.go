package cmd

import (
	"bufio"
	"io"
	"strings"
	"testing"
)

// TestConvertIsLive feeds convert through a pipe, one envelope at a time,
// and checks each converted envelope reaches stdout before the next input
// is written: nothing waits for the end of the stream or for a full buffer.
func TestConvertIsLive(t *testing.T) {
	t.Parallel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		code := Run(t.Context(), []string{"convert", "--framing", "ndjson"}, &IOStreams{In: inR, Out: outW, Err: io.Discard})
		outW.Close()
		done <- code
	}()
	lines := bufio.NewReader(outR)
	deltas := []string{"first ", "second ", "third"}
	for i, d := range deltas {
		if _, err := io.WriteString(inW, `data: {"type":"text","agent":"a","final":false,"delta":"`+d+`"}`+"\n\n"); err != nil {
			t.Fatal(err)
		}
		// The converted envelope must come out now, with the input still open.
		line, err := lines.ReadString('\n')
		if err != nil {
			t.Fatalf("delta %d: %v", i, err)
		}
		if !strings.Contains(line, `"delta":"`+d+`"`) {
			t.Fatalf("delta %d: got %q", i, line)
		}
	}
	io.WriteString(inW, `data: {"type":"text","agent":"a","final":true,"delta":""}`+"\n\ndata: [DONE]\n\n")
	inW.Close()
	rest, _ := io.ReadAll(lines)
	if got, want := string(rest), `{"type":"text","agent":"a","final":true,"delta":""}`+"\n"; got != want {
		t.Errorf("rest = %q, want %q", got, want)
	}
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
}
