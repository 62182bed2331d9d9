package frame_test

import (
	"fmt"
	"io"
	"os"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/frame"
)

func BenchmarkSSE(b *testing.B) {
	data, err := os.ReadFile("../testdata/jsonenv/long-text.sse")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s := frame.NewSSE(strings.NewReader(string(data)), "in", 0)
		for {
			if _, err := s.Next(); err != nil {
				if err == io.EOF {
					break
				}
				b.Fatal(err)
			}
		}
	}
}

func BenchmarkLines(b *testing.B) {
	data, err := os.ReadFile("../testdata/jsonenv/hand-unicode.jsonl")
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		l := frame.NewLines(strings.NewReader(string(data)), "in", 0)
		for {
			if _, _, _, err := l.Next(); err != nil {
				if err == io.EOF {
					break
				}
				b.Fatal(err)
			}
		}
	}
}

// BenchmarkSSELargeEvent reads one 10 MB event, to keep long lines linear.
func BenchmarkSSELargeEvent(b *testing.B) {
	data := "data: " + strings.Repeat("x", 10<<20) + "\n\n"
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		s := frame.NewSSE(strings.NewReader(data), "in", 0)
		if m, err := s.Next(); err != nil || len(m.Data) != 10<<20 {
			b.Fatal(err)
		}
	}
}

// BenchmarkSSEHostile reads inputs made to be slow, at 1, 2 and 4 MB: the
// time per byte must stay the same (linear time), whatever the read size.
func BenchmarkSSEHostile(b *testing.B) {
	inputs := map[string]func(n int) string{
		// An oversized message with CR-only line ends, then one more.
		"oversized-cr": func(n int) string {
			return "data: " + strings.Repeat("x", n) + "\r\rdata: after\r\r"
		},
		// Many tiny messages with CR-only blank lines.
		"tiny-cr": func(n int) string { return strings.Repeat("data:0\r\r", n/8) },
		// Keep-alive comments only.
		"comments": func(n int) string { return strings.Repeat(": ka\n\n", n/6) },
		// One message of many data lines.
		"data-lines": func(n int) string { return strings.Repeat("data: 0\n", n/8) + "\n" },
	}
	for _, name := range []string{"oversized-cr", "tiny-cr", "comments", "data-lines"} {
		for _, mb := range []int{1, 2, 4} {
			data := inputs[name](mb << 20)
			for _, rs := range []int{1 << 20, 7} {
				b.Run(fmt.Sprintf("%s/%dMB/read%d", name, mb, rs), func(b *testing.B) {
					b.ReportAllocs()
					b.SetBytes(int64(len(data)))
					for b.Loop() {
						s := frame.NewSSE(&chunkReader{s: data, n: rs}, "in", 64<<10)
						for {
							if _, err := s.Next(); err == io.EOF {
								break
							}
						}
					}
				})
			}
		}
	}
}
