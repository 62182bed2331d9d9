package decoderstate

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
)

// TestLines: blank lines reach no decode but move the position; a line
// reaches decode as read, its invalid UTF-8 replaced, and decode's problem
// comes before the one warning; a line over the cap is a problem, and a
// read error ends the reading.
func TestLines(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		max      int
		want     []string
	}{
		{"lines", "{\"a\":1}\n\n   \r\n x \n", 0, []string{
			`decode 1:0 "{\"a\":1}"`, `decode 4:14 " x "`, "EOF at 4:14",
		}},
		{"bad UTF-8", "{\"a\":\"\xff\"}\n  {\"b\":\"\xfe\"}", 0, []string{
			`decode 1:0 "{\"a\":\"\ufffd\"}"`, "problem 1", "s:1:7: warning: invalid UTF-8 replaced with U+FFFD (reported once per input)",
			`decode 2:10 "  {\"b\":\"\ufffd\"}"`, "problem 2", "EOF at 2:10",
		}},
		{"too long", "{}\n{\"long\":1}\n{}\n", 4, []string{
			`decode 1:0 "{}"`, "s:2:1: line longer than 4 bytes (raise the cap, MaxEventBytes)", `decode 3:14 "{}"`, "EOF at 3:14",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var got []string
			var s State
			l := NewLines(iotest.OneByteReader(strings.NewReader(tt.in)), "s", tt.max)
			n := 0
			decode := func(line []byte) error {
				got = append(got, fmt.Sprintf("decode %d:%d %+q", l.Line, l.Offset, line))
				if strings.ContainsRune(string(line), '\uFFFD') {
					n++
					return fmt.Errorf("problem %d", n)
				}
				return nil
			}
			for {
				_, err := s.Next(func() { l.Read(&s, decode) }, func() error { return nil })
				if err == io.EOF {
					got = append(got, fmt.Sprintf("EOF at %d:%d", l.Line, l.Offset))
					break
				}
				got = append(got, err.Error())
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// TestReadError: the end and a cut end the input (the cut returned for
// finish), a problem is queued and reading goes on, any other error sticks.
func TestReadError(t *testing.T) {
	t.Parallel()
	cut := &event.ParseError{Source: "s", Line: 2, Column: 1, Err: event.Errorf(event.ErrTruncated, "cut")}
	long := &event.ParseError{Source: "s", Line: 1, Column: 1, Err: event.Errorf(event.ErrTooLarge, "long")}
	boom := errors.New("boom")
	tests := []struct {
		name    string
		err     error
		wantCut error
		want    []string
	}{
		{"end", io.EOF, nil, []string{"EOF"}},
		{"cut", cut, cut, []string{"EOF"}},
		{"problem", long, nil, []string{"s:1:1: long", "read again"}},
		{"read error", boom, nil, []string{"boom", "boom"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			var s State
			var gotCut error
			reads := 0
			read := func() {
				if reads++; reads == 1 {
					gotCut = s.ReadError(tt.err)
					return
				}
				s.Emit(&event.Notice{Message: "read again"})
				s.End()
			}
			var got []string
			for range 2 {
				ev, err := s.Next(read, func() error { return nil })
				switch {
				case err == io.EOF:
					got = append(got, "EOF")
				case err != nil:
					got = append(got, err.Error())
				default:
					got = append(got, ev.(*event.Notice).Message)
				}
			}
			if diff := cmp.Diff(tt.want, got[:len(tt.want)]); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			if gotCut != tt.wantCut {
				t.Errorf("cut = %v, want %v", gotCut, tt.wantCut)
			}
		})
	}
}
