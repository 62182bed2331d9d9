// Package corpustest holds property tests that run every decoder over every
// recorded stream in the repository's testdata and in the shared corpus
// (../shared/corpus when it is there): truncation at random offsets, and
// the decoder contract. It has no code of its own beyond the tests.
package corpustest
