package validate

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Result is one input's outcome, as the JSON report writes it.
type Result struct {
	Name       string      `json:"name"`
	Format     string      `json:"format"`
	Valid      bool        `json:"valid"`
	Violations []Violation `json:"violations"`
}

// Report styles.
const (
	StyleText   = "text"   // NAME:LINE:COL: RULE name: message
	StyleJSON   = "json"   // one JSON object for all inputs
	StyleGitHub = "github" // GitHub Actions error annotations
)

// Styles returns the report styles.
func Styles() []string { return []string{StyleText, StyleJSON, StyleGitHub} }

// WriteViolations writes one input's violations as they are found: a line
// each in the text and github styles, nothing in the json style (whose
// object WriteSummary writes).
func WriteViolations(w io.Writer, style string, vs []Violation) error {
	var b strings.Builder
	for _, v := range vs {
		switch style {
		case StyleText:
			b.WriteString(v.String())
		case StyleGitHub:
			b.WriteString(v.GitHub())
		default:
			continue
		}
		b.WriteByte('\n')
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteSummary writes what follows the violations of every input: a last
// line in the text style, the whole report in the json style.
func WriteSummary(w io.Writer, style string, results []Result) error {
	total := 0
	for _, r := range results {
		total += len(r.Violations)
	}
	switch style {
	case StyleText:
		var err error
		if total == 0 {
			_, err = fmt.Fprintf(w, "valid: %s\n", plural(len(results), "input"))
		} else {
			_, err = fmt.Fprintf(w, "%s in %s\n", plural(total, "violation"), plural(len(results), "input"))
		}
		return err
	case StyleJSON:
		enc := json.NewEncoder(w)
		enc.SetEscapeHTML(false)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Valid  bool     `json:"valid"`
			Inputs []Result `json:"inputs"`
		}{total == 0, results})
	}
	return nil
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// String is the violation as the text style writes it:
// NAME:LINE:COL: RULE name: message.
func (v Violation) String() string {
	at := v.Source
	if v.Line > 0 {
		at += ":" + strconv.Itoa(v.Line)
		if v.Column > 0 {
			at += ":" + strconv.Itoa(v.Column)
		}
	}
	return at + ": " + v.Rule + " " + v.Name + ": " + v.Message
}

// GitHub is the violation as a GitHub Actions error annotation.
func (v Violation) GitHub() string {
	props := "file=" + ghProperty(v.Source)
	if v.Line > 0 {
		props += ",line=" + strconv.Itoa(v.Line)
		if v.Column > 0 {
			props += ",col=" + strconv.Itoa(v.Column)
		}
	}
	props += ",title=" + ghProperty(v.Rule+" "+v.Name)
	return "::error " + props + "::" + ghData(v.Message)
}

// ghData and ghProperty escape as the Actions toolkit does.
func ghData(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

func ghProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}
