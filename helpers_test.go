package reshape_test

import "github.com/reshape-go/reshape/shape"

func shapeString(dims []int64) string { return shape.FormatInts(dims) }

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
