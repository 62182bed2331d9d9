package jsontext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// Problem says what is wrong with JSON that failed to decode, for error
// messages: the field and the kinds for a type mismatch ("exit_code is a
// JSON string, not a number"), else encoding/json's message without its
// "json: " prefix.
func Problem(err error) string {
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te) && te.Field != "":
		return fmt.Sprintf("%s is a JSON %s, not %s", te.Field, te.Value, kind(te.Type))
	case errors.As(err, &te):
		return fmt.Sprintf("a JSON %s, not %s", te.Value, kind(te.Type)) // the whole value
	}
	return strings.TrimPrefix(err.Error(), "json: ")
}

// kind names the JSON value a Go type decodes from.
func kind(t reflect.Type) string {
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	}
	return "an object"
}

// Compact returns raw without insignificant white space, or raw itself
// when it is not valid JSON.
func Compact(raw []byte) []byte {
	var buf bytes.Buffer
	if json.Compact(&buf, raw) != nil {
		return raw
	}
	return buf.Bytes()
}
