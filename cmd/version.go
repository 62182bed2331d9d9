package cmd

import (
	"runtime/debug"
	"strings"
)

// version is what --version prints, from the build info Go stamps into
// the binary: the module version (go install module@v0.x.y, or the
// pseudo-version go build derives from a git checkout), then the commit
// and its date when the build was made in a VCS checkout.
func version() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return versionOf(nil)
	}
	return versionOf(bi)
}

// versionOf is version for a given build info (nil: none was stamped).
// It says only what the build info holds: a field that is missing is left
// out, and a build with neither a module version nor a commit says so
// rather than printing placeholders.
func versionOf(bi *debug.BuildInfo) string {
	if bi == nil {
		return "unknown (the binary carries no build information)"
	}
	v := bi.Main.Version
	if v == "(devel)" {
		v = ""
	}
	var commit, date string
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
	if commit != "" && dirty {
		commit += "-dirty"
	}
	var stamp []string
	if commit != "" {
		stamp = append(stamp, "commit "+commit)
	}
	if date != "" {
		stamp = append(stamp, "committed "+date)
	}
	switch {
	case v == "" && len(stamp) == 0:
		return "development build (no module version or commit was stamped into it)"
	case v == "":
		v = "development build"
	}
	if len(stamp) > 0 {
		v += " (" + strings.Join(stamp, ", ") + ")"
	}
	return v
}
