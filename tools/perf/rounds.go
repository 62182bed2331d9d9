package main

import (
	"fmt"
	"os"
	"path/filepath"
	"time"
)

// rounds measures bin with the arguments of each command of cs, runs
// times: a round runs every command once, in order, so that a change of
// the machine's load meets every row alike. Each run is killed after
// limit (none if 0). before, when set, is called in each round before the
// first command of each run of commands reading the same input (c.from),
// for what is measured in step with them (the baselines). rows[i] are
// cs[i]'s samples, one a round.
func rounds(bin string, cs []command, runs int, limit time.Duration, before func(from string)) (rows [][]sample) {
	rows = make([][]sample, len(cs))
	for range runs {
		for i, c := range cs {
			if before != nil && (i == 0 || cs[i-1].from != c.from) {
				before(c.from)
			}
			rows[i] = append(rows[i], measureFor(limit, bin, c.args...))
		}
	}
	return rows
}

// workDir returns the absolute path of the binary to measure and a new
// temporary directory for the inputs, which cleanup removes unless
// o.keep (then its name goes to stderr).
func workDir(o options, prefix string) (bin, dir string, cleanup func(), err error) {
	if bin, err = filepath.Abs(o.bin); err != nil {
		return "", "", nil, err
	}
	if dir, err = os.MkdirTemp("", prefix); err != nil {
		return "", "", nil, err
	}
	if o.keep {
		fmt.Fprintln(os.Stderr, "inputs in", dir)
		return bin, dir, func() {}, nil
	}
	return bin, dir, func() { os.RemoveAll(dir) }, nil
}
