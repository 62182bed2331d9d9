package claude

import (
	"crypto/sha256"
	"encoding/binary"
	"math/bits"
	"slices"
	"strconv"
)

// lineIDs derives the lines' uuids: the first 16 bytes of the SHA-256 of
// the session id, "/" and the line's number, written as a version 4
// uuid. The message is built in a buffer kept from line to line, padded
// there as the one SHA-256 block it makes when it fits one (see
// blockSum); for the line after the last, of the same session, only its
// number's digits change, counted up in place, and the padding stays.
// The session is set apart (setSession), when it changes, not compared
// at every line.
type lineIDs struct {
	msg     []byte                 // block[:len(msg)] when it fits one block padded; empty until made
	block   [sha256.BlockSize]byte // msg, padded
	session string                 // the session id msg starts with
	n       int                    // the number msg ends with
	sums    blockSum
}

// setSession makes session the session id of the uuids that follow.
func (l *lineIDs) setSession(session string) {
	if session != l.session {
		l.session, l.msg = session, l.msg[:0]
	}
}

// appendUUID appends the uuid of line n (at least 1) of the session.
func (l *lineIDs) appendUUID(b []byte, n int) []byte {
	if n != l.n+1 || len(l.msg) == 0 || !l.next() {
		// Beyond the block's room, append moves msg elsewhere.
		l.msg = strconv.AppendInt(append(append(l.block[:0], l.session...), '/'), int64(n), 10)
		if len(l.msg) <= maxOneBlock {
			pad(&l.block, len(l.msg))
		}
	}
	l.n = n
	var sum *[sha256.Size]byte
	if len(l.msg) <= maxOneBlock {
		sum = l.sums.padded(&l.block, len(l.msg))
	} else {
		s := sha256.Sum256(l.msg)
		sum = &s
	}
	// 8-4-4-4-12 hex digits: each four bytes' eight digits made and
	// written at once, the dashes written over after, in place in b,
	// then the version (4) and variant (binary 10) bits over the digits
	// of the high halves of bytes 6 and 8: the sum is read as it is,
	// not changed first.
	b = slices.Grow(b, 36)
	u := b[len(b) : len(b)+36]
	le := binary.LittleEndian
	le.PutUint64(u[0:], hex8(sum[0:]))
	d := hex8(sum[4:])
	le.PutUint32(u[9:], uint32(d))
	le.PutUint32(u[14:], uint32(d>>32))
	d = hex8(sum[8:])
	le.PutUint32(u[19:], uint32(d))
	le.PutUint32(u[24:], uint32(d>>32))
	le.PutUint64(u[28:], hex8(sum[12:]))
	u[8], u[13], u[18], u[23] = '-', '-', '-', '-'
	u[14], u[19] = '4', "89ab"[sum[8]>>4&3]
	return b[:len(b)+36]
}

// next adds one to the number msg ends with, in place. It reports false,
// leaving msg as it was, when that would make the number one digit longer.
func (l *lineIDs) next() bool {
	for i := len(l.msg) - 1; l.msg[i] != '/'; i-- {
		if l.msg[i] != '9' {
			l.msg[i]++
			for i++; i < len(l.msg); i++ {
				l.msg[i] = '0'
			}
			return true
		}
	}
	return false
}

// hex8 returns the eight lower-case hex digits of the first four bytes
// of p, the first digit in the lowest byte.
func hex8(p []byte) uint64 {
	x := uint64(binary.BigEndian.Uint32(p))
	// One nibble a byte, the first digit's in the highest.
	x = (x | x<<16) & 0x0000ffff0000ffff
	x = (x | x<<8) & 0x00ff00ff00ff00ff
	x = (x | x<<4) & 0x0f0f0f0f0f0f0f0f
	x = bits.ReverseBytes64(x)
	// '0' + n, and 'a' - 10 - '0' more for a nibble above 9.
	above9 := (x + 0x0606060606060606) >> 4 & 0x0101010101010101
	return x + 0x3030303030303030 + above9*('a'-10-'0')
}
