package codexsession_test

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/parse/codexsession"
)

func Example() {
	rollout := `{"timestamp":"t","type":"session_meta","payload":{"id":"th1","cwd":"/w"}}
{"timestamp":"t","type":"event_msg","payload":{"type":"task_started"}}
{"timestamp":"t","type":"turn_context","payload":{"model":"gpt-5.5"}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}}
{"timestamp":"t","type":"response_item","payload":{"type":"message","role":"assistant","content":[{"type":"output_text","text":"Hello."}]}}
{"timestamp":"t","type":"event_msg","payload":{"type":"token_count","info":{"total_token_usage":{"input_tokens":10,"output_tokens":2}}}}
{"timestamp":"t","type":"event_msg","payload":{"type":"task_complete"}}
`
	dec := codexsession.NewDecoder(strings.NewReader(rollout), nil)
	for {
		ev, err := dec.Next()
		if err == io.EOF {
			break
		}
		switch e := ev.(type) {
		case *event.SessionStart:
			fmt.Printf("thread %s, model %s, prompt %q\n", e.SessionID, e.Model, e.Prompt)
		case *event.Delta:
			fmt.Println(e.Text)
		case *event.TurnEnd:
			fmt.Printf("turn: %d in / %d out tokens\n", e.Usage.InputTokens, e.Usage.OutputTokens)
		}
	}
	// Output:
	// thread th1, model gpt-5.5, prompt "hi"
	// Hello.
	// turn: 10 in / 2 out tokens
}
