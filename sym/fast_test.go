package sym

import "testing"

// TestFastPaths holds the shortcuts of op and MulDims (static operands, a constant times an
// expression) to what the general path gives, Dim for Dim, and pins them at no allocation.
func TestFastPaths(t *testing.T) {
	tab := NewTable()
	n := Of(tab.Symbol("N", 1, Inf))
	h := Of(tab.Symbol("H", 2, 64))
	nh := MulDims(n, h)
	dims := []Dim{Const(0), Const(1), Const(-1), Const(3), Const(1 << 40), n, h, nh, AddDims(n, Const(1)),
		Interval(2, 9), Unknown(), UnknownValue(), Of(tab.Anon("k", 1, 8))}
	ops := []struct {
		name string
		fast func(a, b Dim) Dim
		f    func(x, y Expr) (Expr, bool)
		g    func(x, y ival) ival
	}{
		{"Mul", MulDims, Mul, mulI},
		{"Add", AddDims, Add, addI},
	}
	for _, o := range ops {
		for _, a := range dims {
			for _, b := range dims {
				got, want := o.fast(a, b), op(a, b, o.f, o.g)
				if !got.Identical(want) || got.exact != want.exact {
					t.Errorf("%s(%v, %v) = %v [%d, %d], want %v [%d, %d]", o.name, a, b, got, got.lo, got.hi, want, want.lo, want.hi)
				}
			}
		}
	}
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"MulDims(3, 4)", func() { MulDims(Const(3), Const(4)) }},
		{"AddDims(3, 4)", func() { AddDims(Const(3), Const(4)) }},
		{"FloorDivDims(12, 4)", func() { FloorDivDims(Const(12), Const(4)) }},
		{"Expr.DependsOnAnon", func() { nh.e.DependsOnAnon() }},
	} {
		if allocs := testing.AllocsPerRun(100, c.f); allocs != 0 {
			t.Errorf("%s: %v allocations, want 0", c.name, allocs)
		}
	}
}
