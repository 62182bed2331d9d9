// Package recording records agent event streams with the arrival time of
// every message, and plays recordings back: as bytes at their recorded
// pace, or served as an SSE endpoint.
//
// # Recording format
//
// An SSE input is recorded byte for byte, with comment lines added, which
// every SSE parser ignores, so a recording is still a valid stream for the
// format's own consumers and for agentstream's decoders:
//
//	:agentstream-recording v1           the first line
//	:t=<ms>                             before each message: when it arrived
//	<the message's lines, as received>  up to and including its blank line
//
// <ms> counts milliseconds from the start of the recording (the call to
// Record, on Config.Now's clock) to the arrival of the message's blank
// line: the moment an SSE client can dispatch it.
// Comment-only messages (keep-alives) are messages too. A line of the
// stream itself that starts with ":t=" or ":agentstream" is preceded by
// ":agentstream-literal", so a player never takes it for one of ours and
// playing gives back exactly the bytes recorded. Added lines end in LF;
// the stream's own line ends (LF, CRLF or CR) are kept as they were.
//
// A line-framed input (NDJSON, or any text that is not SSE) is recorded
// unchanged, so that it stays valid NDJSON, and its timing goes in a
// sidecar file (FILE.timing, named by the caller):
//
//	agentstream-timing v1
//	<line number> <ms>                  one line per line of the recording
//
// The framing is told from the first non-blank line, as format detection
// does. A message or line is written as soon as it has arrived whole, with
// one Write, so a recording cut short keeps every message that arrived. A
// message larger than the size cap is written as it comes, timed when it
// crossed the cap.
//
// # Saving
//
// File saves a recording without touching an earlier one until it is
// complete: the recording and its sidecar are written to NAME.partial and
// NAME.partial.timing and renamed into place by Commit; Abort keeps what
// was recorded there (or removes the files if nothing was).
//
// # Playing
//
// A Player reads a recording, or any SSE or line-framed file (untimed),
// chunk by chunk: an SSE message with its blank line, or a line (one over
// Player.MaxChunkBytes comes in parts, so a player holds no more). Play
// calls a function with every chunk at its time, scaled and capped by a
// Timing; Reader turns that into a live io.Reader, which a decoder can
// read as it would read the recorded input.
//
// # Serving
//
// Handler serves a recording as an SSE endpoint: every client gets the
// whole recording from the start, at its recorded pace, or from the
// message after the one its Last-Event-ID names. Every message is served
// with its 1-based position in the recording as its id, so that ids are
// unique and increasing whatever id: fields were recorded. An unknown
// Last-Event-ID replays from the start; the last message's id gets 204 No
// Content, which tells an EventSource to stop reconnecting. The recording
// is read per client as it plays (ReadAt on one shared file), so memory
// grows neither with the recording nor with the clients.
package recording
