package claude

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// lineIDs derives the lines' uuids: the first 16 bytes of the SHA-256 of
// the session id, "/" and the line's number, written as a version 4
// uuid. The message is built in a buffer kept from line to line.
type lineIDs struct {
	msg []byte
}

// appendUUID appends the uuid of line n (at least 1) of session.
func (l *lineIDs) appendUUID(b []byte, session string, n int) []byte {
	l.msg = strconv.AppendInt(append(append(l.msg[:0], session...), '/'), int64(n), 10)
	sum := sha256.Sum256(l.msg)
	h := sum[:16]
	h[6] = h[6]&0x0f | 0x40
	h[8] = h[8]&0x3f | 0x80
	// Written in place, the dashes moved in after, rather than a byte
	// appended at a time.
	var u [36]byte
	hex.Encode(u[:], h)
	copy(u[24:], u[20:32]) // 8-4-4-4-12
	copy(u[19:23], u[16:20])
	copy(u[14:18], u[12:16])
	copy(u[9:13], u[8:12])
	u[8], u[13], u[18], u[23] = '-', '-', '-', '-'
	return append(b, u[:]...)
}
