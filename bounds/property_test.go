package bounds_test

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/reshape-go/reshape/bounds"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/shape"
)

// The property tests: for random small Values with small intervals, every static instance inside
// the input intervals (every choice of one value per element) is evaluated with the same function,
// and its result must lie inside the interval result (soundness). Where the inputs are finite and no
// instance fails, the interval result must also be the hull of the instances' results (exactness),
// for the operations that promise it.

// sampled is a random Value with, for each element, the values of its interval that the test
// tries: all of them for a small finite interval, a few for an unbounded one.
type sampled struct {
	v          bounds.Value
	samples    [][]int64
	exhaustive bool // every element's samples are all its values
}

type gen struct {
	r *rand.Rand
	// bases are values elements are drawn around; nil draws around 0.
	bases []int64
}

var extremes = []int64{maxI, maxI - 1, minI, minI + 1, 1 << 31, -1 << 31, 1 << 32, 3037000499, -3037000500, 1 << 62, -1 << 62}

// elem returns a random element and its samples.
func (g *gen) elem() (shape.Dim, []int64, bool) {
	r := g.r
	switch k := r.IntN(20); {
	case k == 0: // unbounded above
		lo := int64(r.IntN(13) - 6)
		return shape.Dim{Lo: lo, Hi: shape.Inf}, []int64{lo, lo + 1, lo + 7, lo + 1<<40, maxI}, false
	case k == 1: // unbounded below
		hi := int64(r.IntN(13) - 6)
		return shape.Dim{Lo: bounds.NegInf, Hi: hi}, []int64{hi, hi - 1, hi - 7, hi - 1<<40, minI}, false
	case k == 2: // unbounded
		return shape.Dim{Lo: bounds.NegInf, Hi: shape.Inf}, []int64{0, 1, -1, maxI, minI}, false
	case k <= 4 && g.bases == nil: // near the extremes of int64
		base := extremes[r.IntN(len(extremes))]
		w := int64(r.IntN(3))
		lo := base
		if base > 0 {
			lo = base - w
		}
		return interval(lo, lo+w)
	}
	base := int64(0)
	if g.bases != nil {
		base = g.bases[r.IntN(len(g.bases))]
	}
	lo := base + int64(r.IntN(13)-6)
	w := []int64{0, 0, 1, 2, 3}[r.IntN(5)]
	return interval(lo, lo+w)
}

// interval returns [lo, hi] with all its values as samples; it is exhaustive unless its bounds
// read as unbounded.
func interval(lo, hi int64) (shape.Dim, []int64, bool) {
	s := make([]int64, 0, hi-lo+1)
	for x := lo; ; x++ {
		s = append(s, x)
		if x == hi {
			break
		}
	}
	exhaustive := lo == hi || (lo != bounds.NegInf && hi != shape.Inf)
	return shape.Dim{Lo: lo, Hi: hi}, s, exhaustive
}

func (g *gen) value(dims ...int64) sampled {
	n, _ := shape.Volume(dims)
	s := sampled{v: bounds.Value{Shape: dims, Elems: make([]shape.Dim, n)}, samples: make([][]int64, n), exhaustive: true}
	for i := range s.v.Elems {
		var ex bool
		s.v.Elems[i], s.samples[i], ex = g.elem()
		s.exhaustive = s.exhaustive && ex
	}
	return s
}

// shapeUpTo returns a random shape of rank 0 to maxRank and at most maxElems elements.
func (g *gen) shapeUpTo(maxRank, maxElems int) []int64 {
	for {
		dims := make([]int64, g.r.IntN(maxRank+1))
		n := 1
		for i := range dims {
			if g.r.IntN(6) > 0 { // a dimension of size 0 now and then
				dims[i] = int64(1 + g.r.IntN(3))
			}
			n *= int(dims[i])
		}
		if n <= maxElems {
			return dims
		}
	}
}

// instances calls f with every choice of one sample per element of the inputs, as static Values,
// or with limit random choices when there are more.
func instances(r *rand.Rand, inputs []sampled, limit int, f func([]bounds.Value)) {
	total := 1
	for _, in := range inputs {
		for _, s := range in.samples {
			total *= len(s)
			if total > limit {
				break
			}
		}
	}
	vals := make([]bounds.Value, len(inputs))
	for i, in := range inputs {
		vals[i] = bounds.Value{Shape: in.v.Shape, Elems: make([]shape.Dim, len(in.v.Elems))}
	}
	if total > limit {
		for range limit {
			for i, in := range inputs {
				for j, s := range in.samples {
					vals[i].Elems[j] = shape.Static(s[r.IntN(len(s))])
				}
			}
			f(vals)
		}
		return
	}
	var rec func(i, j int)
	rec = func(i, j int) {
		switch {
		case i == len(inputs):
			f(vals)
		case j == len(inputs[i].samples):
			rec(i+1, 0)
		default:
			for _, x := range inputs[i].samples[j] {
				vals[i].Elems[j] = shape.Static(x)
				rec(i, j+1)
			}
		}
	}
	rec(0, 0)
}

// checkSound evaluates eval on the interval inputs and on every static instance of them and
// checks the instance results lie inside the interval result; with exact, that the interval result
// is the hull of the instance results when the inputs are exhaustive and no instance fails. The
// result of a static instance is static, except for Convert to a narrow floating type: it must
// then lie inside the interval result whole.
func checkSound(t *testing.T, r *rand.Rand, name string, inputs []sampled, exact bool, eval func([]bounds.Value) (bounds.Value, error)) {
	t.Helper()
	ivals := make([]bounds.Value, len(inputs))
	for i, in := range inputs {
		ivals[i] = in.v
	}
	desc := func() string {
		s := name + "("
		for i, v := range ivals {
			if i > 0 {
				s += ", "
			}
			s += show(v)
		}
		return s + ")"
	}
	res, err := eval(ivals)
	if errors.Is(err, bounds.ErrUnknown) {
		return
	}
	var lo, hi []int64
	if err == nil {
		lo, hi = make([]int64, len(res.Elems)), make([]int64, len(res.Elems))
	}
	seen, failed := false, false
	instances(r, inputs, 4096, func(vals []bounds.Value) {
		if t.Failed() {
			return
		}
		got, ierr := eval(vals)
		if err != nil {
			if ierr == nil {
				t.Errorf("%s = error %v, but the instance %v gives %s", desc(), err, vals, show(got))
			}
			return
		}
		if ierr != nil {
			failed = true
			return
		}
		if !equalInts(got.Shape, res.Shape) {
			t.Errorf("%s has shape %v, the instance %v gives %s", desc(), res.Shape, vals, show(got))
			return
		}
		for i, e := range got.Elems {
			// The result of an instance is static, or (Convert to a narrow floating type) an
			// interval of possible results.
			if !res.Elems[i].Contains(e.Lo) || !res.Elems[i].Contains(e.Hi) {
				t.Errorf("%s = %s: element %d does not hold %v, the result of the instance %v", desc(), show(res), i, e, vals)
				return
			}
			if !seen || e.Lo < lo[i] {
				lo[i] = e.Lo
			}
			if !seen || e.Hi > hi[i] {
				hi[i] = e.Hi
			}
		}
		seen = true
	})
	if !exact || err != nil || failed || !seen || t.Failed() {
		return
	}
	for _, in := range inputs {
		if !in.exhaustive {
			return
		}
	}
	for i, e := range res.Elems {
		if e != (shape.Dim{Lo: lo[i], Hi: hi[i]}) {
			t.Errorf("%s = %s: element %d is not the hull [%d, %d] of the instances' results", desc(), show(res), i, lo[i], hi[i])
			return
		}
	}
}

func equalInts(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func iterations(t *testing.T) int {
	if testing.Short() {
		return 500
	}
	return 10000
}

func TestPropertyBinary(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	g := &gen{r: r}
	for range iterations(t) {
		op := bounds.Op(r.IntN(5))
		da := g.shapeUpTo(2, 3)
		// b: a suffix of a's shape, some dimensions replaced by 1.
		db := append([]int64{}, da[r.IntN(len(da)+1):]...)
		for i := range db {
			if r.IntN(3) == 0 {
				db[i] = 1
			}
		}
		if r.IntN(2) == 0 {
			da, db = db, da
		}
		if n, _ := shape.Volume(db); n > 3 {
			continue
		}
		a, b := g.value(da...), g.value(db...)
		checkSound(t, r, "Binary "+op.String(), []sampled{a, b}, true, func(v []bounds.Value) (bounds.Value, error) {
			return bounds.Binary(op, v[0], v[1])
		})
		if t.Failed() {
			return
		}
	}
}

func TestPropertyReduceProd(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	g := &gen{r: r}
	for range iterations(t) {
		dims := g.shapeUpTo(3, 4)
		var axes []int64
		if r.IntN(3) > 0 {
			axes = []int64{}
			for d := range dims {
				if r.IntN(2) == 0 {
					axes = append(axes, int64(d-len(dims)*r.IntN(2)))
				}
			}
		}
		keep := r.IntN(2) == 0
		checkSound(t, r, fmt.Sprintf("ReduceProd axes %v keep %v", axes, keep), []sampled{g.value(dims...)}, true,
			func(v []bounds.Value) (bounds.Value, error) { return bounds.ReduceProd(v[0], axes, keep) })
		if t.Failed() {
			return
		}
	}
}

func TestPropertyGather(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	g := &gen{r: r}
	for range iterations(t) {
		dims := g.shapeUpTo(3, 5)
		if len(dims) == 0 {
			continue
		}
		axis := r.IntN(len(dims))
		size := dims[axis]
		var idx []int64
		var idims []int64
		batch := int64(0)
		if axis > 0 && r.IntN(3) == 0 {
			batch = 1
			idims = []int64{dims[0], int64(r.IntN(3))}
		} else {
			idims = g.shapeUpTo(2, 4)
		}
		n, _ := shape.Volume(idims)
		for range n {
			if size == 0 {
				break
			}
			k := int64(r.IntN(int(size)))
			if r.IntN(2) == 0 {
				k -= size
			}
			idx = append(idx, k)
		}
		if size == 0 && n > 0 {
			continue
		}
		indices, err := bounds.Const(idx, idims...)
		if err != nil {
			t.Fatal(err)
		}
		ax := int64(axis)
		if r.IntN(2) == 0 {
			ax -= int64(len(dims))
		}
		checkSound(t, r, fmt.Sprintf("Gather indices %s axis %d batch %d", show(indices), ax, batch), []sampled{g.value(dims...)}, true,
			func(v []bounds.Value) (bounds.Value, error) { return bounds.Gather(v[0], indices, ax, batch) })
		if t.Failed() {
			return
		}
	}
}

func TestPropertyConcat(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	g := &gen{r: r}
	for range iterations(t) {
		dims := g.shapeUpTo(2, 3)
		if len(dims) == 0 {
			continue
		}
		axis := r.IntN(len(dims))
		var inputs []sampled
		for range 1 + r.IntN(3) {
			d := append([]int64{}, dims...)
			d[axis] = int64(r.IntN(3))
			if n, _ := shape.Volume(d); n > 3 {
				d[axis] = 0
			}
			inputs = append(inputs, g.value(d...))
		}
		checkSound(t, r, fmt.Sprintf("Concat axis %d", axis), inputs, true,
			func(v []bounds.Value) (bounds.Value, error) { return bounds.Concat(v, int64(axis)) })
		if t.Failed() {
			return
		}
	}
}

func TestPropertySlice(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	g := &gen{r: r}
	index := func() int64 {
		if r.IntN(8) == 0 {
			return []int64{maxI, minI}[r.IntN(2)]
		}
		return int64(r.IntN(11) - 5)
	}
	for range iterations(t) {
		dims := g.shapeUpTo(2, 5)
		var starts, ends, axes, steps []int64
		for d := range dims {
			if r.IntN(3) == 0 {
				continue
			}
			starts, ends = append(starts, index()), append(ends, index())
			axes = append(axes, int64(d))
			step := int64(1 + r.IntN(3))
			if r.IntN(2) == 0 {
				step = -step
			}
			steps = append(steps, step)
		}
		name := fmt.Sprintf("Slice starts %v ends %v axes %v steps %v", starts, ends, axes, steps)
		checkSound(t, r, name, []sampled{g.value(dims...)}, true,
			func(v []bounds.Value) (bounds.Value, error) { return bounds.Slice(v[0], starts, ends, axes, steps) })
		if t.Failed() {
			return
		}
	}
}

func TestPropertyStridedSlice(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	g := &gen{r: r}
	bit := func() []int64 { return []int64{int64(r.IntN(2))} }
	for range iterations(t) {
		n := int64(r.IntN(6))
		begin, end := []int64{int64(r.IntN(13) - 6)}, []int64{int64(r.IntN(13) - 6)}
		stride := []int64{int64(1 + r.IntN(3))}
		if r.IntN(2) == 0 {
			stride[0] = -stride[0]
		}
		bm, em, nm, sm := bit(), bit(), []int64{0}, []int64{0}
		switch r.IntN(4) {
		case 0:
			nm[0] = 1
		case 1:
			sm[0] = 1
			begin[0] = int64(r.IntN(int(2*n+1))) - n
		}
		name := fmt.Sprintf("StridedSlice begin %v end %v stride %v masks %v %v %v %v", begin, end, stride, bm, em, nm, sm)
		checkSound(t, r, name, []sampled{g.value(n)}, true, func(v []bounds.Value) (bounds.Value, error) {
			return bounds.StridedSlice(v[0], begin, end, stride, bm, em, nm, sm, nil)
		})
		if t.Failed() {
			return
		}
	}
}

func TestPropertyConvert(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	types := []element.Type{element.Boolean, element.U1, element.U4, element.I4, element.U8, element.I8, element.U16,
		element.I16, element.U32, element.I32, element.U64, element.I64, element.F8E4M3, element.F8E5M2, element.F16,
		element.BF16, element.F32, element.F64}
	g := &gen{r: r, bases: []int64{0, 7, 15, 127, 128, 255, 256, -128, -129, 448, 2048, 32767, 57344, 65504, 65520,
		1 << 24, 1<<24 + 1<<16, 1 << 31, -1 << 31, 1 << 32, 1 << 53, maxI - 10, minI + 6}}
	for range iterations(t) {
		to := types[r.IntN(len(types))]
		dims := g.shapeUpTo(1, 3)
		checkSound(t, r, "Convert to "+to.String(), []sampled{g.value(dims...)}, false,
			func(v []bounds.Value) (bounds.Value, error) { return bounds.Convert(v[0], to) })
		if t.Failed() {
			return
		}
	}
}

// TestPropertyConvertExact: an interval that fits the integer target type, and an interval
// converted to a floating type that holds it, give exactly the hull of their instances.
func TestPropertyConvertExact(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 16))
	g := &gen{r: r, bases: []int64{0, 20, 100, 448, 2048, 57344, 65504, 1 << 24, 1<<24 + 1<<16, 1 << 53}}
	for range iterations(t) {
		to := []element.Type{element.I64, element.U64, element.F16, element.BF16, element.F8E4M3, element.F8E5M2,
			element.F32, element.F64}[r.IntN(8)]
		in := g.value(int64(1 + r.IntN(2)))
		if to == element.U64 && (in.v.Elems[0].Lo < 0 || in.v.Elems[len(in.v.Elems)-1].Lo < 0) {
			continue
		}
		checkSound(t, r, "Convert to "+to.String(), []sampled{in}, true,
			func(v []bounds.Value) (bounds.Value, error) { return bounds.Convert(v[0], to) })
		if t.Failed() {
			return
		}
	}
}
