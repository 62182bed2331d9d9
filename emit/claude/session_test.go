package claude

import (
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/agentstream/agentstream/internal/messages"
)

// checkSession checks sessionText, with e's cache as it stands, against
// Marshal of the session id.
func checkSession(t *testing.T, e *Encoder, session string) {
	t.Helper()
	e.setSession(session)
	want, err := messages.Marshal(session)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), string(e.sessionText())); diff != "" {
		t.Fatalf("sessionText with session %q (-Marshal +sessionText):\n%s", session, diff)
	}
}

func TestSessionText(t *testing.T) {
	t.Parallel()
	e := NewEncoder(nil, nil)
	for _, s := range append(oddStrings, "", "a", "", "a", "b") {
		checkSession(t, e, s)
		checkSession(t, e, s) // from the cache
	}
	// After newRun, whose cache is emptied but kept.
	checkSession(t, e, "x")
	e.newRun()
	checkSession(t, e, "")
	checkSession(t, e, "x")
}

func FuzzSessionText(f *testing.F) {
	for _, s := range oddStrings {
		f.Add(s, "")
	}
	f.Fuzz(func(t *testing.T, a, b string) {
		e := NewEncoder(nil, nil)
		checkSession(t, e, a)
		checkSession(t, e, b)
		checkSession(t, e, a)
		e.newRun()
		checkSession(t, e, b)
	})
}
