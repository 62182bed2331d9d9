package cmd

import (
	"bytes"
	"os"
	"strconv"
	"strings"

	"github.com/rogpeppe/go-internal/testscript"
)

// repeatCmd is `repeat N FILE LINE`: it writes FILE with N lines, LINE
// each with every "{i}" replaced by the line's number from 0, for the
// scripts that need more lines than a txtar should hold (more agents or
// turns than a cap).
func repeatCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: repeat N FILE LINE")
	}
	n, err := strconv.Atoi(args[0])
	ts.Check(err)
	var b bytes.Buffer
	for i := range n {
		b.WriteString(strings.ReplaceAll(args[2], "{i}", strconv.Itoa(i)))
		b.WriteByte('\n')
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), b.Bytes(), 0o644))
}
