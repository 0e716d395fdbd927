package sym_test

import (
	"fmt"

	"github.com/reshape-go/reshape/sym"
)

// Conditions read in the notation come out in one canonical form.
func ExampleParsePred() {
	tab := sym.NewTable()
	for _, s := range []string{
		"12*N == 12",
		"H - 10 >= 1",
		"4*T % 16 == 0",
		"((H-1)//2+1) % 2 == 0",
		"max(A,B) <= 8",
		"2*N == 3",
		`"batch size" >= 2 && "batch size" >= 4`,
	} {
		p, err := sym.ParsePred(s, tab)
		if err != nil {
			fmt.Println(err)
			continue
		}
		fmt.Printf("%-40s %s\n", s, p)
	}
	// Output:
	// 12*N == 12                               N == 1
	// H - 10 >= 1                              H >= 11
	// 4*T % 16 == 0                            T % 4 == 0
	// ((H-1)//2+1) % 2 == 0                    (H+1)//2 % 2 == 0
	// max(A,B) <= 8                            A <= 8 && B <= 8
	// 2*N == 3                                 0 == 1
	// "batch size" >= 2 && "batch size" >= 4   "batch size" >= 4
}

// The broadcast of two symbols either of which may be 1 is their maximum, under the condition
// that broadcasting needs.
func ExampleMaxDims() {
	tab := sym.NewTable()
	a, b := tab.Symbol("A", 1, sym.Inf), tab.Symbol("B", 1, sym.Inf)
	one := sym.Int(1)
	fmt.Println(sym.MaxDims(sym.Of(a), sym.Of(b)))
	fmt.Println(sym.Or(sym.Eq(a, b), sym.Eq(a, one), sym.Eq(b, one)))
	// Output:
	// max(A,B)
	// A == 1 || A == B || B == 1
}

// A Reshape of [N,3,4] into [1,12] needs 12*N == 12: N is 1 wherever the model runs, and the
// solver substitutes it.
func ExampleSolver_Unify() {
	tab := sym.NewTable()
	s := sym.NewSolver(tab)
	n := sym.Of(tab.Symbol("N", 1, sym.Inf))
	volume := sym.MulDims(n, sym.Const(12))
	o := sym.Origin{Node: "Reshape_0", Op: "Reshape", Why: "the volume of the pattern"}
	d, err := s.Unify(volume, sym.Const(12), o)
	fmt.Println(d, err)
	fmt.Println(s.Dim(sym.AddDims(n, sym.Const(2))))
	fmt.Println(s.Constraints())
	fmt.Println(s.Check(map[string]int64{"N": 2}))
	// Output:
	// 12 <nil>
	// 3
	// [N == 1 (Reshape_0 (Reshape): the volume of the pattern)]
	// Reshape_0 (Reshape): the volume of the pattern: N == 1 does not hold at N=2
}

// Rules record what they need of the symbols; the solver keeps what is not implied, and refuses
// what can never hold.
func ExampleSolver_Require() {
	tab := sym.NewTable()
	s := sym.NewSolver(tab)
	h, t := tab.Symbol("H", 1, sym.Inf), tab.Symbol("T", 1, sym.Inf)
	conv := sym.Origin{Node: "Conv_0", Op: "Conv", Why: "the window"}
	pool := sym.Origin{Node: "Pool_1", Op: "MaxPool", Why: "the window"}
	flat := sym.Origin{Node: "Reshape_2", Op: "Reshape", Why: "the -1"}
	fmt.Println(s.Require(sym.Ge(h, sym.Int(11)), conv))
	fmt.Println(s.Require(sym.Ge(h, sym.Int(5)), pool)) // implied: not recorded
	four, _ := sym.Divisible(t, sym.Int(4))
	fmt.Println(s.Require(four, flat))
	fmt.Println(s.Require(sym.Le(h, sym.Int(8)), pool))
	for _, c := range s.Constraints() {
		fmt.Println(c)
	}
	// Output:
	// <nil>
	// <nil>
	// <nil>
	// Pool_1 (MaxPool): the window: H <= 8 cannot hold with H >= 11 (Conv_0 (Conv): the window)
	// H >= 11 (Conv_0 (Conv): the window)
	// T % 4 == 0 (Reshape_2 (Reshape): the -1)
}

// The constraints of the two branches of an If join with ||.
func ExampleSolver_Mark() {
	tab := sym.NewTable()
	s := sym.NewSolver(tab)
	n := tab.Symbol("N", 1, sym.Inf)
	m := s.Mark()
	s.Require(sym.Eq(n, sym.Int(1)), sym.Origin{Node: "If_0/then_branch/Reshape_0"})
	then := s.Cut(m)
	m = s.Mark()
	s.Require(sym.Ge(n, sym.Int(4)), sym.Origin{Node: "If_0/else_branch/Conv_0"})
	els := s.Cut(m)
	s.Require(sym.Or(sym.All(then), sym.All(els)), sym.Origin{Node: "If_0", Op: "If"})
	fmt.Println(s.Constraints())
	// Output:
	// [N == 1 || N >= 4 (If_0 (If))]
}

// Is a declared [N,N,4] the inferred [N,10,4]? Only when N == 10.
func ExampleSolver_EqualWhen() {
	tab := sym.NewTable()
	s := sym.NewSolver(tab)
	decl, _ := sym.ParseShape("[N,N,4]", tab)
	inferred, _ := sym.ParseShape("[N,10,4]", tab)
	for i := range decl.Dims {
		when, _ := s.EqualWhen(decl.Dims[i], inferred.Dims[i])
		switch {
		case when.IsTrue():
			fmt.Printf("dim %d: equal\n", i)
		case when.IsFalse():
			fmt.Printf("dim %d: never equal\n", i)
		default:
			fmt.Printf("dim %d: equal only when %s\n", i, when)
		}
	}
	// Output:
	// dim 0: equal
	// dim 1: equal only when N == 10
	// dim 2: equal
}

// A shape evaluates at a binding of its symbols; one it leaves out is named.
func ExampleShape_Eval() {
	tab := sym.NewTable()
	s, _ := sym.ParseShape("[N,3,(H+1)//2,max(A,B)]", tab)
	fmt.Println(s.Eval(map[string]int64{"N": 8, "H": 223, "A": 1, "B": 5}))
	fmt.Println(s.Eval(map[string]int64{"N": 8, "H": 223}))
	t, _ := sym.ParseShape("[B,(L-400)//160+1]", tab)
	fmt.Println(t.Eval(map[string]int64{"B": 2, "L": 100}))
	// Output:
	// [8 3 112 5] <nil>
	// [] dim[3]: symbol A has no value
	// [] dim[1]: (L+80)//160-2 is -1 at L=100: no size is below 0
}

// torchvision's detection transform resizes an image [3,H,W] by a scale computed in float32: the
// size is an expression that evaluates as onnxruntime rounds it, 319 rows at H = W = 25 where the
// exact ratio 320·25/25 gives 320. Its bounds hold whatever the rounding: at most 640 (H times
// 640/max(H,W)), and 0 at H = 1, W = 641.
func ExampleTrunc() {
	tab := sym.NewTable()
	h, w := tab.Symbol("H", 1, sym.Inf), tab.Symbol("W", 1, sym.Inf)
	f32 := func(e sym.Expr) sym.Float { f, _ := sym.FloatOf(e, 32); return f }
	c32 := func(v float64) sym.Float { f, _ := sym.FloatConst(v, 32); return f }
	mul := func(x, y sym.Float) sym.Float { f, _ := sym.FloatBinary(sym.FloatMul, x, y); return f }
	recip := func(x sym.Float) sym.Float { f, _ := sym.FloatBinary(sym.FloatDiv, c32(1), x); return f }
	lo, _ := sym.Min(h, w)
	hi, _ := sym.Max(h, w)
	scale, _ := sym.FloatBinary(sym.FloatMin, mul(recip(f32(lo)), c32(320)), mul(recip(f32(hi)), c32(640)))
	floor, _ := sym.FloatUnary(sym.FloatFloor, mul(f32(h), scale))
	rows, _ := sym.Trunc(floor)
	fmt.Println(rows)
	fmt.Println(rows.Bounds())
	for _, b := range []map[string]int64{{"H": 24, "W": 24}, {"H": 25, "W": 25}, {"H": 12, "W": 25}, {"H": 1, "W": 641}} {
		fmt.Println(sym.Of(rows).Eval(b))
	}
	// Output:
	// int(floor(f32(H)*min(f32(1)/f32(min(H,W))*f32(320),f32(1)/f32(max(H,W))*f32(640))))
	// 0 640
	// 320 <nil>
	// 319 <nil>
	// 307 <nil>
	// 0 <nil>
}
