package recording_test

import (
	"context"
	"fmt"
	"os"
	"strings"

	"github.com/agentstream/agentstream/recording"
)

func ExamplePlay() {
	rec := recording.Header + "\n:t=0\ndata: one\n\n:t=1500\ndata: two\n\n"
	p := recording.NewPlayer(strings.NewReader(rec), nil)
	err := recording.Play(context.Background(), p, recording.Timing{NoDelay: true},
		func(c recording.Chunk) error {
			fmt.Printf("at %v: ", c.At)
			_, err := os.Stdout.Write(c.Data)
			return err
		})
	if err != nil {
		fmt.Println(err)
	}
	// Output:
	// at 0s: data: one
	//
	// at 1.5s: data: two
}
