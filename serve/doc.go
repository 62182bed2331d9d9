// Package serve answers HTTP requests with recordings, as a mock of an
// agent's or a model API's streaming endpoint for frontend tests.
//
// # Fixtures
//
// A fixtures file (JSON, see fixtures.schema.json and docs/recording.md)
// lists fixtures in order; each names a recording and when to serve it:
//
//	{"fixtures": [
//	  {"match": {"method": "POST", "path": "/api/chat", "userMessage": "weather", "call": 2},
//	   "recording": "weather-2.sse", "to": "openai-chat", "timing": "none"}
//	]}
//
// A request is answered by the first fixture all of whose conditions hold:
//
//   - method: the request's method (any when absent; case-insensitive).
//   - path: the request's path, exactly, without the query (any when
//     absent).
//   - userMessage: a substring of the text of the request body's last user
//     message; userMessageRegexp: an RE2 pattern that text matches. A
//     request whose body holds no user message matches neither.
//   - call: the request is the n-th (1-based) that meets the fixture's
//     other conditions. Every request counts towards every fixture whose
//     other conditions it meets, whichever fixture answers it, so a
//     fixture's count does not depend on the fixtures before it.
//
// The last user message is read from the request body as the common
// clients write it: OpenAI Chat Completions, Anthropic Messages, AG-UI and
// the AI SDK's useChat ("messages": the last element with role "user";
// its "content" string, or the text of its "content" or "parts" array),
// OpenAI Responses ("input": a string, or the last item with role "user"),
// Gemini ("contents": the last with role "user", the text of its "parts")
// and completions ("prompt": a string). The text of several text parts is
// joined with newlines. A body is read whole, up to MaxBodyBytes.
//
// No fixture matching is answered 404 with a JSON body naming what was
// asked: method, path, last user message (absent when the body held
// none) and call, the number of requests with the same method, path and
// last user message so far, this one included.
//
// # Serving
//
// A fixture's recording is served as replay writes it: the recorded bytes
// ("to" absent), byte for byte the stream that was recorded, or converted
// to the format "to" names (with "framing" for the formats that have one),
// byte for byte what `replay --no-delay --to` writes. It is played at its
// recorded pace ("timing": "recorded", the default for a recording that
// has timing) or without waiting ("none", the default for one that has
// none). The response headers go out at once, before the first wait:
// Content-Type from the served format (text/event-stream for SSE,
// application/x-ndjson for NDJSON, text/plain for model text), and the
// headers that format's clients require (the Media table).
//
// A directory of recordings can be served without a fixtures file: the
// path /NAME serves the recording NAME of the directory, as a fixture
// with no conditions would.
//
// A recording is read as it is played, so a server holds one event of
// each response being played and no more.
package serve
