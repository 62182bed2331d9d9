package claudesession_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/claudesession"
)

func Example() {
	log := `{"type":"user","parentUuid":null,"uuid":"u1","sessionId":"s1","cwd":"/w","message":{"role":"user","content":"hi"}}
{"type":"assistant","parentUuid":"u1","uuid":"a1","sessionId":"s1","message":{"id":"m1","role":"assistant","model":"opus","content":[{"type":"text","text":"Hello."}],"stop_reason":"end_turn","usage":{"input_tokens":3,"output_tokens":2}}}
`
	dec := claudesession.NewDecoder(strings.NewReader(log), nil)
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		switch e := ev.(type) {
		case *event.SessionStart:
			fmt.Printf("session %s, model %s, prompt %q\n", e.SessionID, e.Model, e.Prompt)
		case *event.Delta:
			fmt.Println(e.Text)
		case *event.RunEnd:
			fmt.Printf("end: %s, %d in / %d out tokens\n", e.StopReason, e.Usage.InputTokens, e.Usage.OutputTokens)
		}
	}
	// Output:
	// session s1, model opus, prompt "hi"
	// Hello.
	// end: end_turn, 3 in / 2 out tokens
}
