module github.com/agentstream/agentstream

go 1.26.8

require github.com/tmaxmax/go-sse v0.11.0

require github.com/google/go-cmp v0.7.0
