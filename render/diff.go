package render

import (
	"fmt"
	"strings"
)

// diffOp is one line of a line diff: ' ' kept, '-' removed, '+' added.
type diffOp struct {
	op   byte
	line string
}

// maxDiffCells caps the LCS table (old lines x new lines); past it the
// diff is every old line removed, then every new line added.
const maxDiffCells = 4 << 20

// lineDiff returns a shortest line diff of a and b by longest common
// subsequence. Edits are snippets, so the quadratic table is small; larger
// inputs fall back to remove-all, add-all.
func lineDiff(a, b []string) []diffOp {
	// Trim the common prefix and suffix first: most edits touch a few
	// lines in the middle.
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	var ops []diffOp
	for _, l := range a[:pre] {
		ops = append(ops, diffOp{' ', l})
	}
	ma, mb := a[pre:len(a)-suf], b[pre:len(b)-suf]
	if len(ma)*len(mb) > maxDiffCells {
		for _, l := range ma {
			ops = append(ops, diffOp{'-', l})
		}
		for _, l := range mb {
			ops = append(ops, diffOp{'+', l})
		}
	} else {
		ops = append(ops, lcsDiff(ma, mb)...)
	}
	for _, l := range a[len(a)-suf:] {
		ops = append(ops, diffOp{' ', l})
	}
	return ops
}

func lcsDiff(a, b []string) []diffOp {
	n, m := len(a), len(b)
	// l[i][j] is the LCS length of a[i:] and b[j:].
	l := make([][]int, n+1)
	for i := range l {
		l[i] = make([]int, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if a[i] == b[j] {
				l[i][j] = l[i+1][j+1] + 1
			} else {
				l[i][j] = max(l[i+1][j], l[i][j+1])
			}
		}
	}
	var ops []diffOp
	i, j := 0, 0
	for i < n && j < m {
		switch {
		case a[i] == b[j]:
			ops = append(ops, diffOp{' ', a[i]})
			i++
			j++
		case l[i+1][j] >= l[i][j+1]:
			ops = append(ops, diffOp{'-', a[i]})
			i++
		default:
			ops = append(ops, diffOp{'+', b[j]})
			j++
		}
	}
	for ; i < n; i++ {
		ops = append(ops, diffOp{'-', a[i]})
	}
	for ; j < m; j++ {
		ops = append(ops, diffOp{'+', b[j]})
	}
	return ops
}

// diffContext is how many unchanged lines a hunk keeps around a change.
const diffContext = 3

// unifiedDiff returns the hunks of a unified diff of old and new, line
// numbers counted from the start of the snippets, without the ---/+++
// header. It returns nil when the texts are equal.
func unifiedDiff(old, new string) []string {
	ops := lineDiff(splitLines(old), splitLines(new))
	var out []string
	for i := 0; i < len(ops); {
		// Find the next change.
		for i < len(ops) && ops[i].op == ' ' {
			i++
		}
		if i == len(ops) {
			break
		}
		start := max(0, i-diffContext)
		// Extend the hunk while changes are closer than 2*context apart.
		end := i
		for end < len(ops) {
			if ops[end].op != ' ' {
				end++
				continue
			}
			run := end
			for run < len(ops) && ops[run].op == ' ' {
				run++
			}
			if run == len(ops) || run-end > 2*diffContext {
				end = min(end+diffContext, len(ops))
				break
			}
			end = run
		}
		oldLine, newLine := 1, 1
		for _, op := range ops[:start] {
			if op.op != '+' {
				oldLine++
			}
			if op.op != '-' {
				newLine++
			}
		}
		oldN, newN := 0, 0
		for _, op := range ops[start:end] {
			if op.op != '+' {
				oldN++
			}
			if op.op != '-' {
				newN++
			}
		}
		out = append(out, fmt.Sprintf("@@ -%s +%s @@", hunkRange(oldLine, oldN), hunkRange(newLine, newN)))
		for _, op := range ops[start:end] {
			out = append(out, string(op.op)+op.line)
		}
		i = end
	}
	return out
}

func hunkRange(line, n int) string {
	switch n {
	case 0:
		return fmt.Sprintf("%d,0", line-1)
	case 1:
		return fmt.Sprint(line)
	}
	return fmt.Sprintf("%d,%d", line, n)
}

// splitLines splits s into lines without their "\n"; "" has no lines.
func splitLines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}
