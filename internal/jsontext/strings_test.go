package jsontext

import "testing"

// TestSetStrings: String and StringField make their
// strings with the function set, "" aside, and new strings again once it
// is nil; Reset keeps it.
func TestSetStrings(t *testing.T) {
	var r Reader
	var seen []string
	r.SetStrings(func(b []byte) string {
		seen = append(seen, string(b))
		return "<" + string(b) + ">"
	})
	r.Reset([]byte(`["a","",null,"b\u0063"]`))
	r.Array()
	var got []string
	for r.More() {
		switch r.Peek() {
		case 'n':
			var s string
			if r.StringField(&s); s != "" {
				t.Errorf("null read as %q", s)
			}
		default:
			var s string
			r.StringField(&s)
			got = append(got, s)
		}
	}
	if !r.End() || len(got) != 3 || got[0] != "<a>" || got[1] != "" || got[2] != "<bc>" || len(seen) != 2 {
		t.Errorf("read %q, the function saw %q", got, seen)
	}
	r.SetStrings(nil)
	r.Reset([]byte(`"x"`))
	if s := r.String(); s != "x" {
		t.Errorf("without the function: %q", s)
	}
}
