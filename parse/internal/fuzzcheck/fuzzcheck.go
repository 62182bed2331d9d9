// Package fuzzcheck holds the invariants every decoder's fuzz target
// checks: the events are valid UTF-8 whatever the input, what their notes
// say of their payloads is true, and how the input is split into reads
// changes nothing (events and problems alike).
package fuzzcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"testing"
	"testing/iotest"
	"unicode/utf8"

	"github.com/agentstream/agentstream/event"
)

// Decode reads every event and problem of dec, as one list of lines
// (events as %#v of their fields, problems as their text), which compare
// cheaply. It stops at a fatal error or after max items.
func Decode(t testing.TB, dec event.Decoder, max int) ([]event.Event, []string) {
	t.Helper()
	var evs []event.Event
	var out []string
	for range max {
		ev, err := dec.Next()
		if err == io.EOF {
			return evs, out
		}
		if err != nil {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				t.Fatalf("not a positioned error: %v", err)
			}
			out = append(out, "problem: "+err.Error())
			continue
		}
		if ev == nil {
			t.Fatal("nil event")
		}
		evs = append(evs, ev)
		b, _ := json.Marshal(ev)
		out = append(out, fmt.Sprintf("%T %s", ev, b))
	}
	t.Fatal("the decoder does not end")
	return nil, nil
}

// Check decodes data whole, one byte per read and in halves with the
// decoder newDec makes, and fails t when the three differ or an event
// holds invalid UTF-8.
func Check(t *testing.T, data []byte, newDec func(io.Reader) event.Decoder) {
	t.Helper()
	max := 20*len(data) + 100
	evs, whole := Decode(t, newDec(bytes.NewReader(data)), max)
	for _, ev := range evs {
		if path, ok := ValidUTF8(ev); !ok {
			t.Errorf("%T has invalid UTF-8 in %s: %#v", ev, path, ev)
		}
		if _, err := Notes(ev); err != nil {
			t.Error(err)
		}
	}
	for name, r := range map[string]io.Reader{
		"OneByteReader": iotest.OneByteReader(bytes.NewReader(data)),
		"HalfReader":    iotest.HalfReader(bytes.NewReader(data)),
	} {
		_, got := Decode(t, newDec(r), max)
		if !equal(whole, got) {
			t.Errorf("%s gives other events or problems:\nwhole:\n%s\n%s:\n%s", name, join(whole), name, join(got))
		}
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func join(s []string) string {
	var b bytes.Buffer
	for _, l := range s {
		b.WriteString(l)
		b.WriteByte('\n')
	}
	return b.String()
}

var rawMessage = reflect.TypeFor[json.RawMessage]()

// ValidUTF8 reports whether every string and json.RawMessage in ev is
// valid UTF-8, and where the first that is not is. Plain byte slices
// (Unknown.Raw, the input kept verbatim) are not looked at.
func ValidUTF8(ev event.Event) (string, bool) {
	return walk(reflect.ValueOf(ev), fmt.Sprintf("%T", ev))
}

func walk(v reflect.Value, path string) (string, bool) {
	switch v.Kind() {
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return "", true
		}
		return walk(v.Elem(), path)
	case reflect.String:
		return path, utf8.ValidString(v.String())
	case reflect.Struct:
		for i := range v.NumField() {
			if p, ok := walk(v.Field(i), path+"."+v.Type().Field(i).Name); !ok {
				return p, false
			}
		}
	case reflect.Slice:
		if v.Type() == rawMessage {
			return path, utf8.Valid(v.Bytes())
		}
		if v.Type().Elem().Kind() == reflect.Uint8 {
			return "", true
		}
		for i := range v.Len() {
			if p, ok := walk(v.Index(i), fmt.Sprintf("%s[%d]", path, i)); !ok {
				return p, false
			}
		}
	}
	return "", true
}

var checkedType = reflect.TypeFor[event.Checked]()

// Notes reports whether ev has a note (event.Checked), and returns an
// error when the note says what is not true of the payload it notes: that
// it is valid JSON, or valid, compact JSON (json.Compact gives it back
// unchanged); or when it notes none of ev's payloads (its json.RawMessage
// and []byte fields).
func Notes(ev event.Event) (bool, error) {
	v := reflect.ValueOf(ev).Elem()
	var note event.Checked
	var payloads []string
	for i := range v.NumField() {
		f, name := v.Field(i), v.Type().Field(i).Name
		switch {
		case f.Type() == checkedType:
			note = f.Interface().(event.Checked)
		case f.Kind() == reflect.Slice && f.Type().Elem().Kind() == reflect.Uint8:
			payloads = append(payloads, name)
		}
	}
	if note == (event.Checked{}) {
		return false, nil
	}
	for _, name := range payloads {
		p := v.FieldByName(name).Bytes()
		if !note.Valid(p) {
			continue
		}
		if !json.Valid(p) {
			return true, fmt.Errorf("%T.%s is noted valid JSON and is not: %q", ev, name, p)
		}
		if note.Compact(p) {
			var c bytes.Buffer
			if json.Compact(&c, p) != nil || !bytes.Equal(c.Bytes(), p) {
				return true, fmt.Errorf("%T.%s is noted compact JSON and is not: %q", ev, name, p)
			}
		}
		return true, nil
	}
	return true, fmt.Errorf("%T has a note of none of its payloads %v", ev, payloads)
}
