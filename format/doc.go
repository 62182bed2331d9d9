// Package format describes wire formats to the rest of agentstream: the
// Format value each parse/<format> package exports (name, detection,
// decoder, validate rules, what the format cannot carry), the Options its
// decoder and encoder read, and Head, the first unit of an input that
// detection looks at.
//
// It imports only the event model and the standard library, so every
// format package can import it and nothing it imports knows a format.
package format
