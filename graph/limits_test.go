package graph

import (
	"fmt"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/sym"
)

// TestLimits: a Cast to int32 of a shape value states that the value fits, a limit where only a
// size of 2^31 or more breaks it (N <= 2147483647, T <= 17179869180 of (T+3)//8), apart from the
// conditions of real sizes, which it never joins, and implied where they imply it (N == 1, By
// indexing Constraints then Limits) or another limit does; a condition otherwise (N*T, which N = T
// = 65536 breaks; 16777216*N, which is N <= 127).
func TestLimits(t *testing.T) {
	toI32 := attrInt("to", int64(onnx.Int32))
	// dims returns a model of x [N,T], s its shape, n and t its dims (1-D).
	dims := func() *model {
		return newModel(17).input("x", "N", "T").
			ints("i0", []int64{1}, 0).ints("i1", []int64{1}, 1).
			node("shape", "Shape", []string{"x"}, []string{"s"}).
			node("n", "Gather", []string{"s", "i0"}, []string{"n"}).
			node("t", "Gather", []string{"s", "i1"}, []string{"t"})
	}
	for _, tc := range []struct {
		name              string
		m                 *model
		constraints, lims []string
		implied           []string
		sizes             string
	}{
		{"a shape cast to int32", dims().
			node("cast", "Cast", []string{"s"}, []string{"y"}, toI32).output("y"),
			nil, []string{"N <= 2147483647", "T <= 2147483647"}, nil, "N, T: 1..2147483647"},
		{"a floor division cast, beside a condition of T", dims().
			ints("three", nil, 3).ints("eight", nil, 8).ints("p", nil, 0, -1, 4).
			node("add", "Add", []string{"t", "three"}, []string{"t3"}).
			node("div", "Div", []string{"t3", "eight"}, []string{"q"}).
			node("cast", "Cast", []string{"q"}, []string{"y"}, toI32).
			node("reshape", "Reshape", []string{"x", "p"}, []string{"r"}).output("y", "r"),
			[]string{"T % 4 == 0"}, []string{"T <= 17179869180"}, nil,
			"T: multiples of 4 from 4 up to 17179869180"},
		{"a product of two dims is a condition", dims().
			node("mul", "Mul", []string{"n", "t"}, []string{"nt"}).
			node("cast", "Cast", []string{"nt"}, []string{"y"}, toI32).output("y"),
			[]string{"N*T <= 2147483647"}, nil, nil, ""},
		{"2^24*N is a condition", dims().
			ints("k", nil, 16777216).
			node("mul", "Mul", []string{"n", "k"}, []string{"kn"}).
			node("cast", "Cast", []string{"kn"}, []string{"y"}, toI32).output("y"),
			[]string{"N <= 127"}, nil, nil, "N: 1..127"},
		{"a limit the conditions imply", dims().
			node("cast", "Cast", []string{"n"}, []string{"y"}, toI32).
			node("reshape", "Reshape", []string{"x", "t"}, []string{"r"}).output("y", "r"),
			[]string{"N == 1"}, nil, []string{"N <= 2147483647 by [0]"}, "N: 1 only"},
		{"a limit another implies", dims().
			ints("three", nil, 3).ints("eight", nil, 8).
			node("add", "Add", []string{"t", "three"}, []string{"t3"}).
			node("div", "Div", []string{"t3", "eight"}, []string{"q"}).
			node("cast", "Cast", []string{"q"}, []string{"y"}, toI32).
			node("cast_t", "Cast", []string{"t"}, []string{"z"}, toI32).output("y", "z"),
			nil, []string{"T <= 2147483647"}, []string{"T <= 17179869180 by [0]"}, "T: 1..2147483647"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res, err := Infer(decodeGraph(t, tc.m.encode()), Options{})
			if err != nil {
				t.Fatal(err)
			}
			preds := func(cs []sym.Constraint) []string {
				var out []string
				for _, c := range cs {
					out = append(out, c.Pred.String())
				}
				return out
			}
			if got := preds(res.Constraints()); strings.Join(got, "; ") != strings.Join(tc.constraints, "; ") {
				t.Errorf("constraints %q, want %q", got, tc.constraints)
			}
			if got := preds(res.Limits()); strings.Join(got, "; ") != strings.Join(tc.lims, "; ") {
				t.Errorf("limits %q, want %q", got, tc.lims)
			}
			var implied []string
			for _, im := range res.Implied() {
				if strings.HasPrefix(im.Origin.Node, "cast") {
					implied = append(implied, fmt.Sprint(im.Pred, " by ", im.By))
				}
			}
			if strings.Join(implied, "; ") != strings.Join(tc.implied, "; ") {
				t.Errorf("implied at the Cast %q, want %q", implied, tc.implied)
			}
			if tc.sizes != "" {
				if got := strings.Join(res.Sizes().Lines(), "; "); got != tc.sizes {
					t.Errorf("sizes %q, want %q", got, tc.sizes)
				}
			}
			// Past a limit, a run stops at a Cast.
			if err := res.Check(map[string]int64{"N": 1, "T": 1 << 36}); len(tc.lims) > 0 && (err == nil || !strings.HasPrefix(err.Error(), "cast")) {
				t.Errorf("Check at T = 2^36: %v, want a Cast's error", err)
			}
		})
	}
}
