package jsonenv_test

import (
	"os"

	"github.com/agentstream/agentstream/emit/jsonenv"
	"github.com/agentstream/agentstream/event"
)

func Example() {
	enc := jsonenv.NewEncoder(os.Stdout, &jsonenv.Config{NDJSON: true, MaxChunkBytes: 80})
	enc.Encode(&event.BlockStart{Agent: "a", Kind: event.Text})
	enc.Encode(&event.Delta{Agent: "a", Kind: event.Text, Text: "A long delta that does not fit in one 80-byte envelope 🦊"})
	enc.Encode(&event.BlockEnd{Agent: "a", Kind: event.Text})
	enc.Close()
	// Output:
	// {"type":"text","agent":"a","final":false,"delta":"A long delta that does not f"}
	// {"type":"text","agent":"a","final":false,"delta":"it in one 80-byte envelope "}
	// {"type":"text","agent":"a","final":false,"delta":"🦊"}
	// {"type":"text","agent":"a","final":true,"delta":""}
}
