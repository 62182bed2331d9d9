package jsontext

import "encoding/json"

// Decode decodes data into v as json.Unmarshal does: in one pass with
// read when read can (it reports false for anything it does not decode
// exactly as encoding/json would), else by resetting v and handing data
// to json.Unmarshal, which also gives the error and its wording. r is
// reused across calls.
func Decode[T any](r *Reader, data []byte, v *T, read func(*Reader, *T) bool) error {
	r.Reset(data)
	return decode(r, data, v, read)
}

// DecodeValid is Decode for data the caller knows to be valid UTF-8, as
// badutf8.Fix returns it: the Reader is reset with ResetValid, whose
// precondition data must meet.
func DecodeValid[T any](r *Reader, data []byte, v *T, read func(*Reader, *T) bool) error {
	r.ResetValid(data)
	return decode(r, data, v, read)
}

func decode[T any](r *Reader, data []byte, v *T, read func(*Reader, *T) bool) error {
	if read(r, v) && r.End() {
		return nil
	}
	var zero T
	*v = zero
	r.spaced = true // unknown: encoding/json read it
	return json.Unmarshal(data, v)
}

// Valid reports whether data is one JSON value, as json.Valid does: read
// in one pass by r (reset to data, reused across calls), with json.Valid
// the judge of what r refuses (nesting deeper than r follows).
func Valid(r *Reader, data []byte) bool {
	r.Reset(data)
	r.Skip()
	return r.End() || json.Valid(data)
}
