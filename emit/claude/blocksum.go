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
	out     [sha256.Size]byte // the sum padded returns when not read from buf
	checked bool              // whether ok is known
	ok      bool              // whether the marshalled state reads as expected
}

// maxOneBlock is the length of the longest message that is one block
// padded: the padding is a 0x80 byte and the length in bits, 8 bytes.
const maxOneBlock = sha256.BlockSize - 9

// stateMagic starts a marshalled SHA-256 digest, its state after it.
const stateMagic = "sha\x03"

// sum returns the SHA-256 of msg.
func (s *blockSum) sum(msg []byte) [sha256.Size]byte {
	if len(msg) > maxOneBlock {
		return sha256.Sum256(msg)
	}
	n := copy(s.block[:], msg)
	pad(&s.block, n)
	return *s.padded(&s.block, n)
}

// pad writes the padding of a message of n bytes, at most maxOneBlock,
// after it in block.
func pad(block *[sha256.BlockSize]byte, n int) {
	block[n] = 0x80
	clear(block[n+1 : maxOneBlock+1])
	binary.BigEndian.PutUint64(block[maxOneBlock+1:], uint64(n)*8)
}

// padded returns the SHA-256 of block[:n], which pad padded, read from
// the state of s.h after the block: in s's own memory, until the next
// call (not copied out for the caller to copy again).
func (s *blockSum) padded(block *[sha256.BlockSize]byte, n int) *[sha256.Size]byte {
	if !s.checked {
		s.check()
	}
	if !s.ok {
		s.out = sha256.Sum256(block[:n])
		return &s.out
	}
	s.h.Reset()
	s.h.Write(block[:])
	s.buf, _ = s.state.AppendBinary(s.buf[:0])
	if len(s.buf) < len(stateMagic)+sha256.Size {
		clear(s.out[:])
		return &s.out // check, which calls padded first, finds it so
	}
	return (*[sha256.Size]byte)(s.buf[len(stateMagic):])
}

// check finds whether the digest's marshalled state reads as padded
// reads it, comparing a sum with sha256.Sum256's.
func (s *blockSum) check() {
	s.checked = true
	h := sha256.New()
	state, ok := h.(encoding.BinaryAppender)
	if !ok {
		return
	}
	s.h, s.state, s.ok = h, state, true
	// In a block of its own: the caller's may be s.block.
	var block [sha256.BlockSize]byte
	probe := "agentstream"
	pad(&block, copy(block[:], probe))
	sum := *s.padded(&block, len(probe))
	s.ok = len(s.buf) >= len(stateMagic)+sha256.Size && string(s.buf[:len(stateMagic)]) == stateMagic &&
		sum == sha256.Sum256([]byte(probe))
}
