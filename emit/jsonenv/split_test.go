package jsonenv

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// TestSplitPoint: splitPoint cuts s at the longest prefix, at a rune
// boundary, whose escaped form fits the budget.
func TestSplitPoint(t *testing.T) {
	t.Parallel()
	escaped := func(s string) int { return len(jsontext.AppendString(nil, s)) - 2 }
	texts := []string{
		strings.Repeat("plain ascii ", 40),
		strings.Repeat("Ünïcödé — 测试 🦊 ", 30),
		strings.Repeat("q\"b\\n\n\t\x01\u2028/<>&\xff", 40),
		"short",
	}
	for _, s := range texts {
		for budget := 6; budget < 600; budget += 7 {
			n := splitPoint(s, budget)
			if n < len(s) && !utf8.RuneStart(s[n]) {
				t.Fatalf("splitPoint(%q, %d) = %d, inside a character", s, budget, n)
			}
			if escaped(s[:n]) > budget {
				t.Fatalf("splitPoint(%q, %d) = %d: %d bytes escaped", s, budget, n, escaped(s[:n]))
			}
			if n < len(s) {
				_, w := utf8.DecodeRuneInString(s[n:])
				if escaped(s[:n+w]) <= budget {
					t.Fatalf("splitPoint(%q, %d) = %d, one more character fits", s, budget, n)
				}
			}
		}
	}
}
