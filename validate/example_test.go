package validate_test

import (
	"fmt"
	"strings"

	"github.com/agentstream/agentstream/parse/jsonenv"
	"github.com/agentstream/agentstream/validate"
)

func Example() {
	stream := `data: {"type":"text","agent":"a","final":false,"delta":"Hi"}

data: {"type":"text","agent":"a","final":true,"delta":"!"}

data: {"type":"tool_call","agent":"a","final":true,"id":"t1","name":"ls","delta":"{}"}

`
	vs, err := validate.Check(strings.NewReader(stream), &validate.Config{Source: "run.sse", Format: jsonenv.Format()})
	if err != nil {
		panic(err)
	}
	for _, v := range vs {
		fmt.Printf("%s:%d: %s %s: %s\n", v.Source, v.Line, v.Rule, v.Name, v.Message)
	}
	// Output:
	// run.sse:3: ENV003 final-flag: final marker of a text block carries a delta; it must be empty
	// run.sse:5: ENV007 done-marker: stream ends without data: [DONE]
	// run.sse:5: GEN007 tool-answered: tool call t1 (ls) of agent "a" has no result and is not pending
}
