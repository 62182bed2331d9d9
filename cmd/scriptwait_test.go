package cmd

import (
	"os"
	"regexp"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

// waitForCmd is `waitfor FILE REGEXP`: it waits until FILE (written by a
// background command) matches REGEXP, or fails after a minute. Scripts
// use it to act on a running command (send it a signal) once it has
// reached a known point, instead of sleeping.
func waitForCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: waitfor FILE REGEXP")
	}
	re, err := regexp.Compile(args[1])
	ts.Check(err)
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(ts.MkAbs(args[0])); err == nil && re.Match(b) {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
	ts.Fatalf("%s never matched %q", args[0], args[1])
}
