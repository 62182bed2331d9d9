// Package validate checks a stream against its format's specification and
// reports each violation with a rule id, a position and a message.
//
// Rules come in two kinds. GEN rules hold for every format and work on
// what the format's decoder yields (canonical events and its positioned
// parse errors), plus a check of the raw bytes for UTF-8. Format rules
// (ENV for the JSON envelope, ...) need the wire itself: the byte cap, the
// final flag, key types; they read the input with package frame and the
// format's exported wire types. Rules lists them all; docs/validate.md is
// the table.
package validate
