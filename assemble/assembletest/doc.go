// Package assembletest helps tests that look at assembled runs: it drains
// a decoder through an assembler and returns the blocks.
package assembletest
