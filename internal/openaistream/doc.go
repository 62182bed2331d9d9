// Package openaistream holds the stream logic the OpenAI formats' parse
// and emit packages share (openai-responses and openai-chat): the read
// loop over SSE messages of both decoders (Driver) and the state both
// encoders keep (Encoder). Their wire types, vocabulary and tables are
// in internal/wire/openai and its chatwire and respwire packages.
package openaistream
