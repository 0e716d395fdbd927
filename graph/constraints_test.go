package graph

import (
	"errors"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// TestUnifyRecords checks that Ctx.Unify records each equality it imposes as a constraint of its
// node, in the engine's sym.Solver, and that the substitutions reach every tensor.
func TestUnifyRecords(t *testing.T) {
	b := newModel(17).input("x", "N", "K").input("z", "M", 6).input("v", "T", "K").
		ints("w", []int64{2}, 4, 8).
		node("shape", "ConstantOfShape", []string{"w"}, []string{"wt"}).
		node("mm", "MatMul", []string{"x", "wt"}, []string{"y"}).
		node("cat", "Concat", []string{"x", "z"}, []string{"c"}, attrInt("axis", 1)).
		node("cat2", "Concat", []string{"x", "v"}, []string{"c2"}, attrInt("axis", 0)).
		output("y", "c", "c2")
	res, err := Infer(decodeGraph(t, b.encode()), Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, c := range res.e.solver.Constraints() {
		got = append(got, c.String())
	}
	want := []string{
		"N == M (cat (Concat): input 1 dim 0)",
		"K == 4 (mm (MatMul): the inner dims (A's last, B's second to last))",
	}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("constraints:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for name, want := range map[string]string{"x": "[N,4]", "z": "[N,6]", "y": "[N,8]", "c": "[N,10]", "c2": "[N+T,4]"} {
		if got := res.Tensors[name].Shape.String(); got != want {
			t.Errorf("%s: %s, want %s", name, got, want)
		}
	}
	err = res.e.solver.Check(map[string]int64{"N": 2, "M": 3, "K": 4, "T": 1})
	var ce *sym.ConstraintError
	if !errors.As(err, &ce) || !errors.Is(err, errcode.ErrInvalidShape) || ce.Constraint.Origin.Node != "cat" ||
		!strings.HasSuffix(err.Error(), "N == M does not hold at N=2, M=3") {
		t.Errorf("Check(N=2, M=3): %v", err)
	}
}
