package jsontext

// SetStrings makes String, and so StringField and the generated
// readers' string fields, return f(b) for the bytes b of each
// string other than "", instead of a new string: a decoder may intern
// the strings its input repeats, or copy short ones into a slab of its
// own. f must return a string equal to b that nothing changes later (b
// itself is valid only during the call). Reset keeps f; nil restores
// new strings.
func (r *Reader) SetStrings(f func(b []byte) string) { r.strs = f }
