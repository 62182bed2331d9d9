package jsontext

import (
	"encoding/json"
	"testing"
)

// readIntSeeds are integers as producers write them and the texts
// next to them that ReadInt must refuse or leave to Int.
var readIntSeeds = []string{
	"0", "7", "2400", "-1", "-0", "00", "01", "1.5", "1e3", "1E3", "0.0", "null", " 12",
	"127", "128", "-128", "-129", "999999999999999999", "1000000000000000000",
	"9223372036854775807", "9223372036854775808", "-9223372036854775808",
	"12345678901234567890", "1x", "1 ", "", "n", "-",
	"1795732482133", "123456789", "12345678x", "1234567890.5", "1234567891e3", "10000000000", "0123456789",
	"1:3456789", "1/3456789", "9999999999999999999", "123456789012345678",
}

// checkReadInt compares ReadInt into an int64 and an int8 field, the
// value followed by '}' and by nothing, with json.Unmarshal.
func checkReadInt(t *testing.T, text string) {
	t.Helper()
	for _, tail := range []string{"}", ""} {
		var r Reader
		r.Reset([]byte(text + tail))
		got64 := int64(-5)
		ReadInt(&r, &got64)
		r.ws()
		ok64 := !r.Failed() && r.i == len(text)
		r.Reset([]byte(text + tail))
		got8 := int8(-5)
		ReadInt(&r, &got8)
		r.ws()
		ok8 := !r.Failed() && r.i == len(text)

		want64, want8 := int64(-5), int8(-5)
		wantOK64 := json.Unmarshal([]byte(text), &want64) == nil
		wantOK8 := json.Unmarshal([]byte(text), &want8) == nil
		if ok64 && !wantOK64 || wantOK64 && (!ok64 || got64 != want64) {
			t.Errorf("%q+%q int64: got %d, %v; json.Unmarshal %d, %v", text, tail, got64, ok64, want64, wantOK64)
		}
		if ok8 && !wantOK8 || wantOK8 && (!ok8 || got8 != want8) {
			t.Errorf("%q+%q int8: got %d, %v; json.Unmarshal %d, %v", text, tail, got8, ok8, want8, wantOK8)
		}
	}
}

func TestReadInt(t *testing.T) {
	t.Parallel()
	for _, s := range readIntSeeds {
		checkReadInt(t, s)
	}
}

func FuzzReadInt(f *testing.F) {
	for _, s := range readIntSeeds {
		f.Add(s)
	}
	f.Fuzz(checkReadInt)
}
