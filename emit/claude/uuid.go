package claude

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"strconv"
)

// lineIDs derives the lines' uuids: the first 16 bytes of the SHA-256 of
// the session id, "/" and the line's number, written as a version 4
// uuid. The message of a short session id fits one block, which is
// padded here around the part that stays (the session id and "/") and
// compressed as it is, its hash read from the digest's state: no copy of
// the digest, no padding written through it, as sha256.Sum256 does.
type lineIDs struct {
	sha     hash.Hash              // sha256.New's, reset for each line
	block   [sha256.BlockSize]byte // the message, padded to one block
	session string                 // the session id block begins with
	prefix  int                    // its length with the "/" (0: none yet)
	state   []byte                 // the digest's state, reused
	seed    []byte                 // the message, for a session id too long for one block
}

// maxOneBlock is the longest message SHA-256 pads into one block (a
// 0x80 byte and the 8-byte length follow it).
const maxOneBlock = sha256.BlockSize - 9

// appendUUID appends the uuid of line n (at least 1) of session.
func (l *lineIDs) appendUUID(b []byte, session string, n int) []byte {
	var h [16]byte
	if l.prefix == 0 || l.session != session {
		l.session, l.prefix = session, len(session)+1
		if l.prefix <= maxOneBlock {
			copy(l.block[:], session)
			l.block[len(session)] = '/'
		}
	}
	if l.prefix+decimalLen(n) <= maxOneBlock {
		h = l.oneBlock(n)
	} else {
		l.seed = strconv.AppendInt(append(append(l.seed[:0], session...), '/'), int64(n), 10)
		sum := sha256.Sum256(l.seed)
		h = [16]byte(sum[:16])
	}
	h[6] = h[6]&0x0f | 0x40
	h[8] = h[8]&0x3f | 0x80
	// Written in place, the dashes moved in after, rather than a byte
	// appended at a time.
	var u [36]byte
	hex.Encode(u[:], h[:])
	copy(u[24:], u[20:32]) // 8-4-4-4-12
	copy(u[19:23], u[16:20])
	copy(u[14:18], u[12:16])
	copy(u[9:13], u[8:12])
	u[8], u[13], u[18], u[23] = '-', '-', '-', '-'
	return append(b, u[:]...)
}

// oneBlock returns the first 16 bytes of the SHA-256 of the session id
// in block, "/" and n, a message of one block.
func (l *lineIDs) oneBlock(n int) [16]byte {
	msg := strconv.AppendInt(l.block[:l.prefix], int64(n), 10)
	end := len(msg)
	l.block[end] = 0x80
	clear(l.block[end+1 : maxOneBlock+1])
	binary.BigEndian.PutUint64(l.block[maxOneBlock+1:], uint64(end)*8)
	if l.sha == nil {
		l.sha = sha256.New()
	}
	l.sha.Reset()
	l.sha.Write(l.block[:])
	// The state as encoding.BinaryMarshaler writes it: a 4-byte magic,
	// then the eight words of the hash, big-endian, which after the last
	// block are its bytes. Anything else is summed as Sum256 does.
	var err error
	if a, ok := l.sha.(encoding.BinaryAppender); ok {
		l.state, err = a.AppendBinary(l.state[:0])
	}
	if err != nil || len(l.state) < 4+sha256.Size || string(l.state[:4]) != "sha\x03" {
		sum := sha256.Sum256(msg)
		return [16]byte(sum[:16])
	}
	return [16]byte(l.state[4:20])
}

// decimalLen returns the number of digits of n, at least 1.
func decimalLen(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}
