package report

import (
	"bytes"
	"encoding/json"
	"html/template"
	"io"

	"github.com/reshape-go/reshape/web"
)

// page is the report's HTML: the styles, the layout library, the page's script and the model's
// data, all inline, so that the file opens offline and alone.
var page = template.Must(template.New("report").Parse(`<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="reshape report">
<link rel="icon" href="data:,">
<title>{{.Name}}: reshape report</title>
<style>{{.CSS}}</style>
</head>
<body>
<div id="report"><main><h1 id="verdict" data-kind="{{.Kind}}">{{.Verdict}}</h1><p>This report needs JavaScript for its tables, map and graph.</p></main></div>
<script id="reshape-data" type="application/json">{{.Data}}</script>
<script>{{.Dagre}}</script>
<script>{{.Page}}</script>
<script>ReshapeReport.render(document.getElementById("report"), JSON.parse(document.getElementById("reshape-data").textContent));</script>
</body>
</html>
`))

// WriteHTML writes m as one self-contained HTML file: the verdict first, then the map, the
// conditions with their nodes, the inputs and symbols, the rows of check, every tensor in a table
// that filters as one types, and the graph, laid out by dagre around a chosen node. It needs no
// network: styles, scripts and data are inline. The errors are w's.
func WriteHTML(w io.Writer, m *Model) error {
	var data bytes.Buffer
	enc := json.NewEncoder(&data) // escapes <, > and &: the data cannot close its script element
	if err := enc.Encode(m); err != nil {
		return err
	}
	return page.Execute(w, struct {
		Name, Verdict, Kind string
		CSS                 template.CSS
		Data, Dagre, Page   template.JS
	}{m.Name, m.Verdict.Text, m.Verdict.Kind, template.CSS(web.File("report.css")), template.JS(bytes.TrimSpace(data.Bytes())),
		template.JS(web.File("vendor/dagre/dagre.min.js")), template.JS(web.File("report.js"))})
}
