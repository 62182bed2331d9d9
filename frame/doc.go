// Package frame splits byte streams into the units wire formats are made
// of, before any format-specific decoding: SSE messages and NDJSON lines.
// Both keep exact positions (line and byte offset) for error messages, hold
// at most one unit in memory, and yield each unit as soon as its last byte
// has arrived, so a live pipe is never held back.
//
// Size caps: one SSE event or one line may be at most the configured number
// of bytes (event.DefaultMaxBytes unless set). A unit over the cap is skipped and
// reported as a *event.ParseError wrapping event.ErrTooLarge; reading
// carries on after it. An SSE message's size is the bytes of its lines,
// from its first line to the blank line that ends it, comments and line
// ends included; a line's size is its bytes with its terminator. Memory
// stays within about twice the cap: the line being read (cut at the cap)
// and the message's data.
//
// Framing does not depend on how the input is cut into reads: the same
// bytes give the same units and the same problems at any read size (the
// fuzz targets check it). SSE lines end in LF, CRLF or CR, a CRLF split
// between two reads included; NDJSON lines end in LF or CRLF.
//
// SSE is framed here rather than by go-sse's reader: go-sse frames with a
// bufio.Scanner whose verdict on an oversized message depends on where
// the reads fell, and a message skipped after it cannot end at a CR-only
// blank line.
package frame
