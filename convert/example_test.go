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
