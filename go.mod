module github.com/reshape-go/reshape

go 1.26.0

require (
	github.com/dustin/go-humanize v1.1.0
	github.com/tdewolff/parse/v2 v2.8.20
	github.com/x448/float16 v0.8.4
	golang.org/x/term v0.47.0
	google.golang.org/protobuf v1.36.12
)

require (
	github.com/chromedp/chromedp v0.23.0
	golang.org/x/sys v0.49.0
)

require (
	github.com/chromedp/cdproto v0.159.0 // indirect
	github.com/go-json-experiment/json v0.0.0-20260213210345-44df1a37e875 // indirect
)
