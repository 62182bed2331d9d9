package prof

import (
	"context"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/cmd"
)

func TestProf(t *testing.T) {
	home := os.Getenv("PROFHOME")
	env := map[string]string{"HOME": home}
	ios := &cmd.IOStreams{In: strings.NewReader(""), Out: io.Discard, Err: io.Discard, Getenv: func(k string) string { return env[k] }}
	for range 2 {
		if code := cmd.Run(context.Background(), []string{"usage", "--by", "day", "--json"}, ios); code != 0 {
			t.Fatal(code)
		}
	}
}
