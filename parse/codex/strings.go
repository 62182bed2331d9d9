package codex

// str makes the strings the decoder's reader reads (see
// jsontext.Reader.SetStrings): short ones are copied into the decoder's
// slab, few allocations for the many short lines of real Codex runs.
func (d *Decoder) str(b []byte) string { return d.al.text.String(b) }
