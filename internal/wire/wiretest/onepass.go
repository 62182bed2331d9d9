package wiretest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"go/token"
	"iter"
	"os"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// JSONLines returns the lines of files, then extra: seeds for the tests
// and fuzz targets that compare a one-pass line reader with
// encoding/json.
func JSONLines(t testing.TB, files []string, extra ...string) [][]byte {
	t.Helper()
	var lines [][]byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 16<<20)
		for sc.Scan() {
			lines = append(lines, bytes.Clone(sc.Bytes()))
		}
		if err := sc.Err(); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
	}
	for _, s := range extra {
		lines = append(lines, []byte(s))
	}
	return lines
}

// ReadsEveryField checks that read, a one-pass reader of a T, reads
// every field of T and of the structs it holds: for each field, down to
// the leaves (a string, a number, a bool, raw JSON), a T with that field
// alone set to a value other than zero (a pointer, slice or map with one
// element holding it) is marshalled with encoding/json, and read must
// decode it, in one pass, as json.Unmarshal does. A reader without a
// case for one field skips it, and fails the check. Exported fields are
// compared; a reader's unexported extras are its own tests' to check. A
// type with its own UnmarshalJSON that cannot read what its MarshalJSON
// (or encoding/json) writes for such a value is left out. skip lists
// the paths (".message.usage", as the errors name them, and those under
// them) of fields the reader leaves out on purpose.
func ReadsEveryField[T any](t testing.TB, read func(*jsontext.Reader, *T) bool, skip ...string) {
	t.Helper()
	typ := reflect.TypeFor[T]()
	cases := 0
	skipped := map[string]bool{}
	for path, set := range leaves(typ, nil) {
		if i := slices.IndexFunc(skip, func(s string) bool {
			return path == s || strings.HasPrefix(path, s+".") || strings.HasPrefix(path, s+"[") || path == s+"*"
		}); i >= 0 {
			skipped[skip[i]] = true
			continue
		}
		v := reflect.New(typ)
		set(v.Elem())
		data, err := json.Marshal(v.Interface())
		if err != nil {
			t.Fatalf("%v %s: %v", typ, path, err)
		}
		var want T
		if json.Unmarshal(data, &want) != nil {
			continue // an UnmarshalJSON refusing its own output
		}
		cases++
		var r jsontext.Reader
		var got T
		r.Reset(data)
		if !read(&r, &got) || !r.End() {
			t.Errorf("%v field %s: the reader gives up on %s", typ, path, data)
			continue
		}
		if diff := cmp.Diff(want, got, exportedOnly); diff != "" {
			t.Errorf("%v field %s: the reader differs on %s (-json.Unmarshal +reader):\n%s", typ, path, data, diff)
		}
	}
	if cases == 0 {
		t.Errorf("%v has no field to check", typ)
	}
	for _, s := range skip {
		if !skipped[s] {
			t.Errorf("%v has no field %s to skip", typ, s)
		}
	}
}

// exportedOnly compares exported fields only, which are those
// encoding/json fills.
var exportedOnly = cmp.FilterPath(func(p cmp.Path) bool {
	f, ok := p.Last().(cmp.StructField)
	return ok && !token.IsExported(f.Name())
}, cmp.Ignore())

var rawMessage = reflect.TypeFor[json.RawMessage]()

// leaves yields, for each field that encoding/json reads in a value of
// type t (and, inside it, down to the leaves), its path and a function
// setting it alone in a zero t. Pointers, slices and maps on the way get
// one element, alone as well: an empty struct, slice or map is a case
// too. seen holds the struct types on the way, which are not entered
// again.
func leaves(t reflect.Type, seen []reflect.Type) iter.Seq2[string, func(reflect.Value)] {
	return func(yield func(string, func(reflect.Value)) bool) {
		switch {
		case t == rawMessage:
			yield("", func(v reflect.Value) { v.SetBytes([]byte(`{"k":[1]}`)) })
			return
		}
		switch t.Kind() {
		case reflect.String:
			yield("", func(v reflect.Value) { v.SetString("x") })
		case reflect.Bool:
			yield("", func(v reflect.Value) { v.SetBool(true) })
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			yield("", func(v reflect.Value) { v.SetInt(7) })
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
			yield("", func(v reflect.Value) { v.SetUint(7) })
		case reflect.Float32, reflect.Float64:
			yield("", func(v reflect.Value) { v.SetFloat(1.5) })
		case reflect.Interface:
			yield("", func(v reflect.Value) { v.Set(reflect.ValueOf("x")) })
		case reflect.Pointer:
			if !yield("", func(v reflect.Value) { v.Set(reflect.New(t.Elem())) }) {
				return
			}
			for path, set := range leaves(t.Elem(), seen) {
				if path == "" && t.Elem().Kind() != reflect.Struct {
					path = "*"
				}
				if !yield(path, func(v reflect.Value) {
					p := reflect.New(t.Elem())
					set(p.Elem())
					v.Set(p)
				}) {
					return
				}
			}
		case reflect.Slice, reflect.Array:
			if t.Kind() == reflect.Slice && !yield("[]", func(v reflect.Value) { v.Set(reflect.MakeSlice(t, 0, 0)) }) {
				return
			}
			for path, set := range leaves(t.Elem(), seen) {
				if !yield("[0]"+path, func(v reflect.Value) {
					if t.Kind() == reflect.Slice {
						v.Set(reflect.MakeSlice(t, 1, 1))
					}
					set(v.Index(0))
				}) {
					return
				}
			}
		case reflect.Map:
			if !yield("{}", func(v reflect.Value) { v.Set(reflect.MakeMap(t)) }) {
				return
			}
			for path, set := range leaves(t.Elem(), seen) {
				if !yield("[k]"+path, func(v reflect.Value) {
					m := reflect.MakeMap(t)
					e := reflect.New(t.Elem()).Elem()
					set(e)
					m.SetMapIndex(reflect.ValueOf("k").Convert(t.Key()), e)
					v.Set(m)
				}) {
					return
				}
			}
		case reflect.Struct:
			if slices.Contains(seen, t) {
				return
			}
			seen = append(seen, t)
			for f := range t.Fields() {
				name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
				if name == "" {
					name = f.Name
				}
				embedded := f.Anonymous && f.Type.Kind() == reflect.Struct && !strings.Contains(string(f.Tag), "json:")
				if f.Tag.Get("json") == "-" || (!f.IsExported() && !embedded) {
					continue
				}
				for path, set := range leaves(f.Type, seen) {
					if !embedded || path != "" {
						path = "." + name + path
					}
					if !yield(path, func(v reflect.Value) { set(v.FieldByIndex(f.Index)) }) {
						return
					}
				}
			}
		}
	}
}

// OnePass checks that read, a one-pass reader of data into a T, decodes
// what json.Unmarshal does, and reports whether it read data (false: it
// leaves data to encoding/json). check, when not nil, compares what
// json.Unmarshal does not fill (the reader's unexported extras) and
// clears it in got; the rest, unexported fields included, must be equal.
func OnePass[T any](t *testing.T, data []byte, read func(*jsontext.Reader, *T) bool, check func(got, want *T)) bool {
	t.Helper()
	var r jsontext.Reader
	var got T
	r.Reset(data)
	if !read(&r, &got) || !r.End() {
		return false
	}
	var want T
	if err := json.Unmarshal(data, &want); err != nil {
		t.Fatalf("%s: one pass decodes what json.Unmarshal refuses: %v", data, err)
	}
	if check != nil {
		check(&got, &want)
	}
	if diff := cmp.Diff(want, got, cmp.Exporter(func(reflect.Type) bool { return true })); diff != "" {
		t.Errorf("%s: differs (-json +one pass):\n%s", data, diff)
	}
	return true
}

// OnePassSeeds runs compare (OnePass, say) on each seed, and fails when
// fewer than least of them were read in one pass: the fast path must
// stay the common one.
func OnePassSeeds(t *testing.T, seeds [][]byte, least int, compare func(*testing.T, []byte) bool) {
	t.Helper()
	fast := 0
	for _, s := range seeds {
		if compare(t, s) {
			fast++
		}
	}
	if fast < least {
		t.Errorf("only %d of %d lines read in one pass, want %d", fast, len(seeds), least)
	}
}

// FuzzOnePass is a fuzz target comparing a one-pass reader with
// encoding/json (compare, OnePass say) from seeds.
func FuzzOnePass(f *testing.F, seeds [][]byte, compare func(*testing.T, []byte) bool) {
	for _, s := range seeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, data []byte) { compare(t, data) })
}
