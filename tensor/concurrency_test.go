package tensor_test

import (
	"bytes"
	"sync"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// TestConcurrentUse infers and reshapes shared inputs from many goroutines at once; run it with
// -race. Every result must be what a single goroutine computes.
func TestConcurrentUse(t *testing.T) {
	x := iota(element.F32, 6, 8, 10)
	xt, _ := x.Transpose(2, 0, 1)
	in, pattern := []int64{2, 5, 5, 24}, []int64{0, -1, 4}
	pin := shape.Of(shape.Interval(1, 8), shape.Interval(16, 64), shape.Static(6), shape.Interval(200, 400))
	pp := reshape.PatternOf(shape.Interval(16, 64), shape.Static(0), shape.Static(-1))
	opt := reshape.Options{SpecialZero: true}
	wantCopy := naive(xt)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			var out tensor.Tensor
			dst := make([]int64, 0, 4)
			for i := range 200 {
				got, err := reshape.AppendInfer(dst[:0], in, pattern, opt)
				if err != nil || got[1] != 150 {
					t.Errorf("goroutine %d: AppendInfer = %v, %v", g, got, err)
					return
				}
				ps, err := reshape.InferPartial(pin, pp, opt)
				if err != nil || ps.String() != "[16..64,16..64,19..1200]" {
					t.Errorf("goroutine %d: InferPartial = %v, %v", g, ps, err)
					return
				}
				view, how, err := reshape.Apply(x, reshape.IntPattern(-1, 10), reshape.Options{})
				if err != nil || !how.View || &view.Data()[0] != &x.Data()[0] {
					t.Errorf("goroutine %d: view %v, %v", g, how.View, err)
					return
				}
				how, err = reshape.ApplyInto(&out, xt, []int64{-1}, reshape.Options{})
				if err != nil || how.View || (i%50 == 0 && !bytes.Equal(naive(out), wantCopy)) {
					t.Errorf("goroutine %d: copy %v, %v", g, how.View, err)
					return
				}
			}
		})
	}
	wg.Wait()
}
