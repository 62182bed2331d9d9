package convert_test

import (
	"bufio"
	"fmt"
	"os"
	"strings"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/format"
)

func Example() {
	in := bufio.NewReader(strings.NewReader(`{"type":"text","agent":"a","final":true,"delta":"hi"}` + "\n"))
	from, _, err := convert.Detect(in)
	if err != nil {
		fmt.Println(err)
		return
	}
	to, _ := convert.Lookup("jsonenv")
	out := bufio.NewWriter(os.Stdout)
	enc := to.NewEncoder(out, &format.Options{})
	dec := from.NewDecoder(in, &format.Options{Source: "-"})
	err = convert.Pipe(dec, enc, &convert.PipeOptions{
		Flush: out.Flush,
		Problem: func(problem error) bool {
			fmt.Fprintln(os.Stderr, problem)
			return true // carry on
		},
	})
	enc.Close()
	out.Flush()
	fmt.Println("err:", err)
	// Output:
	// data: {"type":"text","agent":"a","final":false,"delta":"hi"}
	//
	// data: {"type":"text","agent":"a","final":true,"delta":""}
	//
	// data: [DONE]
	//
	// err: <nil>
}

// A Session converts a stream that arrives in pieces, such as the
// messages of a queue: each Write writes what its piece completes.
func ExampleSession() {
	from, _ := convert.Lookup("jsonenv")
	to, _ := convert.Lookup("jsonenv")
	s := convert.NewSession(os.Stdout, &convert.SessionOptions{
		From:   from,
		To:     to,
		Encode: &format.Options{Framing: "ndjson"},
	})
	for _, piece := range []string{
		`data: {"type":"text","agent":"a","final":false,"del`,
		`ta":"hel"}` + "\n\n",
		`data: {"type":"text","agent":"a","final":true,"delta":"lo"}` + "\n\n",
		"data: [DONE]\n\n",
	} {
		fmt.Println("piece:")
		if _, err := s.Write([]byte(piece)); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println("close:")
	if err := s.Close(); err != nil {
		fmt.Println(err)
	}
	// Output:
	// piece:
	// piece:
	// {"type":"text","agent":"a","final":false,"delta":"hel"}
	// piece:
	// {"type":"text","agent":"a","final":false,"delta":"lo"}
	// {"type":"text","agent":"a","final":true,"delta":""}
	// piece:
	// close:
}
