package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

// TestDivByShapeDim checks integer Div and Mod of shape values by a divisor whose bounds include 0
// (H//4 is 0 for H < 4): a run where it is 0 fails, so B*(H//4) divided by H//4 is B, as in a
// Swin window reverse (windows.shape[0] // (H//ws * W//ws)).
func TestDivByShapeDim(t *testing.T) {
	tab := sym.NewTable()
	s, err := sym.ParseShape("[B,H]", tab)
	if err != nil {
		t.Fatal(err)
	}
	four := intConst("four", []int64{4}, []int64{1})
	g := &graph.Graph{Consts: map[string]*graph.Const{"four": four}, Declared: map[string]graph.Decl{},
		Inputs: []graph.Input{{Name: "x", Decl: declOf(s, element.F32)}},
		Nodes: []graph.Node{
			at(15, node("Shape", []string{"x"}, []string{"b"}, attrInt("end", 1))),
			at(15, node("Shape", []string{"x"}, []string{"h"}, attrInt("start", 1))),
			at(14, node("Div", []string{"h", "four"}, []string{"hq"})),
			at(14, node("Mul", []string{"b", "hq"}, []string{"n"})),
			at(14, node("Div", []string{"n", "hq"}, []string{"q"})),
			at(13, node("Mod", []string{"n", "hq"}, []string{"r"})),
			at(14, node("Div", []string{"hq", "n"}, []string{"inv"})),
		}}
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]string{"hq": "[H//4]", "n": "[B*(H//4)]", "q": "[B]", "r": "[0]", "inv": "[H//4//(B*(H//4))]"} {
		info := res.Tensors[name]
		if got := sym.ShapeOf(info.Value...).String(); info.Value == nil || got != want {
			t.Errorf("%s: values %s, want %s", name, got, want)
		}
	}
}
