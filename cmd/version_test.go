package cmd

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	t.Parallel()
	vcs := []debug.BuildSetting{
		{Key: "vcs.revision", Value: "0123456789abcdef0123"},
		{Key: "vcs.time", Value: "2026-11-27T00:00:00Z"},
		{Key: "vcs.modified", Value: "false"},
	}
	dirty := append(vcs[:2:2], debug.BuildSetting{Key: "vcs.modified", Value: "true"})
	tests := []struct {
		name string
		bi   *debug.BuildInfo
		want string
	}{
		{"no build info", nil, "unknown (the binary carries no build information)"},
		{"go install of a tag", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}}, "v0.1.0"},
		{
			"tag built in a checkout", &debug.BuildInfo{Main: debug.Module{Version: "v0.1.0"}, Settings: vcs},
			"v0.1.0 (commit 0123456789ab, committed 2026-11-27T00:00:00Z)",
		},
		{
			"devel in a checkout, modified", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: dirty},
			"development build (commit 0123456789ab-dirty, committed 2026-11-27T00:00:00Z)",
		},
		{
			"devel with no stamp", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}},
			"development build (no module version or commit was stamped into it)",
		},
		{
			"pseudo-version", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261127000000-0123456789ab"}},
			"v0.0.0-20261127000000-0123456789ab",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := versionOf(tt.bi); got != tt.want {
				t.Errorf("versionOf = %q, want %q", got, tt.want)
			}
		})
	}
}
