package event

import "testing"

// TestUsageGiven: Given is the count's field when Has gives it, else nil.
func TestUsageGiven(t *testing.T) {
	t.Parallel()
	u := Usage{InputTokens: 1, OutputTokens: 2, CacheReadTokens: 3, CacheWriteTokens: 4, ReasoningTokens: 5, Has: HasOutput | HasCacheWrite}
	for c, want := range map[Counts]*int64{
		HasInput: nil, HasOutput: &u.OutputTokens, HasCacheRead: nil, HasCacheWrite: &u.CacheWriteTokens, HasReasoning: nil,
	} {
		if got := u.Given(c); got != want {
			t.Errorf("Given(%v) = %v, want %v", c, got, want)
		}
	}
}

// TestUsageSet: Set gives a count found, and leaves one not found alone.
func TestUsageSet(t *testing.T) {
	t.Parallel()
	var u Usage
	n, m := int64(7), int64(9)
	u.Set(HasCacheRead, &n)
	u.Set(HasOutput, nil)
	u.Set(HasReasoning, &m)
	if want := (Usage{CacheReadTokens: 7, ReasoningTokens: 9, Has: HasCacheRead | HasReasoning}); u != want {
		t.Errorf("got %+v, want %+v", u, want)
	}
}
