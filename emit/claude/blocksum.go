package claude

import (
	"crypto/sha256"
	"encoding"
	"encoding/binary"
	"hash"
)

// blockSum computes the SHA-256 of short messages (the uuids' and the
// message ids' seeds) without the work sha256.Sum256 does around its
// one run of the compression function for them: the message is padded
// here into the one block it makes, that block is written to a digest
// kept for reuse, and the sum, which the digest's state is once the
// last block is written, is read from the digest's marshalled state
// (encoding.BinaryAppender: a magic string, then the state's eight
// words, big-endian). That reading is checked once against
// sha256.Sum256; should a Go release marshal otherwise, sha256.Sum256
// is used.
type blockSum struct {
	h       hash.Hash
	state   encoding.BinaryAppender // h
	buf     []byte                  // h's marshalled state, reused
	block   [sha256.BlockSize]byte
	checked bool // whether ok is known
	ok      bool // whether the marshalled state reads as expected
}

// maxOneBlock is the length of the longest message that is one block
// padded: the padding is a 0x80 byte and the length in bits, 8 bytes.
const maxOneBlock = sha256.BlockSize - 9

// stateMagic starts a marshalled SHA-256 digest, its state after it.
const stateMagic = "sha\x03"

// sum returns the SHA-256 of msg.
func (s *blockSum) sum(msg []byte) [sha256.Size]byte {
	if len(msg) > maxOneBlock || !s.usable() {
		return sha256.Sum256(msg)
	}
	return s.oneBlock(msg)
}

// oneBlock returns the SHA-256 of msg, at most maxOneBlock bytes, read
// from the state of s.h after its one padded block.
func (s *blockSum) oneBlock(msg []byte) (sum [sha256.Size]byte) {
	n := copy(s.block[:], msg)
	s.block[n] = 0x80
	clear(s.block[n+1 : maxOneBlock+1])
	binary.BigEndian.PutUint64(s.block[maxOneBlock+1:], uint64(n)*8)
	s.h.Reset()
	s.h.Write(s.block[:])
	s.buf, _ = s.state.AppendBinary(s.buf[:0])
	copy(sum[:], s.buf[len(stateMagic):])
	return sum
}

// usable reports whether oneBlock gives sha256.Sum256's sums, checked on
// first use.
func (s *blockSum) usable() bool {
	if !s.checked {
		s.checked = true
		h := sha256.New()
		if state, ok := h.(encoding.BinaryAppender); ok {
			s.h, s.state = h, state
			probe := []byte("agentstream")
			sum := s.oneBlock(probe)
			s.ok = len(s.buf) >= len(stateMagic)+sha256.Size && string(s.buf[:len(stateMagic)]) == stateMagic &&
				sum == sha256.Sum256(probe)
		}
	}
	return s.ok
}
