package jsontext

// KeyIs reports whether the next member of the object being read has the
// key of q, q being that key quoted and followed by a colon (`"type":`),
// written as compact JSON writes it (the key's quote right after the '{'
// or the ','), and if so reads the key and the ':', leaving the Reader
// where Key would have. Otherwise it reads nothing: the caller goes on
// with Key. The key must be one Key returns as it is (ASCII, no capital,
// nothing a JSON string escapes).
//
// A decoder that knows the order in which a producer writes its keys
// asks for each in turn, one comparison where Key scans the key and the
// caller's switch compares it again; a key out of that order, or written
// otherwise, is read by the decoder's general loop, as before. KeyIs is
// small enough to be inlined, so that the comparison is with a constant.
func (r *Reader) KeyIs(q string) bool {
	i := r.i
	if !r.first {
		i++ // past the ','
	}
	if r.bad || len(r.b)-i < len(q) || string(r.b[i:i+len(q)]) != q || !r.first && r.b[i-1] != ',' {
		return false
	}
	r.i, r.first = i+len(q), false
	return true
}
