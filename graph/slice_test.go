package graph

import (
	"math"
	"testing"

	"github.com/reshape-go/reshape/sym"
)

// TestSliceReversal checks that a slice that reverses a whole axis (torch's flip: from -1 to
// -2^63+1 by -1) keeps its size as it is, however the size is written: the clamps of its start
// and end would hide it in min and max, past what an expression may hold downstream (the sum of
// a reflection padding's pieces, Silero's).
func TestSliceReversal(t *testing.T) {
	tab := sym.NewTable()
	for _, text := range []string{"T", "min(T,4)-min(T,1)", "max(0,T//64-1)-max(0,T//64-4)"} {
		d, err := sym.ParseDim(text, tab)
		if err != nil {
			t.Fatal(err)
		}
		for _, step := range []int64{-1, -2} {
			first, n, ok := sliceAxis(d, sym.Const(-1), sym.Const(math.MinInt64+1), step)
			want := sym.CeilDivDims(d, sym.Const(-step))
			if !ok || !n.Equal(want) || !first.Equal(sym.SubDims(d, sym.Const(1))) {
				t.Errorf("%s by %d: %v from %v, want %v from %v", text, step, n, first, want, sym.SubDims(d, sym.Const(1)))
			}
		}
	}
}

// TestSlicePastAnySize checks that a start or end of 2^62 or more (or -2^62 and less) is clamped
// to the axis as INT64_MAX (INT64_MIN) is, and that the count equals the one onnxruntime computes
// at every size of the axis up to 40 (bench/random r0_0280: 2^62:0:-2, which printed
// min(W-1,2^62) in its conditions).
func TestSlicePastAnySize(t *testing.T) {
	tab := sym.NewTable()
	w, err := sym.ParseDim("W", tab)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		start, end, step int64
		first, n         string
	}{
		{1 << 62, 0, -2, "W-1", "W-(W+1)//2"},
		{1 << 62, 1, -1, "W-1", "W-min(W-1,1)-1"},
		{0, 1 << 62, 1, "0", "W"},
		{1, 1<<62 + 5, 2, "1", "W//2"},
		{-1 << 62, 3, 1, "0", "min(W,3)"},
		{-1, -1<<62 - 1, -3, "W-1", "(W+2)//3"},
	} {
		first, n, ok := sliceAxis(w, sym.Const(tc.start), sym.Const(tc.end), tc.step)
		if !ok {
			t.Fatalf("%d:%d:%d: not ok", tc.start, tc.end, tc.step)
		}
		wantFirst, err1 := sym.ParseDim(tc.first, tab)
		wantN, err2 := sym.ParseDim(tc.n, tab)
		if err1 != nil || err2 != nil {
			t.Fatal(err1, err2)
		}
		if !first.Equal(wantFirst) || !n.Equal(wantN) {
			t.Errorf("%d:%d:%d: %v from %v, want %v from %v", tc.start, tc.end, tc.step, n, first, wantN, wantFirst)
		}
		for v := int64(1); v <= 40; v++ {
			b := map[string]int64{"W": v}
			got, err := n.Eval(b)
			if err != nil {
				t.Fatal(err)
			}
			if want := ortSliceCount(v, tc.start, tc.end, tc.step); got != want {
				t.Errorf("%d:%d:%d at W=%d: %d elements, onnxruntime takes %d", tc.start, tc.end, tc.step, v, got, want)
			}
		}
	}
}

// ortSliceCount is the count of onnxruntime's Slice (slice_helper: start and end clamped as the
// ONNX specification has them) on an axis of d elements.
func ortSliceCount(d, start, end, step int64) int64 {
	clamp := func(x, lo, hi int64) int64 { return max(lo, min(x, hi)) }
	if start < 0 {
		start += d
	}
	if end < 0 {
		end += d
	}
	if step > 0 {
		start, end = clamp(start, 0, d), clamp(end, 0, d)
		if end <= start {
			return 0
		}
		return (end - start + step - 1) / step
	}
	start, end = clamp(start, 0, d-1), clamp(end, -1, d-1)
	if end >= start {
		return 0
	}
	return (start - end - step - 1) / -step
}
