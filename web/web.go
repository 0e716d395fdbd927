// Package web holds the page of reshape's reports and of its web app (HTML, CSS, JavaScript and the
// vendored layout library), embedded so that a report is one file and the app one folder.
package web

import (
	"embed"
	"io/fs"
)

// DagreVersion is the version of @dagrejs/dagre (npm) in static/vendor/dagre, which lays out the
// graph view.
const DagreVersion = "3.1.3"

//go:embed static
var static embed.FS

// Static returns the page's files: report.css and report.js (the page, which renders a model's
// data), app.js and index.html (the web app around it), and vendor/dagre (dagre.min.js, its
// LICENSE and README).
func Static() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree has the folder
	}
	return sub
}

// File returns the content of the page's file name (a path in Static), nil when there is none.
func File(name string) []byte {
	b, err := fs.ReadFile(Static(), name)
	if err != nil {
		return nil
	}
	return b
}
