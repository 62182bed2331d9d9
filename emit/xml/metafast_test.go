package xml

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"errors"
	"io"
	"math/bits"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/event"
	"github.com/agentstream/agentstream/event/eventtest"
	"github.com/agentstream/agentstream/parse/jsonenv"
	"github.com/agentstream/agentstream/parse/xmlstream"
)

// checkOnePass checks that appendMetaOnePass takes only valid JSON and
// then writes what appendMetaDataPasses writes. It reports whether it took
// raw.
func checkOnePass(t *testing.T, raw []byte) bool {
	t.Helper()
	got, ok := appendMetaOnePass([]byte("x"), raw)
	if !ok {
		return false
	}
	if !json.Valid(raw) {
		t.Fatalf("appendMetaOnePass(%q) took JSON that is not valid", raw)
	}
	if diff := cmp.Diff(string(appendMetaDataPasses([]byte("x"), raw)), string(got)); diff != "" {
		t.Fatalf("appendMetaOnePass(%q) (-passes +one pass):\n%s", raw, diff)
	}
	return true
}

// onePassInputs are JSON texts valid and not, around the grammar
// appendMetaOnePass checks.
var onePassInputs = []string{
	`{}`, `[]`, `{"a": [1, -2.5e3, true, false, null, "\u00e9\/\b\f\n\r\t\\\""]}`, ` "s"	`, `0`, `-0.0E+1`,
	`[`, `]`, `{"a" 1}`, `{"a":}`, `{,}`, `[1,]`, `{"a":1,}`, `[1 2]`, `{"a":1]`, `[1}`, `{1:2}`, `01`, `-`, `1.`,
	`1e`, `1e+`, `.5`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"\x01\"", `"abc`, `"abc\`, `tru`, `nul`, `falsey`,
	`{"a":1} {}`, ``, ` `, `{"a":"b"}x`, `"<&>'"`, `{"k<'>": "v&"}`, "\"é测🦊\"", "\"\xed\xa0\x80\"",
	strings.Repeat("[", 511) + strings.Repeat("]", 511), strings.Repeat("[", 512) + strings.Repeat("]", 512),
	strings.Repeat("[{\"a\":", 300) + "1" + strings.Repeat("}]", 300),
	edgeChars,
	// Runs of escapes, with a byte or two and the other stops between them.
	`"\u00dcn\u00efc\u00f6d\u00e9 x \ud83e\udd8a.\n\"q\"\\"`, `"\u00dcnn\"<\u00e9&'"`, `"\u00dc\u12"`, `"\u00dcn\u12`,
	`"\u00dcn\`, `"\n\u00e9é\t"`, `"\u00dc"`, `"\\\\\\"`,
	`"\u00dc\u00e9"`, `"\u00dcn\u00e9x"`, `"\u00dcnn\u00e9"`, `"\u00dc"n"`, `"\u00dcn"x"`, `"\u00dc\u00g9"`,
	`"\u00dcn\q"`, `"\u00dc\"x"`, `"\u0Af9\uFfFf"`, `"\u00dc` + "\x01" + `\n"`, `"\u00dc&\n"`, `"\u00dc\u00d"`,
	"\"\xc1\xbf\"", "\"\xe0\x9f\xbf\"", "\"\xc2\"", "\"\xe1\x80\"", "\"\xe1\x80", "\"\xf4\x90\x80\x80\"",
	// Runs of characters outside ASCII, and the plain byte or the stop
	// between them.
	"\"Ünïcödé — 测试 🦊.\"", "\"éaé\"", "\"éa\xff\"", "\"é<é&é'é\"", "\"é\"é\"", "\"éa", "\"é\\né\"", "\"é\x01é\"",
	`{"long": "` + strings.Repeat(`plain text, \"quoted\" \\ \u00e9 & more `, 20) + `"}`,
}

// edgeChars is a JSON string of the first and last characters of each
// UTF-8 length and of the ranges E0, ED and F4 restrict.
const edgeChars = "\"\xc2\x80\xdf\xbf\xe0\xa0\x80\xe1\x80\x80\xed\x9f\xbf\xee\x80\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf\""

func TestAppendMetaOnePass(t *testing.T) {
	t.Parallel()
	for _, s := range append(onePassInputs, metaDataInputs...) {
		checkOnePass(t, []byte(s))
	}
	if !checkOnePass(t, []byte(edgeChars)) {
		t.Errorf("appendMetaOnePass did not take %q", edgeChars)
	}
}

// TestAppendMetaOnePassCorpus: every meta payload of the XML and envelope
// recordings takes the one pass, and it writes what the passes write.
func TestAppendMetaOnePassCorpus(t *testing.T) {
	t.Parallel()
	n := 0
	for _, dir := range []string{"xml", "jsonenv"} {
		for _, file := range eventtest.Corpus(t, filepath.Join("../../testdata", dir), "*.sse") {
			payloads := metaPayloads(t, dir, file)
			n += len(payloads)
			for _, raw := range payloads {
				if !checkOnePass(t, raw) {
					t.Errorf("%s: appendMetaOnePass did not take %.80q", file, raw)
				}
			}
		}
	}
	if n < 50 {
		t.Errorf("%d meta payloads in the recordings, want 50 or more", n)
	}
}

// metaPayloads returns the meta payloads of the producer's own in file.
func metaPayloads(t *testing.T, dir, file string) [][]byte {
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var dec event.Decoder
	if dir == "xml" {
		dec = xmlstream.NewDecoder(bytes.NewReader(data), nil)
	} else {
		dec = jsonenv.NewDecoder(bytes.NewReader(data), nil)
	}
	var out [][]byte
	for {
		ev, err := dec.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			continue // bad lines of the hand-made files
		}
		switch ev := ev.(type) {
		case *event.SessionStart:
			if ev.MetaKind == xmlstream.MetaKind && len(ev.Meta) > 0 {
				out = append(out, ev.Meta)
			}
		case *event.RunEnd:
			if ev.MetaKind == xmlstream.MetaKind && len(ev.Meta) > 0 {
				out = append(out, ev.Meta)
			}
		}
	}
}

func FuzzAppendMetaOnePass(f *testing.F) {
	for _, s := range append(onePassInputs, metaDataInputs...) {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkOnePass(t, []byte(s))
	})
}

// TestMetaStrStops: metaStrStops marks a byte of every value at every
// place exactly when metaStrSpecial does, plain bytes around it.
func TestMetaStrStops(t *testing.T) {
	t.Parallel()
	for c := range 256 {
		for p := range 8 {
			w := []byte("abcdefgh")
			w[p] = byte(c)
			m := metaStrStops(binary.LittleEndian.Uint64(w))
			got := -1
			if m != 0 {
				got = bits.TrailingZeros64(m) >> 3
			}
			want := -1
			if metaStrSpecial[c] == 1 {
				want = p
			}
			if got != want {
				t.Errorf("metaStrStops(%q) marks byte %d first, want %d", w, got, want)
			}
		}
	}
}

// TestHex4: hex4 takes four bytes exactly when each is a hexadecimal
// digit, for every value at every place, with digits, letters and other
// bytes around it.
func TestHex4(t *testing.T) {
	t.Parallel()
	for _, around := range []string{"0000", "fFaA", "9g/:", "\xff\x80@`"} {
		for c := range 256 {
			for p := range 4 {
				w := []byte(around)
				w[p] = byte(c)
				want := !bytes.ContainsFunc(w, func(r rune) bool { return !strings.ContainsRune("0123456789abcdefABCDEF", r) })
				if got := hex4(binary.LittleEndian.Uint32(w)); got != want {
					t.Errorf("hex4(%q) = %v, want %v", w, got, want)
				}
			}
		}
	}
}
