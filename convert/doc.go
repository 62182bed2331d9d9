// Package convert holds the explicit table of wire formats agentstream
// knows (Formats, Lookup), format detection from the first unit of an
// input (Detect), the decoder -> encoder pipe (Pipe), and Session, the
// same conversion for an input pushed in pieces. Every format is a
// decoder in parse/<format> and an encoder in emit/<format> meeting in
// package event: N formats need N of each, never N×N converters.
package convert
