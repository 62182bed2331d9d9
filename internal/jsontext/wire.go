package jsontext

import "encoding/json"

// The functions of this file are what the readers generated from wire
// declarations (internal/wire/gen) call for the field types they do not
// spell out. Each reads one value into *p as json.Unmarshal into a field
// of that type would, or fails the Reader.

// ReadInt reads an integer into an integer field: null leaves it as it
// is; one that does not fit the field's type fails.
func ReadInt[T ~int | ~int8 | ~int16 | ~int32 | ~int64](r *Reader, p *T) {
	// A count or an exit code: digits right there, fewer than 19 (no
	// overflow to check), not a float's, read in one loop; anything else
	// (a sign, white space, a leading zero, null) as Int reads it.
	if b, i := r.b, r.i; i < len(b) && b[i]-'0' <= 9 {
		n, j := int64(b[i]-'0'), i+1
		for ; n != 0 && j < len(b) && j-i < 18 && b[j]-'0' <= 9; j++ {
			n = n*10 + int64(b[j]-'0')
		}
		if j < len(b) && b[j]-'0' > 9 && b[j] != '.' && b[j] != 'e' && b[j] != 'E' && int64(T(n)) == n {
			r.i, *p = j, T(n)
			return
		}
	}
	if r.Peek() == 'n' && r.Null() {
		return
	}
	n := r.Int()
	if int64(T(n)) != n {
		r.bad = true
		return
	}
	*p = T(n)
}

// ReadBool reads true or false into a bool field: null leaves it as it
// is.
func ReadBool(r *Reader, p *bool) {
	if !r.Null() {
		*p = r.Bool()
	}
}

// ReadFloat reads a number into a float64 field: null leaves it as it is.
func ReadFloat(r *Reader, p *float64) {
	if !r.Null() {
		*p = r.Float()
	}
}

// ReadRaw reads any value into a json.RawMessage field, as its
// UnmarshalJSON does: a copy of the value's text, null included, in the
// field's own array.
func ReadRaw(r *Reader, p *json.RawMessage) {
	raw := r.Skip()
	if !r.bad {
		*p = append((*p)[:0], raw...)
	}
}

// ReadAny reads any value into an interface field with json.Unmarshal,
// which gives it the types encoding/json chooses.
func ReadAny(r *Reader, p *any) {
	raw := r.Skip()
	if !r.bad && json.Unmarshal(raw, p) != nil {
		r.bad = true
	}
}

// ReadUnmarshaler reads a value of a type with its own UnmarshalJSON:
// the value's text, null included, goes to it, as encoding/json hands it.
func ReadUnmarshaler(r *Reader, u json.Unmarshaler) {
	raw := r.Skip()
	if !r.bad && u.UnmarshalJSON(raw) != nil {
		r.bad = true
	}
}

// SkipField skips the value of a key that matched no field exactly. It
// fails when folded, the key with its ASCII capitals lower-cased, reports
// true: encoding/json would have matched the key to a field
// case-insensitively. (Key and KeyFold refuse non-ASCII keys, whose
// folding encoding/json does with Unicode's rules.)
func (r *Reader) SkipField(key []byte, folded func(string) bool) {
	lower := append(r.buf[:0], key...)
	for i, c := range lower {
		if 'A' <= c && c <= 'Z' {
			lower[i] = c + 'a' - 'A'
		}
	}
	r.buf = lower
	if folded(string(lower)) {
		r.bad = true
		return
	}
	r.Skip()
}

// Ensure returns *p, set to a new T first if nil: encoding/json decodes
// into what a pointer points to, if anything.
func Ensure[T any](p **T) *T {
	if *p == nil {
		*p = new(T)
	}
	return *p
}

// EnsureIn is Ensure with *buf, zeroed, for the new T: a reader of
// structs reused from value to value decodes into a buffer of the
// struct's own instead of allocating (the generator's wire:"buf=field").
func EnsureIn[T any](p **T, buf *T) *T {
	if *p == nil {
		var zero T
		*buf = zero
		*p = buf
	}
	return *p
}

// Extend returns s one element longer. encoding/json decodes into the
// element s's array holds past its length, as it is, if it has one.
func Extend[E any](s []E) []E {
	if len(s) < cap(s) {
		return s[:len(s)+1]
	}
	var zero E
	return append(s, zero)
}

// NotNil returns s, or an empty slice if s is nil: encoding/json sets a
// slice field to an empty slice for [].
func NotNil[E any](s []E) []E {
	if s == nil {
		return []E{}
	}
	return s
}
