package jsontext

// KeyIs reports whether the next member of the object being read has the
// key k, written as compact JSON writes it (the key's quote right after
// the '{' or the ',', the ':' right after its closing quote), and if so
// reads the key and the ':' after it, leaving the Reader where Key would
// have. Otherwise it reads nothing: the caller goes on with Key. k must
// be a key Key returns as it is (ASCII, no capital, nothing a JSON string
// escapes).
//
// A decoder that knows the order in which a producer writes its keys
// asks for each in turn, one comparison where Key scans the key and the
// caller's switch compares it again; a key out of that order, or written
// otherwise, is read by the decoder's general loop, as before.
func (r *Reader) KeyIs(k string) bool {
	b, i := r.b, r.i
	if !r.first {
		i++ // past the ','
	}
	end := i + len(k) + 3
	if r.bad || end > len(b) || i < 1 || b[i-1] != ',' && !r.first {
		return false
	}
	if b[i] != '"' || b[end-2] != '"' || b[end-1] != ':' || string(b[i+1:end-2]) != k {
		return false
	}
	r.i, r.first = end, false
	return true
}
