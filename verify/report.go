package verify

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// WriteText writes r for people: the fields not compared, one line per
// difference, one per side cut off, and a last line saying equal,
// different, or not whole (equal content of a run cut off).
func WriteText(w io.Writer, r *Report) error {
	var b strings.Builder
	for _, s := range r.NotCompared {
		fmt.Fprintf(&b, "not compared: %s (%s)\n", s.Field, s.Reason)
	}
	for _, d := range r.Differences {
		b.WriteString(d.String())
		b.WriteByte('\n')
	}
	cut := cutSides(r)
	for _, s := range cut {
		fmt.Fprintf(&b, "cut: %s ended without its format's end: the run is not whole\n", s)
	}
	switch {
	case r.Equal && len(cut) > 0:
		fmt.Fprintf(&b, "equal: %s (compared as cut)\n", counts(r.A))
	case r.Equal:
		fmt.Fprintf(&b, "equal: %s\n", counts(r.A))
	case len(r.Differences) == 0:
		verb := "is"
		if len(cut) > 1 {
			verb = "are"
		}
		fmt.Fprintf(&b, "not whole: the content is equal, but %s %s cut off (--allow-cut compares cut runs)\n", strings.Join(cut, " and "), verb)
	default:
		n := len(r.Differences)
		s := "s"
		if n == 1 {
			s = ""
		}
		fmt.Fprintf(&b, "different: %d difference%s (A %s: %s; B %s: %s)\n", n, s, r.A.Name, counts(r.A), r.B.Name, counts(r.B))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// cutSides names the sides r says were cut off.
func cutSides(r *Report) []string {
	var cut []string
	if r.A.Cut {
		cut = append(cut, "A ("+r.A.Name+")")
	}
	if r.B.Cut {
		cut = append(cut, "B ("+r.B.Name+")")
	}
	return cut
}

func counts(s Summary) string {
	return plural(s.Agents, "agent") + ", " + plural(s.Blocks, "block")
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// WriteJSON writes r as one indented JSON document.
func WriteJSON(w io.Writer, r *Report) error { return writeJSON(w, r) }

func writeJSON(w io.Writer, r any) error {
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteRunsText writes the last line of the comparison of several runs,
// pair by pair (each pair's report is written with WriteText as it is
// done): equal when every pair is.
func WriteRunsText(w io.Writer, rs []*Report) error {
	differ := 0
	for _, r := range rs {
		if !r.Equal {
			differ++
		}
	}
	var err error
	if differ == 0 {
		_, err = fmt.Fprintf(w, "equal: %s\n", plural(len(rs), "run"))
	} else {
		_, err = fmt.Fprintf(w, "different: %d of %s differ\n", differ, plural(len(rs), "run"))
	}
	return err
}

// Runs is the JSON report of several runs compared pair by pair.
type Runs struct {
	Equal bool      `json:"equal"` // every pair is equal
	Runs  []*Report `json:"runs"`  // one report per pair, in order
}

// WriteRunsJSON writes the reports of several runs compared pair by pair
// as one indented JSON document (Runs).
func WriteRunsJSON(w io.Writer, rs []*Report) error {
	out := Runs{Equal: true, Runs: rs}
	for _, r := range rs {
		out.Equal = out.Equal && r.Equal
	}
	return writeJSON(w, out)
}

// String returns the difference as one report line, e.g.
//
//	agent 1 (main) block 3 (tool_call) field input.path: "src/a.go" != "src/b.go"
func (d Difference) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "agent %d (%s)", d.Agent, d.AgentLabel)
	switch {
	case d.Kind == Extra && d.BlockB > 0:
		fmt.Fprintf(&b, " B block %d (%s)", d.BlockB, d.Type)
	case d.BlockA > 0:
		fmt.Fprintf(&b, " block %d (%s", d.BlockA, d.Type)
		if d.Kind == Changed && d.BlockB != d.BlockA {
			fmt.Fprintf(&b, ", B block %d", d.BlockB)
		}
		b.WriteString(")")
	case d.Type != "":
		b.WriteString(" " + d.Type)
	}
	switch d.Kind {
	case Missing:
		b.WriteString(": only in A")
	case Extra:
		b.WriteString(": only in B")
	case Moved:
		fmt.Fprintf(&b, ": moved to block %d in B", d.BlockB)
	default:
		b.WriteString(" field " + d.Field)
		if d.At != nil {
			fmt.Fprintf(&b, " at char %d", *d.At)
		}
		b.WriteString(": " + d.A + " != " + d.B)
	}
	return b.String()
}
