module example.com/modelshapes

go 1.26.0

require github.com/reshape-go/reshape v0.0.0

require (
	github.com/tdewolff/parse/v2 v2.8.20 // indirect
	github.com/x448/float16 v0.8.4 // indirect
	golang.org/x/sys v0.49.0 // indirect
	google.golang.org/protobuf v1.36.12 // indirect
)

replace github.com/reshape-go/reshape => ../..
