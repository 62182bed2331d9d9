// Package textlist joins lists for messages: a list that names what the
// input holds (agents, ids, tools, open blocks) can be as long as a hostile
// input makes it, so a message names at most Max items and says how many
// more there are.
package textlist

import (
	"strconv"
	"strings"
)

// Max is the most items Join names.
const Max = 10

// Join joins items with sep, as strings.Join does, naming at most Max of
// them: "a, b, ..., j and 5 more".
func Join(items []string, sep string) string {
	if len(items) <= Max {
		return strings.Join(items, sep)
	}
	return strings.Join(items[:Max], sep) + " and " + strconv.Itoa(len(items)-Max) + " more"
}
