module github.com/reshape-go/reshape

go 1.26
