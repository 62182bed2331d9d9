package cmd

import (
	"fmt"
	"time"

	"github.com/spf13/pflag"

	"github.com/agentstream/agentstream/source/sessions"
)

// sessionOptions select among the session logs a directory or glob input
// stands for (package source/sessions).
type sessionOptions struct {
	since, until, session string
}

func addSessionFlags(fs *pflag.FlagSet, o *sessionOptions) {
	fs.StringVar(&o.since, "since", "", "directory or glob input: sessions written at or after this time (RFC 3339, YYYY-MM-DD, or a duration ago such as 36h)")
	fs.StringVar(&o.until, "until", "", "directory or glob input: sessions started at or before this time (as --since)")
	fs.StringVar(&o.session, "session", "", "directory or glob input: the session with this id (or id prefix)")
}

// expand turns directory and glob inputs into their session logs, oldest
// first; other inputs are kept as they are.
func (o *sessionOptions) expand(inputs []string) ([]string, error) {
	f := &sessions.Filter{Session: o.session}
	now := time.Now()
	for _, t := range []struct {
		flag, value string
		dst         *time.Time
	}{{"since", o.since, &f.Since}, {"until", o.until, &f.Until}} {
		if t.value == "" {
			continue
		}
		v, err := sessions.ParseTime(t.value, now)
		if err != nil {
			return nil, fmt.Errorf("--%s: %w", t.flag, err)
		}
		*t.dst = v
	}
	return sessions.Expand(inputs, f)
}
