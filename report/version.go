package report

import "runtime/debug"

// Version returns the version of the program that runs this package, as reshape --version and the
// reports say it: the module version from the build information (with the VCS revision when the
// build recorded one) and the Go version.
func Version() string {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return "reshape (unknown version)"
	}
	v := "reshape " + info.Main.Version
	for _, s := range info.Settings {
		if s.Key == "vcs.revision" {
			v += " (" + s.Value
			if len(s.Value) > 12 {
				v = v[:len(v)-len(s.Value)] + s.Value[:12]
			}
			v += ")"
		}
	}
	return v + " " + info.GoVersion
}
