package cmd

import "testing"

// TestUsageGC: usage's soft memory limit starts at the base, grows with
// the calls held, stops at its cap, and is set a bounded number of times
// however often hold is called.
func TestUsageGC(t *testing.T) {
	var limits []int64
	g := &usageGC{set: func(v int64) int64 { limits = append(limits, v); return 0 }}
	const calls = 1_000_000
	for n := range calls + 1 {
		g.hold(n)
		want := min(usageMemoryBase+int64(n)*usageMemoryPerCall, usageMemoryLimit)
		if g.limit > want || g.limit < want-want/8 {
			t.Fatalf("%d calls held: limit %d, want %d less at most an eighth", n, g.limit, want)
		}
	}
	if len(limits) == 0 || limits[0] != usageMemoryBase {
		t.Errorf("first limit set %v, want %d", limits[:min(1, len(limits))], usageMemoryBase)
	}
	if last := limits[len(limits)-1]; last != usageMemoryLimit {
		t.Errorf("limit after %d calls %d, want the cap %d", calls, last, usageMemoryLimit)
	}
	if len(limits) > 40 {
		t.Errorf("the limit was set %d times for %d calls; want it raised by an eighth at a time", len(limits), calls)
	}
	var none *usageGC // the user's GOGC or GOMEMLIMIT hold
	none.hold(calls)
}

// TestUsageGCEnv: with GOGC or GOMEMLIMIT set, usage leaves the limit
// alone.
func TestUsageGCEnv(t *testing.T) {
	for _, env := range []string{"GOGC", "GOMEMLIMIT"} {
		ios := &IOStreams{Getenv: func(k string) string {
			if k == env {
				return "1"
			}
			return ""
		}}
		if g := tuneUsageGC(ios); g != nil {
			t.Errorf("%s set: usage tuned the collector", env)
		}
	}
}
