package reshape

// QuickInfer exposes quickInfer to the tests: the output shape and true when the quick path
// takes the case.
func QuickInfer(in, pattern []int64, opt Options) ([]int64, bool) {
	var buf [quickRank]int64
	return quickInfer(&buf, in, pattern, &opt)
}
