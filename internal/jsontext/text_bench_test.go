package jsontext

import (
	"bytes"
	"os"
	"testing"
	"unicode/utf8"
)

// The benchmarks below run on the text of the make perf rows that are
// slowest against jq (testdata/perf, cut from the 20 MB inputs of make perf): the
// jsonenv envelopes of text deltas (short keys, prose dense in non-ASCII),
// a jsonenv meta_final envelope (a JSON text in a string: '\\' and '"'
// every few bytes), and an xml meta_final payload (Python's json.dumps:
// every non-ASCII character a \u escape, emoji as surrogate pairs).

func perfFile(tb testing.TB, name string) []byte {
	b, err := os.ReadFile("testdata/perf/" + name)
	if err != nil {
		tb.Fatal(err)
	}
	return bytes.TrimSpace(b)
}

// perfTexts returns the JSON texts of the benchmarks, by name.
func perfTexts(tb testing.TB) []struct {
	name  string
	lines [][]byte
} {
	var envelopes [][]byte
	for line := range bytes.Lines(perfFile(tb, "jsonenv-text.jsonl")) {
		envelopes = append(envelopes, bytes.TrimSpace(line))
	}
	return []struct {
		name  string
		lines [][]byte
	}{
		{"envelopes", envelopes},
		{"jsonenv-meta", [][]byte{perfFile(tb, "jsonenv-meta_final.json")}},
		{"xml-meta", [][]byte{perfFile(tb, "xml-meta_final.json")}},
	}
}

// perfStrings returns the strings the encoders escape on those rows: the
// envelopes' deltas, the jsonenv meta_final payload (a JSON text), the
// xml meta_final's result (the run's whole answer) and its whole payload,
// with their JSON text.
func perfStrings(tb testing.TB) []struct {
	name   string
	strs   []string
	quoted [][]byte
} {
	var deltas []string
	var quotedDeltas [][]byte
	for line := range bytes.Lines(perfFile(tb, "jsonenv-text.jsonl")) {
		q, s := stringField(tb, line, "delta")
		deltas, quotedDeltas = append(deltas, s), append(quotedDeltas, q)
	}
	qp, payload := stringField(tb, perfFile(tb, "jsonenv-meta_final.json"), "delta")
	xmlMeta := perfFile(tb, "xml-meta_final.json")
	qr, result := stringField(tb, xmlMeta, "result")
	return []struct {
		name   string
		strs   []string
		quoted [][]byte
	}{
		{"deltas", deltas, quotedDeltas},
		{"payload", []string{payload}, [][]byte{qp}},
		{"result", []string{result}, [][]byte{qr}},
		// The xml meta_final payload as emit/jsonenv writes it: a JSON
		// text with a \u escape every few bytes, in a string.
		{"xml-payload", []string{string(xmlMeta)}, [][]byte{AppendString(nil, string(xmlMeta))}},
	}
}

// stringField returns the JSON text and the value of the string member
// key of the object in line.
func stringField(tb testing.TB, line []byte, key string) ([]byte, string) {
	var r Reader
	r.Reset(bytes.TrimSpace(line))
	r.Object()
	for k, ok := r.Key(); ok; k, ok = r.Key() {
		if string(k) != key {
			r.Skip()
			continue
		}
		r.ws()
		off := r.Offset()
		s := r.String()
		if r.Failed() {
			break
		}
		return bytes.Clone(r.b[off:r.Offset()]), s
	}
	tb.Fatalf("no string %q in %.80s", key, line)
	return nil, ""
}

func totalLen[T string | []byte](xs []T) int {
	n := 0
	for _, x := range xs {
		n += len(x)
	}
	return n
}

// benchTexts runs f on each text with a Reader, which must then be at
// the text's end.
func benchTexts(b *testing.B, name string, texts [][]byte, f func(r *Reader, text []byte)) {
	b.Run(name, func(b *testing.B) {
		b.SetBytes(int64(totalLen(texts)))
		b.ReportAllocs()
		var r Reader
		for b.Loop() {
			for _, t := range texts {
				f(&r, t)
				if !r.End() {
					b.Fatalf("%.80s: failed", t)
				}
			}
		}
	})
}

// BenchmarkPerfRead reads the texts as the decoders do (ResetValid, keys,
// StrValid), and skips them.
func BenchmarkPerfRead(b *testing.B) {
	for _, tc := range perfTexts(b) {
		benchTexts(b, "Read/"+tc.name, tc.lines, func(r *Reader, l []byte) {
			r.ResetValid(l)
			visit(r)
		})
		benchTexts(b, "Skip/"+tc.name, tc.lines, func(r *Reader, l []byte) {
			r.Reset(l)
			r.Skip()
		})
	}
}

// BenchmarkPerfString reads one string value with escapes: StrValid (as
// after ResetValid), Str (as after Reset) and String.
func BenchmarkPerfString(b *testing.B) {
	for _, tc := range perfStrings(b) {
		benchTexts(b, "StrValid/"+tc.name, tc.quoted, func(r *Reader, q []byte) {
			r.Reset(q)
			r.StrValid()
		})
		benchTexts(b, "Str/"+tc.name, tc.quoted, func(r *Reader, q []byte) {
			r.Reset(q)
			r.Str()
		})
		benchTexts(b, "String/"+tc.name, tc.quoted, func(r *Reader, q []byte) {
			r.Reset(q)
			_ = r.String()
		})
	}
}

// BenchmarkPerfEscape escapes the strings as the encoders do.
func BenchmarkPerfEscape(b *testing.B) {
	for _, tc := range perfStrings(b) {
		run := func(name string, f func([]byte, string) []byte) {
			b.Run(name+"/"+tc.name, func(b *testing.B) {
				b.SetBytes(int64(totalLen(tc.strs)))
				b.ReportAllocs()
				buf := make([]byte, 0, 1<<16)
				for b.Loop() {
					for _, s := range tc.strs {
						buf = f(buf[:0], s)
					}
				}
			})
		}
		run("AppendString", AppendString)
		run("AppendMarshalString", AppendMarshalString)
		run("AppendMarshalEscaped", AppendMarshalEscaped)
		run("AppendStringPrefix", func(b []byte, s string) []byte {
			// Cut into chunks as emit/jsonenv cuts a payload.
			valid := utf8.ValidString(s)
			for len(s) > 0 {
				var n int
				b, n = AppendStringPrefix(b[:0], s, 4000, valid)
				s = s[n:]
			}
			return b
		})
		n := 0
		run("utf8Run", func(b []byte, s string) []byte {
			for len(s) > 0 {
				k := utf8Run(s)
				n += k
				if k == len(s) {
					break
				}
				s = s[k+1:]
			}
			return b
		})
	}
}
