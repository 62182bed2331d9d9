// Command agentstream reads, converts, assembles and checks AI agent event streams.
package main

import (
	"os"

	"github.com/agentstream/agentstream/cmd"
)

func main() {
	cmd.TuneGC(os.Getenv)
	os.Exit(cmd.Main())
}
