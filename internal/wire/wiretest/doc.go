// Package wiretest helps the tests of one-pass wire readers (the
// generated ones of internal/wire/gen and the hand-written ones): it
// collects recorded JSON lines as seeds, checks that a reader decodes
// every field of its struct as encoding/json does, and compares a reader
// with json.Unmarshal line by line and under fuzzing.
package wiretest
