package graph_test

import (
	"slices"
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
	var got []string
	for _, c := range res.NodeConstraints() {
		got = append(got, c.String())
	}
	slices.Sort(got)
	if want := []string{"B*(H//4) >= 1 (Div_0 (Div): the divisor B*(H//4) not 0)", "H >= 4 (Div_0 (Div): the divisor H//4 not 0)"}; !slices.Equal(got, want) {
		t.Errorf("conditions %q, want %q", got, want)
	}
	for name, want := range map[string]string{"hq": "[H//4]", "n": "[B*(H//4)]", "q": "[B]", "r": "[0]", "inv": "[H//4//(B*(H//4))]"} {
		info := res.Tensor(name)
		if got := sym.ShapeOf(info.Value...).String(); info.Value == nil || got != want {
			t.Errorf("%s: values %s, want %s", name, got, want)
		}
	}
}

func TestPRelu(t *testing.T) {
	xs := []string{"x", "s"}
	checkNode(t, []nodeCase{
		{name: "slope per channel", node: nodeV("PRelu", 16, xs, y), inputs: shapes1("x", "[N,C,H,W]", "s", "[C,1,1]"), want: []string{"[N,C,H,W]"}},
		{name: "slope of a symbol unifies", node: nodeV("PRelu", 9, xs, y), inputs: shapes1("x", "[N,3]", "s", "[K]"), want: []string{"[N,3]"}},
		{name: "slope that may be 1", node: nodeV("PRelu", 16, xs, y), inputs: shapes1("x", "[N,3]", "s", "[?]"), want: []string{"[N,3]"},
			constraints: []string{"s:0 in {1, 3} (PRelu_0 (PRelu): input 1 dim 0 1 or the output's)"}},
		// FuzzInferGraph: a slope [C,C,C] for x [C,C,0] inferred without a word, refused at C=4.
		{name: "slope of a symbol that may be 1", node: nodeV("PRelu", 16, xs, y), inputs: shapes1("x", "[N,C,0]", "s", "[C,S]"), want: []string{"[N,C,0]"},
			constraints: []string{"S == 1 (PRelu_0 (PRelu): input 1 dim 1 1 or the output's)"}},
		{name: "slope of a symbol against one", node: nodeV("PRelu", 16, xs, y), inputs: shapes1("x", "[N,T]", "s", "[S]"), want: []string{"[N,T]"},
			constraints: []string{"T == S || S == 1 (PRelu_0 (PRelu): input 1 dim 0 1 or the output's)"}},
		{name: "slope that does not broadcast", node: nodeV("PRelu", 7, xs, y), inputs: shapes1("x", "[N,3]", "s", "[4]"), wantErr: errInvalidShape},
		{name: "slope of a higher rank", node: nodeV("PRelu", 16, xs, y), inputs: shapes1("x", "[3]", "s", "[1,3]"), wantErr: errInvalidShape},
		{name: "PRelu-6 keeps X", node: nodeV("PRelu", 6, xs, y), inputs: shapes1("x", "[N,3]", "s", "[4]"), want: []string{"[N,3]"}},
	})
}

// TestFloatConstants: the Floats of a model's small float constants go through Add, Sub, Mul,
// Div, Neg, Abs, Relu, Floor, Ceil and Round, and Cast to an integer or a boolean, so that a count
// computed in floats (Range's expansion: ceil((limit-start)/delta)) is known.
func TestFloatConstants(t *testing.T) {
	for _, tc := range []struct {
		name  string
		a, b  float64
		ops   []string // applied in turn: a binary op takes the result and b, a unary op the result
		count string   // the shape of Range(0, Cast<int64>(result), 1)
		cond  string   // the value of Cast<bool>(result)
	}{
		{"ceil of a quotient", 7, 2, []string{"Div", "Ceil"}, "[4]", "[1]"},
		{"floor of a quotient", 7, 2, []string{"Div", "Floor"}, "[3]", "[1]"},
		{"round half to even", 5, 2, []string{"Div", "Round"}, "[2]", "[1]"},
		{"relu of a difference", 3, 5, []string{"Sub", "Relu"}, "[0]", "[0]"},
		{"abs of a negation", 3, 2, []string{"Neg", "Abs", "Mul"}, "[6]", "[1]"},
		{"a sum, truncated by Cast", 1.5, 2, []string{"Add"}, "[3]", "[1]"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g := &graph.Graph{Consts: map[string]*graph.Const{"zero": intConst("zero", []int64{0}, []int64{}), "one": intConst("one", []int64{1}, []int64{})}}
			g.Nodes = []graph.Node{
				nodeV("Constant", 17, nil, []string{"v0"}, graph.Attr{Name: "value_float", Kind: graph.AttrFloat, Float: tc.a}),
				nodeV("Constant", 17, nil, []string{"b"}, graph.Attr{Name: "value_float", Kind: graph.AttrFloat, Float: tc.b}),
			}
			last := "v0"
			for i, op := range tc.ops {
				in := []string{last}
				if op == "Div" || op == "Sub" || op == "Mul" || op == "Add" {
					in = append(in, "b")
				}
				last = "v" + string(rune('1'+i))
				g.Nodes = append(g.Nodes, nodeV(op, 14, in, []string{last}))
			}
			g.Nodes = append(g.Nodes,
				nodeV("Cast", 13, []string{last}, []string{"n"}, attrInt("to", 7)),
				nodeV("Cast", 13, []string{last}, []string{"c"}, attrInt("to", 9)),
				nodeV("Range", 11, []string{"zero", "n", "one"}, []string{"r"}))
			res, err := graph.Infer(g, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if got := res.Tensor("r").Shape.String(); got != tc.count {
				t.Errorf("Range = %s, want %s", got, tc.count)
			}
			if got := sym.ShapeOf(res.Tensor("c").Value...).String(); got != tc.cond {
				t.Errorf("Cast to bool = %s, want %s", got, tc.cond)
			}
		})
	}
}
