package openaichat

import wire "github.com/agentstream/agentstream/internal/openai/chatwire"

// appendChunk appends c to b as openai.Marshal writes it, by the writer
// generated from chatwire's declarations. TestAppendChunk and
// FuzzAppendChunk compare the two.
func appendChunk(b []byte, c *wire.Chunk) ([]byte, error) { return wire.AppendChunk(b, c) }
