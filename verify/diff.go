package verify

import (
	"bytes"
	"encoding/json"
	"reflect"
	"slices"
	"strconv"
	"unicode/utf8"
)

// fieldDiff is one differing leaf of two JSON values.
type fieldDiff struct {
	path string
	a, b string
	at   *int
}

// maxLeafDiffs caps the differences reported inside one field.
const maxLeafDiffs = 10

// diffValues compares two JSON values (as encoding/json decodes them into
// any) and returns their differing leaves, objects key by key and arrays
// element by element.
func diffValues(path string, a, b any) []fieldDiff {
	var out []fieldDiff
	walk(path, a, b, &out)
	return out
}

func walk(path string, a, b any, out *[]fieldDiff) {
	if len(*out) >= maxLeafDiffs {
		return
	}
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			break
		}
		keys := make([]string, 0, len(x)+len(y))
		for k := range x {
			keys = append(keys, k)
		}
		for k := range y {
			if _, ok := x[k]; !ok {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			va, inA := x[k]
			vb, inB := y[k]
			p := path + "." + k
			switch {
			case !inA:
				*out = append(*out, fieldDiff{path: p, a: absent, b: render(vb)})
			case !inB:
				*out = append(*out, fieldDiff{path: p, a: render(va), b: absent})
			default:
				walk(p, va, vb, out)
			}
		}
		return
	case []any:
		y, ok := b.([]any)
		if !ok {
			break
		}
		for i := range max(len(x), len(y)) {
			p := path + "[" + strconv.Itoa(i) + "]"
			switch {
			case i >= len(x):
				*out = append(*out, fieldDiff{path: p, a: absent, b: render(y[i])})
			case i >= len(y):
				*out = append(*out, fieldDiff{path: p, a: render(x[i]), b: absent})
			default:
				walk(p, x[i], y[i], out)
			}
		}
		return
	case string:
		if y, ok := b.(string); ok {
			if x != y {
				ea, eb, at := excerpt(x, y)
				*out = append(*out, fieldDiff{path: path, a: ea, b: eb, at: &at})
			}
			return
		}
	}
	if !reflect.DeepEqual(a, b) {
		*out = append(*out, fieldDiff{path: path, a: render(a), b: render(b)})
	}
}

// absent stands for a value one side does not have.
const absent = "(none)"

func render(v any) string {
	b, err := marshal(v)
	if err != nil {
		return "?"
	}
	if len(b) > 2*context+2 {
		r := []rune(string(b))
		if len(r) > 2*context {
			return string(r[:2*context]) + "…"
		}
	}
	return string(b)
}

// context is how many characters an excerpt shows either side of the
// first difference.
const context = 40

// excerpt returns a and b as JSON strings, cut to the context around their
// first differing character, and that character's index (in characters,
// from 0).
func excerpt(a, b string) (string, string, int) {
	ra, rb := []rune(a), []rune(b)
	at := 0
	for at < len(ra) && at < len(rb) && ra[at] == rb[at] {
		at++
	}
	return cut(ra, at), cut(rb, at), at
}

func cut(r []rune, at int) string {
	if len(r) <= 2*context {
		return quote(string(r))
	}
	from, to := max(0, at-context), min(len(r), at+context)
	s := quote(string(r[from:to]))
	if from > 0 {
		s = "…" + s
	}
	if to < len(r) {
		s += "…"
	}
	return s
}

// quote writes s as a JSON string, keeping non-ASCII characters readable.
func quote(s string) string {
	b, err := marshal(s)
	if err != nil || !utf8.Valid(b) {
		return strconv.Quote(s)
	}
	return string(b)
}

// marshal is json.Marshal without HTML escaping, so that <, > and & read
// as themselves.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
