package render_test

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/render"
)

func ExampleTranscript() {
	tr := render.NewTranscript(os.Stdout, render.Options{})
	for _, ev := range []event.Event{
		&event.SessionStart{Agent: "a", Model: "claude-sonnet-4-5", Prompt: "Fix the typo."},
		&event.Delta{Agent: "a", Kind: event.Text, Text: "Fixing it."},
		&event.BlockEnd{Agent: "a", Kind: event.Text},
		&event.ToolCall{Agent: "a", ID: "t1", Name: "Edit", Input: json.RawMessage(`{"file_path":"README.md","old_string":"teh","new_string":"the"}`)},
		&event.ToolResult{Agent: "a", ID: "t1", Content: []event.Part{{Type: "text", Text: "The file README.md has been updated."}}},
		&event.RunEnd{Agent: "a", StopReason: "end_turn", Turns: 2, DurationMS: 4200},
	} {
		if err := tr.Event(ev); err != nil {
			fmt.Println(err)
			return
		}
	}
	if err := tr.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// ● claude-sonnet-4-5
	// ❯ Fix the typo.
	//
	// Fixing it.
	//
	// → Edit README.md
	//   @@ -1 +1 @@
	//   -teh
	//   +the
	//   ⎿ The file README.md has been updated.
	//
	// ■ end: end_turn · 2 turns · 4.2s
}
