package source

import (
	"context"
	"time"
)

// SetSleep makes o's reconnections call sleep instead of waiting.
func SetSleep(o *Options, sleep func(ctx context.Context, d time.Duration) error) { o.sleep = sleep }
