module github.com/reshape-go/reshape

go 1.26.0

require (
	github.com/dustin/go-humanize v1.1.0
	github.com/tdewolff/parse/v2 v2.8.20
	github.com/x448/float16 v0.8.4
	golang.org/x/term v0.47.0
	google.golang.org/protobuf v1.36.12
)

require golang.org/x/sys v0.49.0
