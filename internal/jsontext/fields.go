package jsontext

import (
	"reflect"
	"strings"
)

// FieldNames returns the JSON names of the fields of the struct v points
// to or is, for tests that check a one-pass reader knows every field: one
// it does not know it skips, where encoding/json would decode it.
func FieldNames(v any) []string {
	t := reflect.TypeOf(v)
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	var names []string
	for f := range t.Fields() {
		if !f.IsExported() {
			continue
		}
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	return names
}
