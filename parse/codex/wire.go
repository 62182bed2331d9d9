package codex

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
)

// CollabTools returns the tools a collab_tool_call item names (its tool
// field): Codex's subagent operations.
func CollabTools() []string { return []string{"spawn_agent", "send_input", "wait", "close_agent"} }

// ErrorItemType is the event.Error Type of an error item, telling it apart
// from the top-level error event (whose Type is empty).
const ErrorItemType = "error_item"

// PlanNoticeKind is the event.Notice Kind of a plan item.
const PlanNoticeKind = "plan"

// field is one member of a JSON object, in order.
type field struct {
	Key   string
	Value json.RawMessage
}

// fields splits a JSON object into its members in order, duplicates
// included. Values are sub-slices of obj.
func fields(obj []byte) ([]field, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, errors.New("not a JSON object")
	}
	var fields []field
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := tok.(string)
		var v json.RawMessage
		start := dec.InputOffset()
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		end := dec.InputOffset()
		// Decode copies; point into obj instead, past the colon and
		// any space before the value.
		raw := bytes.TrimLeft(obj[start:end], " \t\r\n:")
		fields = append(fields, field{Key: key, Value: raw})
	}
	if _, err := dec.Token(); err != nil && err != io.EOF {
		return nil, err
	}
	return fields, nil
}
