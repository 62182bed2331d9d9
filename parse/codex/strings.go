package codex

// str makes the strings the decoder's reader reads (see
// jsontext.Reader.SetStrings): short ones are copied into the decoder's
// slab, few allocations for the many short lines of real Codex runs. A
// string equal to the last one made is that one again: Codex repeats a
// string on the next line it writes a string on (an item's id on its
// item.started and item.completed lines; the message of an error line in
// a turn.failed after it that the decoder reads, not one it knows
// already: see noteError).
func (d *Decoder) str(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if string(b) != d.last {
		d.last = d.al.text.String(b)
	}
	return d.last
}
