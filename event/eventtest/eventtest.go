// Package eventtest helps decoder tests: it drains a decoder into a
// comparable list and writes that list as golden text, records the
// sequence Next returns for checking the event.Decoder contract, and
// splits input into chunks the way streams arrive.
package eventtest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"

	"github.com/agentstream/agentstream/event"
)

// Item is one result of a decoder's Next: an event, or a problem (the
// error's text).
type Item struct {
	Event event.Event
	Err   string
}

// Collect drains dec. Adjacent Deltas of one block are merged, since
// their boundaries follow the input's chunks. A fatal error ends the list.
func Collect(dec event.Decoder) []Item {
	var items []Item
	for range 1 << 20 {
		ev, err := dec.Next()
		if err == io.EOF {
			return items
		}
		if err != nil {
			items = append(items, Item{Err: err.Error()})
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				return items
			}
			continue
		}
		if d, ok := ev.(*event.Delta); ok && len(items) > 0 {
			if p, ok := items[len(items)-1].Event.(*event.Delta); ok && p.Agent == d.Agent && p.Kind == d.Kind {
				m := *p
				m.Text += d.Text
				items[len(items)-1].Event = &m
				continue
			}
		}
		items = append(items, Item{Event: ev})
	}
	panic("decoder does not end")
}

// Golden renders items one a line: the event type and the event as JSON,
// or "error" and the message.
func Golden(items []Item) []byte {
	var b bytes.Buffer
	for _, it := range items {
		if it.Event == nil {
			fmt.Fprintf(&b, "error %s\n", it.Err)
			continue
		}
		fmt.Fprintf(&b, "%s ", reflect.TypeOf(it.Event).Elem().Name())
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(it.Event); err != nil {
			panic(err)
		}
	}
	return b.Bytes()
}

// Source is a decoder yielding fixed events, for testing wrappers.
type Source struct {
	Events []event.Event
}

// Next returns the next event.
func (s *Source) Next() (event.Event, error) {
	if len(s.Events) == 0 {
		return nil, io.EOF
	}
	ev := s.Events[0]
	s.Events = s.Events[1:]
	return ev, nil
}

// TextBlock returns a text block of agent holding text, one Delta per
// piece of size n bytes (n 0: one Delta).
func TextBlock(agent, text string, n int) []event.Event {
	evs := []event.Event{&event.BlockStart{Agent: agent, Kind: event.Text}}
	if n <= 0 {
		n = len(text)
	}
	for len(text) > 0 {
		k := min(n, len(text))
		evs = append(evs, &event.Delta{Agent: agent, Kind: event.Text, Text: text[:k]})
		text = text[k:]
	}
	return append(evs, &event.BlockEnd{Agent: agent, Kind: event.Text})
}

// Text returns the text of every Delta of kind in items, joined.
func Text(items []Item, kind event.BlockKind) string {
	var b strings.Builder
	for _, it := range items {
		if d, ok := it.Event.(*event.Delta); ok && d.Kind == kind {
			b.WriteString(d.Text)
		}
	}
	return b.String()
}

// All drains dec as Next yields it, deltas unmerged; a fatal error ends
// the list as "fatal: " and its text.
func All(dec event.Decoder) []Item {
	var out []Item
	for range 1_000_000 {
		ev, err := dec.Next()
		if err == io.EOF {
			return out
		}
		if err != nil {
			var perr *event.ParseError
			if !errors.As(err, &perr) {
				return append(out, Item{Err: "fatal: " + err.Error()})
			}
			out = append(out, Item{Err: err.Error()})
			continue
		}
		out = append(out, Item{Event: ev})
	}
	panic("decoder does not end")
}

// Dump renders items as the golden files of the Messages API decoders
// (anthropic, claude) do: one line per item, the event type and the event
// as JSON (HTML characters escaped), or "error" and the message.
func Dump(items []Item) []byte {
	var b bytes.Buffer
	for _, it := range items {
		if it.Err != "" {
			fmt.Fprintf(&b, "error %s\n", it.Err)
			continue
		}
		j, err := json.Marshal(it.Event)
		if err != nil {
			panic(err)
		}
		fmt.Fprintf(&b, "%s %s\n", reflect.TypeOf(it.Event).Elem().Name(), j)
	}
	return b.Bytes()
}

// Foreign is a format.Foreign for a decoder's own tests, which cannot ask
// convert's format table: it names the format of a JSON line by its type
// member, as types maps it ("" for a type types does not hold). convert's
// tests check what the table names.
func Foreign(types map[string]string) func(line []byte) string {
	return func(line []byte) string {
		var l struct{ Type string }
		json.Unmarshal(line, &l)
		return types[l.Type]
	}
}
