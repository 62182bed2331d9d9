// Command jsonvalid is the ceiling `make perf` compares every row with: it
// reads a file a line at a time and checks each line with json.Valid, and
// does nothing else. With -R it first quotes each line as a JSON string
// (the work `jq -R .` does on the xml stream) and checks that. It prints
// how many lines it read and how many were valid JSON, so that the work
// is not optimised away.
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"unicode/utf8"
)

// maxLine is the longest line read; agentstream's own cap is lower.
const maxLine = 256 << 20

func main() {
	raw := flag.Bool("R", false, "quote each line as a JSON string before checking it")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: jsonvalid [-R] FILE")
		os.Exit(2)
	}
	f, err := os.Open(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, "jsonvalid:", err)
		os.Exit(1)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), maxLine)
	var lines, valid int
	var buf []byte
	for sc.Scan() {
		line := sc.Bytes()
		if *raw {
			buf = appendQuoted(buf[:0], line)
			line = buf
		}
		lines++
		if json.Valid(line) {
			valid++
		}
	}
	if err := sc.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "jsonvalid:", err)
		os.Exit(1)
	}
	fmt.Println(lines, valid)
}

// appendQuoted appends s as a JSON string: quotes, backslashes and control
// characters escaped, invalid UTF-8 replaced by U+FFFD.
func appendQuoted(dst, s []byte) []byte {
	const hex = "0123456789abcdef"
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			dst = append(dst, '\\', c)
			i++
		case c < 0x20:
			dst = append(dst, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			i++
		case c < utf8.RuneSelf:
			dst = append(dst, c)
			i++
		default:
			r, n := utf8.DecodeRune(s[i:])
			if r == utf8.RuneError && n == 1 {
				dst = append(dst, "\ufffd"...)
			} else {
				dst = append(dst, s[i:i+n]...)
			}
			i += n
		}
	}
	return append(dst, '"')
}
