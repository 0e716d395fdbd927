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
