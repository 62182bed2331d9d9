package eventtest

import (
	"strings"
	"testing"

	"github.com/agentstream/agentstream/event"
)

// EventsAndProblems drains dec as All does and returns its events and its
// problems (the text of each *event.ParseError) apart, failing t on any
// other error: for decoders whose tests compare the two lists on their
// own (the xml decoder's golden files list the problems last).
func EventsAndProblems(t testing.TB, dec event.Decoder) ([]event.Event, []string) {
	t.Helper()
	var evs []event.Event
	var problems []string
	for _, it := range All(dec) {
		switch {
		case strings.HasPrefix(it.Err, "fatal: "):
			t.Fatalf("fatal error: %s", strings.TrimPrefix(it.Err, "fatal: "))
		case it.Err != "":
			problems = append(problems, it.Err)
		default:
			evs = append(evs, it.Event)
		}
	}
	return evs, problems
}
