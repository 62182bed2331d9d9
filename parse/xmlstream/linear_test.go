package xmlstream

import (
	"bytes"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/agentstream/agentstream/parse/internal/decoderstate"
)

// unterminated is issue 18's input: messages of many tag starts that
// never end, which made every '<' scan to the cap again.
func unterminated(size int) []byte {
	msg := "data: " + strings.Repeat("<content-block-text a=1 ", 40) + "\n\n"
	return bytes.Repeat([]byte(msg), size/len(msg)+1)
}

// work decodes in and returns the bytes the tokenizer scanned.
func work(t testing.TB, in []byte, cfg *Config) int64 {
	t.Helper()
	d := NewDecoder(bytes.NewReader(in), cfg)
	for {
		_, err := d.Next()
		if err == io.EOF {
			return d.sc.work
		}
		if err != nil && !decoderstate.IsParseError(err) {
			t.Fatal(err)
		}
	}
}

// TestLinearWork: the bytes the tokenizer scans grow with the input, not
// with the input times the cap, whatever the input is made of. Work, not
// time, is measured, so the test is exact on a busy machine.
func TestLinearWork(t *testing.T) {
	t.Parallel()
	inputs := map[string]func(n int) []byte{
		"unterminated tag starts": unterminated,
		"unterminated in a tool result": func(n int) []byte {
			return []byte(sse(`<content-block-tool_result id="t">`) +
				strings.Repeat(sse(strings.Repeat("<text a=1 ", 40)), n/400+1))
		},
		"unterminated in citations": func(n int) []byte {
			return []byte(sse(`<citations>`) + strings.Repeat(sse(strings.Repeat("<citation a=1 ", 40)), n/560+1))
		},
		"a long name in pieces": func(n int) []byte {
			return []byte(sse("<content-block-") + strings.Repeat(sse("x"), n/10+1))
		},
		"long text with close tag prefixes": func(n int) []byte {
			return []byte(sse("<content-block-text>") + strings.Repeat(sse("a </content-block-tex b"), n/35+1))
		},
	}
	for name, gen := range inputs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			for _, cfg := range []*Config{nil, {MaxEventBytes: 4096}} {
				in1, in4 := gen(64<<10), gen(256<<10)
				w1, w4 := work(t, in1, cfg), work(t, in4, cfg)
				if w1 == 0 {
					t.Fatal("no work counted")
				}
				// 4 times the input may cost at most 5 times the work.
				if w4 > 5*w1 {
					t.Errorf("work %d for %d bytes, %d for %d bytes: not linear", w1, len(in1), w4, len(in4))
				}
				if per := float64(w4) / float64(len(in4)); per > 4 {
					t.Errorf("%.1f bytes scanned per input byte", per)
				}
			}
		})
	}
}

func BenchmarkUnterminatedTags(b *testing.B) {
	for _, mb := range []int{1, 2, 4} {
		in := unterminated(mb << 20)
		b.Run(fmt.Sprintf("%dMB", mb), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(in)))
			for b.Loop() {
				d := NewDecoder(bytes.NewReader(in), &Config{MaxEventBytes: 1 << 18})
				for {
					if _, err := d.Next(); err == io.EOF {
						break
					}
				}
			}
		})
	}
}
