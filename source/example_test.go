package source_test

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/source"
)

// Open reads "-" from Options.Stdin, a file from its path and a URL over
// HTTP, with the same io.ReadCloser for all three.
func ExampleOpen() {
	opts := &source.Options{Stdin: strings.NewReader("data: hello\n\n")}
	rc, err := source.Open(context.Background(), "-", opts)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%q\n", b)
	// Output:
	// "data: hello\n\n"
}

func ExampleIsURL() {
	for _, name := range []string{"https://agent.example/run", "run.sse", "-"} {
		fmt.Println(name, source.IsURL(name))
	}
	// Output:
	// https://agent.example/run true
	// run.sse false
	// - false
}
