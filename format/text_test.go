package format_test

import (
	"testing"

	"github.com/agentstream/agentstream/format"
)

func TestSniffText(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in    string
		atEOF bool
		want  string
		ok    bool
	}{
		{"Plain model text <read_file><path>a</path></read_file>\n", false, "", true},
		{"<think>a", false, "", true},
		{"\x1b[1mbold\x1b[0m", false, "", true},
		{"", true, "", true},
		{"", false, "", false},
		{"  \n\t", false, "", false},
		{"hi", false, "", false},
		{"hi", true, "", true},
		{"caf\xc3", false, "", false}, // cut inside é
		{"caf\xc3", true, "binary data", true},
		{"caf\xe9 au lait\n", false, "binary data", true}, // Latin-1
		{"PK\x03\x04\x00\x00", false, "binary data", true},
		{"\x7fELF", false, "binary data", true},
		{"\xef\xbb\xbf\n  <!DOCTYPE html>\n<html>", false, "an HTML document", true},
		{"<!DOCTYP", false, "", false},
		{"<HTML><body>502 Bad Gateway</body></HTML>", false, "an HTML document", true},
		{"<html", true, "an HTML document", true},
		{"<html", false, "", false},
		{"<htmlish> is not a tag\n", false, "", true},
		{"The page starts with <html> and then\n", false, "", true},
		// An API's SSE body (a Gemini streamGenerateContent answer) is no
		// model text.
		{"data: {\"candidates\": []}\r\n\r\n", false, "an SSE stream", true},
		{"event: message_start\ndata: {}", false, "an SSE stream", true},
		{"data", false, "", false},
		{"data: [DONE]\n", true, "", true},
		{"database: the answer is 4", false, "", true},
	}
	for _, tt := range tests {
		got, ok := format.SniffText([]byte(tt.in), tt.atEOF)
		if got != tt.want || ok != tt.ok {
			t.Errorf("SniffText(%q, %v) = %q, %v, want %q, %v", tt.in, tt.atEOF, got, ok, tt.want, tt.ok)
		}
	}
}
