package frame_test

import (
	"fmt"
	"strings"

	"github.com/agentstream/agentstream/frame"
)

func ExampleSSE() {
	s := frame.NewSSE(strings.NewReader(": comment\nevent: ping\ndata: {}\n\ndata: a\ndata: b\n\n"), "in", 0)
	for {
		m, err := s.Next()
		if err != nil {
			break
		}
		fmt.Printf("line %d: %q %q\n", m.Line, m.Type, m.Data)
	}
	// Output:
	// line 2: "ping" "{}"
	// line 5: "" "a\nb"
}
