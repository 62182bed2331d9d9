package main

import (
	"bufio"
	"flag"
	"io"
	"log"
	"os"
	"runtime/debug"
	"runtime/pprof"

	"github.com/agentstream/agentstream/convert"
	"github.com/agentstream/agentstream/format"
)

func main() {
	from := flag.String("from", "", "")
	to := flag.String("to", "", "")
	prof := flag.String("prof", "/tmp/p.prof", "")
	n := flag.Int("n", 1, "")
	flag.Parse()
	debug.SetGCPercent(400) // as the binary does (gc.go)
	debug.SetMemoryLimit(24 << 20)
	f, _ := os.Create(*prof)
	pprof.StartCPUProfile(f)
	defer pprof.StopCPUProfile()
	for i := 0; i < *n; i++ {
		in, err := os.Open(flag.Arg(0))
		if err != nil {
			log.Fatal(err)
		}
		fr, _ := convert.Lookup(*from)
		t, _ := convert.Lookup(*to)
		w := bufio.NewWriterSize(io.Discard, 64<<10)
		enc := t.NewEncoder(w, &format.Options{})
		dec := fr.NewDecoder(bufio.NewReaderSize(convert.FlushOnIdle(in, w.Flush), 64<<10), &format.Options{})
		if err := convert.Pipe(dec, enc, &convert.PipeOptions{Problem: func(error) bool { return true }}); err != nil {
			log.Fatal(err)
		}
		enc.Close()
		w.Flush()
		in.Close()
	}
}
