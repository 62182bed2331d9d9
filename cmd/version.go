package cmd

import (
	"fmt"
	"runtime/debug"
)

// version is what --version prints: the module version, the VCS commit
// and its date from the build info Go stamps into the binary (go build in
// a git checkout, go install module@version, GoReleaser's -ldflags-free
// builds), "dev" and "unknown" where a field is missing.
func version() string {
	v, commit, date := "dev", "unknown", "unknown"
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Sprintf("%s (commit %s, built %s)", v, commit, date)
	}
	if bi.Main.Version != "" && bi.Main.Version != "(devel)" {
		v = bi.Main.Version
	}
	dirty := false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			commit = s.Value
			if len(commit) > 12 {
				commit = commit[:12]
			}
		case "vcs.time":
			date = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if dirty {
		commit += "-dirty"
	}
	return fmt.Sprintf("%s (commit %s, built %s)", v, commit, date)
}
