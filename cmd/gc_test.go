package cmd

import (
	"math"
	"runtime/debug"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestTuneGC(t *testing.T) {
	// Not parallel: the GC settings are process-wide.
	defer debug.SetGCPercent(debug.SetGCPercent(100))
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(math.MaxInt64))

	type settings struct {
		Applied bool
		Percent int
		Limit   int64
	}
	tests := []struct {
		name string
		env  map[string]string
		want settings
	}{
		{"defaults", nil, settings{true, gcPercent, gcMemoryLimit}},
		{"GOGC set", map[string]string{"GOGC": "100"}, settings{false, 100, math.MaxInt64}},
		{"GOGC off", map[string]string{"GOGC": "off"}, settings{false, 100, math.MaxInt64}},
		{"GOMEMLIMIT set", map[string]string{"GOMEMLIMIT": "1GiB"}, settings{false, 100, math.MaxInt64}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			debug.SetGCPercent(100)
			debug.SetMemoryLimit(math.MaxInt64)
			var got settings
			got.Applied = TuneGC(func(k string) string { return tt.env[k] })
			got.Percent = debug.SetGCPercent(100)
			got.Limit = debug.SetMemoryLimit(-1) // a negative limit reads it
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("TuneGC (-want +got):\n%s", diff)
			}
		})
	}
}
