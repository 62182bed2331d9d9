package eventtest

import (
	"bytes"
	"os"
	"testing"
)

// FuzzPieces adds each file to f's corpus in pieces of at most size
// bytes, cut after a unit separator sep (an SSE message's "\n\n", a
// JSON line's "\n"), so that the whole of every recording seeds the
// fuzzer in small inputs. The fuzzer minimises every input that finds
// new coverage by trying to remove each span of its bytes, quadratic in
// its length: seeds of a few KiB keep a worker minimising for the whole
// of a short run. A unit longer than size is cut at size. The fuzz
// function's other arguments, if any, are args, for every piece.
func FuzzPieces(f *testing.F, files []string, sep string, size int, args ...any) {
	f.Helper()
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		for _, p := range Pieces(data, sep, size) {
			f.Add(append([]any{p}, args...)...)
		}
	}
}

// Pieces cuts data into pieces of at most size bytes, each ending after
// sep where data has one within size bytes.
func Pieces(data []byte, sep string, size int) [][]byte {
	var out [][]byte
	for len(data) > 0 {
		n := min(len(data), size)
		if n < len(data) {
			if i := bytes.LastIndex(data[:n], []byte(sep)); i > 0 {
				n = i + len(sep)
			}
		}
		out = append(out, data[:n])
		data = data[n:]
	}
	return out
}
