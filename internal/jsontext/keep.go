package jsontext

// The readers of values that repeat from one read to the next (an id, a
// model, a creation time), for a decoder that reads message after
// message: the generated readers' keep= fields (internal/wire/gen).

// KeepString reads a string. *last is the text of the last one read,
// quotes included, if it had no escape: a value repeated from one read to
// the next is one comparison, no scan, no allocation.
func (r *Reader) KeepString(last *string) string {
	r.Peek() // past white space
	if t := *last; t != "" && r.StringIs(t) {
		return t[1 : len(t)-1]
	}
	off := r.Offset()
	b := r.Str()
	if raw := r.Since(off); len(raw) == len(b)+2 && string(raw[1:len(raw)-1]) == string(b) {
		*last = string(raw)
		return (*last)[1 : len(b)+1]
	}
	return string(b)
}

// KeptInt is the last integer KeepInt read: its text and value.
type KeptInt struct {
	text string
	n    int64
}

// KeepInt reads an integer as ReadInt does, but for null, which its
// caller reads. A value repeated from the last read, *last, is one
// comparison.
func (r *Reader) KeepInt(last *KeptInt) int64 {
	r.Peek() // past white space
	off := r.Offset()
	if t := last.text; t != "" && r.StringIs(t) {
		if b := r.Peek(); b == ',' || b == '}' {
			return last.n
		}
		r.Rewind(off, r.Depth()) // a longer number
	}
	n := r.Int()
	if text := r.Since(off); !r.Failed() && string(text) != last.text {
		last.text, last.n = string(text), n
	}
	return n
}

// KeepStringPtr is KeepString for a *string: *last is a new string when
// the value differs, so that a pointer handed out before keeps its value.
func (r *Reader) KeepStringPtr(last **string) *string {
	if b := r.Str(); *last == nil || string(b) != **last {
		s := string(b)
		*last = &s
	}
	return *last
}

// KeptStrings is the last list of strings KeepStrings read, and its text.
type KeptStrings struct {
	text string
	list []string
}

// KeepStrings reads a list of strings that is not null (its caller reads
// null) into a nil slice as json.Unmarshal does. A list whose text is the
// last one's is the last list, read with one comparison: a producer that
// repeats a long list (the tools of every init) has it scanned once. The
// list is shared with the last value read, and the next: the caller
// copies a list it hands on to be kept.
func (r *Reader) KeepStrings(last *KeptStrings) []string {
	r.Peek() // past white space
	if last.text != "" && r.StringIs(last.text) {
		return last.list
	}
	off := r.Offset()
	var s []string
	if r.Array() {
		s = make([]string, 0, len(last.list))
		for r.More() {
			s = append(s, "")
			r.StringField(&s[len(s)-1])
		}
	}
	if !r.Failed() {
		last.text, last.list = string(r.Since(off)), s
	}
	return s
}
