package geminisession_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/geminisession"
)

func Example() {
	log := `{"sessionId":"s1","projectHash":"h","startTime":"t","lastUpdated":"t","kind":"main"}
{"id":"u1","timestamp":"t","type":"user","content":[{"text":"hi"}]}
{"id":"g1","timestamp":"t","type":"gemini","content":"Hello.","thoughts":[{"subject":"Greeting","description":"Say hello back.","timestamp":"t"}],"tokens":{"input":10,"output":2,"cached":0,"thoughts":5,"tool":0,"total":17},"model":"gemini-2.5-pro"}
`
	dec := geminisession.NewDecoder(strings.NewReader(log), nil)
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		switch e := ev.(type) {
		case *event.SessionStart:
			fmt.Printf("session %s, prompt %q\n", e.SessionID, e.Prompt)
		case *event.Delta:
			fmt.Printf("%s: %q\n", e.Kind, e.Text)
		case *event.TurnEnd:
			fmt.Printf("turn %s: %d in / %d out (%d reasoning)\n", e.MessageID, e.Usage.InputTokens, e.Usage.OutputTokens, e.Usage.ReasoningTokens)
		}
	}
	// Output:
	// session s1, prompt "hi"
	// thinking: "Greeting\n\nSay hello back."
	// text: "Hello."
	// turn g1: 10 in / 7 out (5 reasoning)
}
