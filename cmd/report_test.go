package cmd

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestReporterBoundsAlike: a problem met for every one of many items is
// printed maxAlike times, then counted, and the count is said at the end;
// problems of another likeness are still printed.
func TestReporterBoundsAlike(t *testing.T) {
	t.Parallel()
	var out strings.Builder
	r := newReporter(&out, false)
	const n = 100000
	for i := range n {
		r.problem(&event.ParseError{Source: "in.jsonl", Line: i + 1, Column: 1, Err: fmt.Errorf("tool call %q never answered", fmt.Sprint("toolu_", i))})
	}
	r.problem(&event.ParseError{Source: "in.jsonl", Line: n + 1, Column: 1, Err: errors.New("line is not JSON")})
	r.warn(errors.New("openai-chat cannot carry thinking"))
	r.warn(errors.New("openai-chat cannot carry thinking"))
	if err := r.result(); !errors.Is(err, errNo) {
		t.Fatalf("result: %v, want errNo", err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if got, want := len(lines), maxAlike+4; got != want {
		t.Fatalf("%d lines on stderr, want %d:\n%s", got, want, out.String())
	}
	want := []string{
		`agentstream: in.jsonl:1:1: tool call "toolu_0" never answered`,
		`agentstream: more like "* tool call * never answered" follow; they are counted, not shown`,
		`agentstream: in.jsonl:100001:1: line is not JSON`,
		`agentstream: warning: openai-chat cannot carry thinking`,
		fmt.Sprintf(`agentstream: and %d more like "* tool call * never answered"`, n-maxAlike),
	}
	got := []string{lines[0], lines[maxAlike], lines[maxAlike+1], lines[maxAlike+2], lines[maxAlike+3]}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stderr (-want +got):\n%s", diff)
	}
	if r.count() != n+1 {
		t.Errorf("count %d, want %d (held back problems still count)", r.count(), n+1)
	}
}

// TestLikeness: appendLikeness gives what strings.Fields, the words with a
// digit or a quote replaced by *, joined by one space, give.
func TestLikeness(t *testing.T) {
	t.Parallel()
	for _, msg := range likenessSeeds {
		if got, want := string(appendLikeness([]byte("kept "), msg)), "kept "+fieldsLikeness(msg); got != want {
			t.Errorf("appendLikeness(%q) = %q, want %q", msg, got, want)
		}
	}
}

func FuzzLikeness(f *testing.F) {
	for _, msg := range likenessSeeds {
		f.Add(msg)
	}
	f.Fuzz(func(t *testing.T, msg string) {
		if got, want := string(appendLikeness(nil, msg)), fieldsLikeness(msg); got != want {
			t.Errorf("appendLikeness(%q) = %q, want %q", msg, got, want)
		}
	})
}

// fieldsLikeness is a likeness made with strings.Fields.
func fieldsLikeness(msg string) string {
	words := strings.Fields(msg)
	for i, w := range words {
		if strings.ContainsAny(w, "0123456789\"'`") {
			words[i] = "*"
		}
	}
	return strings.Join(words, " ")
}

var likenessSeeds = []string{
	"", " ", "a", "in.jsonl:12:1: content_block_delta outside a message",
	"  two  spaces\tand\ttabs\r\nand lines ", "tool call \"toolu_1\" never answered",
	"it's `quoted`", "non\u00a0breaking\u2003em space\u0085next", "bad \xff utf-8 \xe2\x80",
	"ünïcödé 测试 🦊 words", "\v\f", "x\u3000y", "end ",
}

// TestFlagText: the option names of library messages become their flags,
// and a message without one stays as it is.
func TestFlagText(t *testing.T) {
	t.Parallel()
	for _, msg := range []string{
		"", "in:1:1: content_block_delta outside a message", "line larger than 10 bytes (raise the cap, MaxEventBytes)",
		"MaxChunkBytes", "LateSignatures and MaxEventBytes", "Max and Late and MaxEvent", "ÜMaxEventBytes",
	} {
		if got, want := flagText(msg), optionFlagNames.Replace(msg); got != want {
			t.Errorf("flagText(%q) = %q, want %q", msg, got, want)
		}
	}
	if got := flagText("raise the cap, MaxEventBytes"); got != "raise the cap, --max-event-bytes" {
		t.Errorf("flagText = %q", got)
	}
}
