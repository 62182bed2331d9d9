// Package sample declares wire types of every kind the generator reads:
// its generated readers are the generator's golden output, and its tests
// fuzz them against encoding/json.
package sample

//go:generate go run ..
//go:generate go run .. -write

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"

	"github.com/agentstream/agentstream/internal/jsontext"
)

// The type strings of Event, interned.
const (
	TypeText = "text"
	TypeTool = "tool_use"
	TypeSame = "text" // a second name for one value: one case
)

// The kinds of Ordered, interned with the types of Event: texts shorter
// than a word, of one word, sharing their first word or two, and longer
// than three.
const (
	KindRun        = "run"
	KindResult     = "result"
	KindBlockStart = "content_block_start"
	KindBlockStop  = "content_block_stop"
	KindBlockDelta = "content_block_delta"
	KindAnnotated  = "response.output_text.annotation.added"
)

// Ordered is a line whose producer writes its keys in the order declared:
// each is compared first with the one after the last read, and one out
// of order with those of its first eight bytes.
//
//wire:order
//wire:spaced
//wire:sparse
//wire:write
type Ordered struct {
	Type  string            `json:"type" wire:"intern=Type+Kind"`
	ID    string            `json:"id"`
	Body  json.RawMessage   `json:"body" wire:"borrow"`
	Usage *Usage            `json:"usage" wire:"text=usageText"`
	Raws  []json.RawMessage `json:"raws" wire:"borrow"`
	// usageText is the text of the last usage member, which the
	// generated reader sets and encoding/json leaves nil.
	usageText json.RawMessage
	Kind      string `json:"Kind"` // a capital: keys are read with KeyFold
	// A key longer than two words.
	Detail string `json:"detail_of_the_run"`
	Tail
	Spent *Usage `json:"spent" wire:"buf=spent"`
	// spent is what Spent points to when the generated reader set it,
	// which encoding/json leaves zero.
	spent Usage
}

// Event has a field of each kind.
type Event struct {
	Type     string            `json:"type" wire:"intern=Type"`
	Text     string            `json:"text"`
	Final    bool              `json:"final"`
	N        int64             `json:"n"`
	Small    int8              `json:"small"`
	Int      int               `json:"int"`
	F        float64           `json:"f"`
	Opt      *string           `json:"opt,omitempty"`
	OptN     *int64            `json:"opt_n,omitempty"`
	OptB     *bool             `json:"opt_b,omitempty"`
	OptF     *float64          `json:"opt_f,omitempty"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	OptRaw   *json.RawMessage  `json:"opt_raw,omitempty"`
	Raws     []json.RawMessage `json:"raws"`
	Any      any               `json:"any"`
	Names    []string          `json:"names"`
	Types    []string          `json:"types" wire:"intern=Type"`
	Usage    Usage             `json:"usage"`
	OptUsage *Usage            `json:"opt_usage,omitempty"`
	Parts    []Part            `json:"parts"`
	PtrParts []*Part           `json:"ptr_parts"`
	Grid     [][]int64         `json:"grid"`
	Words    Words             `json:"words"`
	OptWords *Words            `json:"opt_words"`
	Anon     *struct {
		ID   string `json:"iD"`
		Deep struct {
			N int64 `json:"n"`
		} `json:"deep"`
	} `json:"anon,omitempty"`
	Anons []struct {
		K int64 `json:"k"`
	} `json:"anons"`
	Members  Members `json:"members"`
	Untagged string
	Skipped  string `json:"-"`
	// Parsed is also decoded into parsed by the generated reader, when
	// it is an object of Usage's, which encoding/json leaves nil.
	Parsed json.RawMessage `json:"parsed" wire:"parse=parsed"`
	parsed *Usage
	// Counted and Counts note the keys given (wire:"has").
	Counted *Counted `json:"counted"`
	Counts  Counted  `json:"counts"`
}

// Counted notes in Has which of its keys the object gives, not null, as
// its UnmarshalJSON does with the generated reader (wire:"has").
type Counted struct {
	A   int64   `json:"a" wire:"has=countedA"`
	B   float64 `json:"b,omitempty" wire:"has=countedB"`
	S   string  `json:"s" wire:"has=countedS"`
	T   bool    `json:"t"`
	Has uint8   `json:"-" wire:"has"`
}

// The bits of Counted.Has.
const (
	countedA = 1 << iota
	countedB
	countedS
)

// UnmarshalJSON decodes c as the generated reader does, so that Has is
// set whichever reader decodes it.
func (c *Counted) UnmarshalJSON(b []byte) error {
	var r jsontext.Reader
	r.Reset(b)
	if ReadCounted(&r, c) && r.End() {
		return nil
	}
	type plain Counted
	return json.Unmarshal(b, (*plain)(c))
}

// Usage has lower-case keys only.
//
//wire:write
type Usage struct {
	Input  int64 `json:"input"`
	Output int64 `json:"output"`
}

// Part has camelCase keys and embeds structs, whose fields are its own
// unless Part has a field of the same key.
//
//wire:write
type Part struct {
	Head
	Tail
	PartID string `json:"partId"`
	Kind   string `json:"kind"`
}

// Head is embedded in Part.
//
//wire:write
type Head struct {
	Kind      string `json:"kind"` // Part's own Kind wins
	CreatedAt *int64 `json:"createdAt,omitempty"`
	Both      string // Tail has one too, untagged: no field
	Pick      string `json:"Pick"` // tagged, wins over Tail's
}

// Tail is embedded in Part beside Head: of a key both have at one depth,
// the one field tagged wins; with none tagged, there is no field.
//
//wire:write
type Tail struct {
	Both  string
	Pick  string
	Extra string `json:"extra"`
}

// Written has a field of each kind the writers write: its first fields
// are omitempty, so the writer finds the comma before a key at run time.
//
//wire:write
type Written struct {
	Opt      *string           `json:"opt,omitempty"`
	OptB     bool              `json:"opt_b,omitempty"`
	Text     string            `json:"text"`
	Final    bool              `json:"final"`
	N        int64             `json:"n"`
	Small    int8              `json:"small"`
	Int      int               `json:"int"`
	OptN     *int64            `json:"opt_n,omitempty"`
	OptI     int               `json:"opt_i,omitempty"`
	OptS     string            `json:"opt_s,omitempty"`
	Raw      json.RawMessage   `json:"raw,omitempty"`
	Compact  json.RawMessage   `json:"compact" wire:"compact"`
	Raws     []json.RawMessage `json:"raws" wire:"compact"`
	Any      any               `json:"any"`
	OptAny   any               `json:"opt_any,omitempty"`
	Names    []string          `json:"names"`
	OptNames []string          `json:"opt_names,omitempty"`
	Usage    Usage             `json:"usage"`
	OptUsage *Usage            `json:"opt_usage,omitempty"`
	Parts    []Part            `json:"parts"`
	PtrParts []*Part           `json:"ptr_parts"`
	Grid     [][]int64         `json:"grid"`
	Sparse   Sparse            `json:"sparse"`
	Anon     struct {
		ID   string `json:"iD,omitempty"`
		Deep *struct {
			N []int64 `json:"n,omitempty"`
		} `json:"deep"`
	} `json:"anon,omitempty"`
	Untagged string
	Skipped  string  `json:"-"`
	Last     *string `json:"last,omitempty"`
}

// Sparse has only omitempty fields: its writer may write {}.
//
//wire:write
type Sparse struct {
	A string  `json:"a,omitempty"`
	B *int64  `json:"b,omitempty"`
	C []Usage `json:"c,omitempty"`
}

// Words is a type with its own UnmarshalJSON: a string of words, or
// null.
type Words []string

// UnmarshalJSON reads a string of words separated by spaces.
func (w *Words) UnmarshalJSON(b []byte) error {
	if string(b) == "null" {
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	if s == "bad" {
		return errors.New("bad words")
	}
	*w = strings.Fields(s)
	return nil
}

// MarshalJSON writes the words as one string.
func (w Words) MarshalJSON() ([]byte, error) {
	return json.Marshal(strings.Join(w, " "))
}

// Members is an object read in order, its members kept as elements.
//
//wire:members
type Members []Member

// Member is one member of Members.
type Member struct {
	Key   string
	Value Usage
}

// UnmarshalJSON appends the members of an object, each value decoded into
// a new element; null leaves m.
func (m *Members) UnmarshalJSON(b []byte) error {
	if string(bytes.TrimSpace(b)) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return errors.New("members: not an object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		e := Member{Key: t.(string)}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return err
		}
		if err := json.Unmarshal(raw, &e.Value); err != nil {
			return err
		}
		*m = append(*m, e)
	}
	return nil
}

// MarshalJSON writes the members as an object, in order.
func (m Members) MarshalJSON() ([]byte, error) {
	b := []byte{'{'}
	for i, e := range m {
		if i > 0 {
			b = append(b, ',')
		}
		k, _ := json.Marshal(e.Key)
		v, err := json.Marshal(e.Value)
		if err != nil {
			return nil, err
		}
		b = append(append(append(b, k...), ':'), v...)
	}
	return append(b, '}'), nil
}

// Reused is read value after value into one struct, reset with
// ResetReused in between: its reader keeps the last strings of Keep,
// KeepPtr and List and the memory of Parts and of Nested's Items.
type Reused struct {
	Keep    string  `json:"keep" wire:"keep=kept"`
	KeepPtr *string `json:"keep_ptr" wire:"keep=keptPtr"`
	Parts   []Part  `json:"parts" wire:"buf=parts"`
	Nested  *Nested `json:"nested" wire:"buf=nested"`
	Wholes  []Whole `json:"wholes"`
	Whole   *Whole  `json:"whole"`
	Lent    Lent    `json:"lent"`
	Any     any     `json:"any"`
	N       int64   `json:"n" wire:"keep=n"`
	// Label shares its last value with Nested's Name.
	Label string `json:"label" wire:"keep=nested.name"`
	// List is the last List while its text repeats.
	List []string `json:"list" wire:"keep=list"`
	// Blocks' elements, when it is an array, are in blocks.
	Blocks  json.RawMessage `json:"blocks" wire:"elems=blocks"`
	kept    string
	blocks  []json.RawMessage
	list    jsontext.KeptStrings
	n       jsontext.KeptInt
	keptPtr *string
	parts   []Part
	nested  Nested
}

// Joined is read with Extra from the same object (wire:"also"): the key
// of both, kind, is read once into both.
type Joined struct {
	Kind  string `json:"kind" wire:"intern=Type"`
	ID    string `json:"id"`
	Note  string `json:"note" wire:"check"` // not set, nobody reads it
	extra Extra  `wire:"also"`
}

// Extra is what Joined's reader also reads.
type Extra struct {
	Kind   string           `json:"kind"`
	N      *int64           `json:"n"`
	Models map[string]Usage `json:"models"`
}

// Nested is what Reused.Nested points to; its Items' memory is reused.
type Nested struct {
	Items []Whole `json:"items" wire:"buf=items"`
	Name  string  `json:"name" wire:"keep=name"`
	items []Whole
	name  string
}

// Whole keeps its JSON, a copy, as its UnmarshalJSON does: its reader
// does so too (wire:"whole").
type Whole struct {
	Kind string          `json:"kind"`
	N    *int64          `json:"n"`
	Raw  json.RawMessage `json:"-" wire:"whole"`
}

// UnmarshalJSON decodes w and keeps its JSON.
func (w *Whole) UnmarshalJSON(b []byte) error {
	type plain Whole
	if err := json.Unmarshal(b, (*plain)(w)); err != nil {
		return err
	}
	w.Raw = append(json.RawMessage(nil), b...)
	return nil
}

// Lent is Whole with its JSON pointing into the text read by the
// generated reader (wire:"whole,borrow").
type Lent struct {
	Kind string          `json:"kind"`
	Raw  json.RawMessage `json:"-" wire:"whole,borrow"`
}

// UnmarshalJSON decodes l and keeps its JSON.
func (l *Lent) UnmarshalJSON(b []byte) error {
	type plain Lent
	if err := json.Unmarshal(b, (*plain)(l)); err != nil {
		return err
	}
	l.Raw = append(json.RawMessage(nil), b...)
	return nil
}
