package frame_test

import (
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
