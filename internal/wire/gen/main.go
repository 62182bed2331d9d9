// Command gen writes the one-pass JSON readers of a package of wire
// declarations: run by go generate in the package's directory
// (//go:generate go run <path to this directory>), it reads the
// package's tagged struct types and writes read_wire.go, which has for
// each struct S
//
//	func readS(r *jsontext.Reader, v *S)      // reads an S value into v
//	func ReadS(r *jsontext.Reader, v *S) bool // the same for a whole text, for jsontext.Decode
//
// (ReadS for exported types only; none for a struct with no exported or
// embedded field, such as a reader's state). A reader decodes exactly what
// json.Unmarshal into the same struct decodes (null leaves a value
// alone and sets a pointer, slice or interface to nil, the last of
// duplicate keys wins, into what the first one filled, integers only for
// integer fields, json.RawMessage and types with their own UnmarshalJSON
// get the value's text, or, for a type T with its own UnmarshalJSON, the
// package's hand-written readT(r *jsontext.Reader, v *T) if it has one,
// which reads any value, null included, as that UnmarshalJSON does), or fails the jsontext.Reader, after which the
// caller decodes the same bytes with encoding/json (jsontext.Decode does),
// which gives the error.
//
// The field types read are string, bool, the signed integers, float64,
// json.RawMessage, any, maps of string keys, the package's struct types (embedded ones
// flattened as encoding/json does, and struct types written in a field's
// declaration), types of the package with an UnmarshalJSON method (which
// get the value's text), a type pkg.T of another package of the module
// that has a function ReadT(r *jsontext.Reader, v *T), which reads a
// value that is not null as the readers here do (its result, if any,
// unused), and
// pointers to and slices of those. Anything
// else is an error: the declaration needs a type the generator learns
// first. So is a struct type with its own UnmarshalText, or one embedding
// a type with UnmarshalJSON or UnmarshalText (its method is the
// struct's, and encoding/json calls it).
//
// One struct tag adds to the json one:
//
//	wire:"intern=Prefix"
//
// on a field of strings makes its reader return the package's string
// constant whose name starts with Prefix (or with one of several,
// intern=Prefix+Other) when the value equals one (no allocation for a
// closed vocabulary of type strings), a new string otherwise (in a
// wire:order struct the value is told by a switch on its first eight
// bytes, then compared a word at a time, before it is scanned);
//
//	wire:"borrow"
//
// on a field of raw JSON (or a slice of them) makes its reader point it
// into the text read instead of copying it: the value is valid only as
// long as that text is, which the caller keeps in mind;
//
//	wire:"text=field"
//
// on a field makes its reader also set field (raw JSON of the same
// struct, unexported, which encoding/json leaves nil) to the value's
// text, pointing into the text read, as borrow does;
//
//	wire:"buf=field"
//
// on a pointer field makes its reader, where json.Unmarshal would
// allocate the value pointed to (the pointer is nil), point it at field
// (of the same struct, unexported, of the type pointed to), zeroed,
// instead: a struct reused from line to line holds its values without an
// allocation per line. The pointer then points into the struct, valid as
// long as the struct is neither copied nor reused, which the caller keeps
// in mind. On a slice field, field (unexported, of the slice's type) keeps
// the memory of the last slice read into a nil one, whose elements the
// next such read zeroes and reuses;
//
//	wire:"keep=field"
//
// on a field of strings, of *string or of int64 keeps in field (unexported:
// a string, a *string, or a jsontext.KeptInt) the last value
// read, and its text: while the input repeats it (a completion's id, its
// model, its creation time), it is one comparison, no allocation. On a
// field of type []string, field is a jsontext.KeptStrings: a list whose text repeats the last one's is that list,
// shared, one comparison (Claude Code's init repeats its lists of tools
// and commands in every run); a caller that keeps the list copies it. A struct
// with buf= slices or keep= fields (or holding one) gets a function
// ResetS(v *S) (resetS, unexported, for an unexported S), which sets *v
// to S{} but for those fields, for the caller that reads value after value
// into one;
//
//	wire:"whole" (or wire:"whole,borrow")
//
// on a field of raw JSON with the json tag "-", of a struct type whose
// UnmarshalJSON decodes the struct's fields as a plain struct would and
// sets that field to a copy of its JSON, makes the generator read the
// struct as such (and null, which that method gets, not at all: it goes
// to encoding/json); with borrow the field points into the text read;
//
//	wire:"parse=field"
//
// on a field of raw JSON makes its reader, which points it into the text
// read as borrow does, also decode the value, when it is an object the
// reader of field's type reads, into field (of the same struct,
// unexported, a pointer to a struct type of the package, or to a type
// pkg.T of another package that has a ReadT; the value it points to is
// reused), and set field to nil otherwise: the one who decodes the raw
// value again gets the error;
//
//	wire:"check"
//
// on a string field that nothing reads (a line's uuid) makes its reader
// check the value's type as json.Unmarshal would and leave the field as
// it is, with no string made;
//
//	wire:"elems=field"
//
// on a field of raw JSON makes its reader point it into the text read, as
// borrow does, and, when the value is an array, set field (unexported, a
// []json.RawMessage, whose memory the next array reuses: ResetS keeps it)
// to its elements' text, pointing into the text read as well: the
// elements of an array of content blocks, in the pass that reads them.
// field is the last array's elements, valid only while the raw field
// holds an array;
//
//	wire:"also"
//
// on an unexported field of a struct type of the package (which
// encoding/json leaves alone) makes the reader read the object into that
// field too, as json.Unmarshal of the same object into its type would,
// in the same pass: a key of both (same key, same type) is read once and
// the value copied. The reader fails where either decoding would: a line
// of several types read once into the union of what each type needs
// (Claude Code's stream-json line and its result line);
//
//	wire:"has=Constant"
//
// on a field of a number, a bool or a string, in a struct with a field
// tagged json:"-" wire:"has" (a set of bits) and its own UnmarshalJSON
// that calls the generated ReadS, makes the reader or Constant (of the
// package, or pkg.Name) into that field when the key is given and its
// value is not null (which leaves the field as it was): which counts a
// usage object gives, as the struct is read as a plain one. Comment
// directives mark a type:
//
//	//wire:order
//
// on a struct type whose producer writes its keys in the order of the
// declaration (some left out), the hot path of its producer: its reader
// tells a value from null by its first byte, compares the strings of an
// intern prefix with the input before reading them, and, near the
// struct's end, compares a key that is not the one asked for with each
// declared after it before looking it up. (Every reader asks for the
// keys of its struct in declaration order, each with the comma before
// it, one comparison (jsontext.Reader.Follows; a key longer than sixteen
// bytes word by word), and reads and looks up only a key out of that
// order.) With it,
//
//	//wire:spaced
//
// says that some producers write white space between members (Python's
// json.dumps): where a member is not the one asked for and a ", " comes
// next, the member is looked up at once, not compared with each declared
// after it first.
//
//	//wire:sparse
//
// on a struct of many types' fields, most absent from each value (a chunk
// whose type says which apply): where a member is not the one asked for,
// it is told by a switch on its key's first eight bytes and compared
// with the key of that word, before it is looked up. And
//
//	//wire:members
//
// on a slice type of a struct of two fields (a string, then a value)
// whose UnmarshalJSON reads a JSON object in order: null leaves it, each
// member is appended as an element, its key the string, its value
// decoded into a new element's second field. The generated reader reads
// it so, with no call to UnmarshalJSON, which stays for encoding/json; the
// package's tests check that the two agree.
//
// With -write it writes write_wire.go instead: byte-exact JSON writers
// of the struct types marked //wire:write (see write.go).
package main

import (
	"fmt"
	"os"
	"path/filepath"
)

// Out is the name of the file gen writes.
const Out = "read_wire.go"

func main() {
	dir, gen, out := ".", Generate, Out
	if len(os.Args) > 1 && os.Args[1] == "-write" { // the writers: see write.go
		gen, out, os.Args = GenerateWrite, OutWrite, os.Args[1:]
	}
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	src, err := gen(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
	if err := os.WriteFile(filepath.Join(dir, out), src, 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}
