package recording_test

import (
	"bytes"
	"io"
	"os"
	"testing"

	"github.com/agentstream/agentstream/recording"
)

func sample(b *testing.B) []byte {
	b.Helper()
	data, err := os.ReadFile("../testdata/jsonenv/tooluse.sse")
	if err != nil {
		b.Fatal(err)
	}
	return bytes.Repeat(data, 50)
}

func BenchmarkRecord(b *testing.B) {
	data := sample(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := recording.Record(io.Discard, bytes.NewReader(data), nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkPlayer(b *testing.B) {
	var rec bytes.Buffer
	if _, err := recording.Record(&rec, bytes.NewReader(sample(b)), nil); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(rec.Len()))
	for b.Loop() {
		p := recording.NewPlayer(bytes.NewReader(rec.Bytes()), nil)
		for {
			if _, err := p.Next(); err == io.EOF {
				break
			} else if err != nil {
				b.Fatal(err)
			}
		}
	}
}
