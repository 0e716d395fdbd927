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

// A shape evaluates at a binding of its symbols; one it leaves out is named.
func ExampleShape_Eval() {
	tab := sym.NewTable()
	s, _ := sym.ParseShape("[N,3,(H+1)//2,max(A,B)]", tab)
	fmt.Println(s.Eval(map[string]int64{"N": 8, "H": 223, "A": 1, "B": 5}))
	fmt.Println(s.Eval(map[string]int64{"N": 8, "H": 223}))
	// Output:
	// [8 3 112 5] <nil>
	// [] dim[3]: symbol A has no value
}
