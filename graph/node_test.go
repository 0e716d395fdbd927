package graph_test

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

// nodeCase infers one node: its inputs are graph inputs of the given shapes (the notation of
// sym.ParseShape: symbols, integers, "?") or constants, and the test checks the shapes (and values)
// of its outputs.
type nodeCase struct {
	name    string
	node    graph.Node
	inputs  map[string]string       // graph inputs: name → shape
	consts  map[string][]int64      // int64 constants: name → values (1-D; a scalar if named with a "s:" prefix)
	types   map[string]element.Type // graph input types, f32 when not given
	tensors map[string]*graph.Const // other constants (any type and shape), by name
	want    []string                // the output shapes, in the notation
	values  []string                // the output values ("[N,-1]"), "" when not checked
	wantErr error                   // the node's error code, when it has one
	// constraints are those the node records (Result.Constraints, each "PRED (NODE (OP): WHY)");
	// not checked when nil.
	constraints []string
	// pre are nodes that run before node and feed it (a Pad that makes an input dim H-2, which may
	// be 0); their inputs are read from inputs and consts as node's are.
	pre []graph.Node
}

// runNode infers the graph of one node and returns its result.
func runNode(t *testing.T, tc nodeCase) *graph.Result {
	t.Helper()
	g := &graph.Graph{Consts: map[string]*graph.Const{}, Declared: map[string]graph.Decl{}}
	tab := sym.NewTable()
	var names []string
	for _, n := range append(slices.Clone(tc.pre), tc.node) {
		names = append(names, n.Inputs...)
	}
	for _, name := range names {
		if name == "" || g.Consts[name] != nil || slices.ContainsFunc(g.Inputs, func(in graph.Input) bool { return in.Name == name }) {
			continue
		}
		if c, ok := tc.tensors[name]; ok {
			g.Consts[name] = c
			continue
		}
		if v, ok := tc.consts[name]; ok {
			dims := []int64{int64(len(v))}
			g.Consts[name] = intConst(name, v, dims)
			continue
		}
		if v, ok := tc.consts["s:"+name]; ok {
			g.Consts[name] = intConst(name, v, []int64{})
			continue
		}
		text, ok := tc.inputs[name]
		if !ok {
			continue
		}
		s, err := sym.ParseShape(text, tab)
		if err != nil {
			t.Fatal(err)
		}
		typ := element.F32
		if tt, ok := tc.types[name]; ok {
			typ = tt
		}
		g.Inputs = append(g.Inputs, graph.Input{Name: name, Decl: declOf(s, typ)})
	}
	g.Nodes = append(slices.Clone(tc.pre), tc.node)
	for i := range g.Nodes {
		if g.Nodes[i].Version == 0 {
			g.Nodes[i].Version = 17
		}
	}
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatalf("Infer: %v", err)
	}
	return res
}

func intConst(name string, v []int64, dims []int64) *graph.Const {
	return &graph.Const{Name: name, Type: element.I64, Dims: dims, Load: func(int64) ([]int64, []float64, error) { return v, nil, nil }}
}

// declOf returns the declaration of a parsed shape: symbols by name, integers, unknowns.
func declOf(s sym.Shape, typ element.Type) graph.Decl {
	if s.RankDynamic {
		return graph.Decl{Type: typ, Rank: -1}
	}
	d := graph.Decl{Type: typ, Rank: len(s.Dims)}
	for _, dim := range s.Dims {
		if n, ok := dim.Static(); ok {
			d.Dims = append(d.Dims, graph.StaticDim(n))
			continue
		}
		if e, ok := dim.Expr(); ok {
			if name, _, ok := e.Symbol(); ok {
				d.Dims = append(d.Dims, graph.NamedDim(name))
				continue
			}
		}
		lo, hi := dim.Bounds()
		d.Dims = append(d.Dims, graph.DeclDim{Lo: lo, Hi: hi})
	}
	return d
}

// checkNode runs the cases and compares the outputs.
func checkNode(t *testing.T, cases []nodeCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			res := runNode(t, tc)
			r := res.Nodes[len(res.Nodes)-1]
			if tc.wantErr != nil {
				if r.Err == nil || !errorsIs(r.Err, tc.wantErr) {
					t.Fatalf("error = %v, want %v", r.Err, tc.wantErr)
				}
				return
			}
			if r.Err != nil {
				t.Fatalf("error: %v", r.Err)
			}
			if tc.constraints != nil {
				got := []string{}
				for _, c := range res.Constraints() {
					got = append(got, c.String())
				}
				if strings.Join(got, "\n") != strings.Join(tc.constraints, "\n") {
					t.Errorf("constraints:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.constraints, "\n"))
				}
			}
			for i, want := range tc.want {
				if got := r.Outputs[i].Shape.String(); got != want {
					t.Errorf("output %d = %s, want %s", i, got, want)
				}
				if i < len(tc.values) && tc.values[i] != "" {
					if got := sym.ShapeOf(r.Outputs[i].Value...).String(); r.Outputs[i].Value == nil || got != tc.values[i] {
						t.Errorf("output %d values = %s (%v), want %s", i, got, r.Outputs[i].Value != nil, tc.values[i])
					}
				}
			}
		})
	}
}

func attrInts(name string, v ...int64) graph.Attr {
	return graph.Attr{Name: name, Kind: graph.AttrInts, Ints: v}
}

func attrInt(name string, v int64) graph.Attr {
	return graph.Attr{Name: name, Kind: graph.AttrInt, Int: v}
}

func node(op string, inputs, outputs []string, attrs ...graph.Attr) graph.Node {
	return graph.Node{Name: op + "_0", Op: op, Inputs: inputs, Outputs: outputs, Attrs: attrs}
}

func TestCoreRules(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "shape", node: node("Shape", []string{"x"}, []string{"y"}), inputs: map[string]string{"x": "[N,3,H,W]"},
			want: []string{"[4]"}, values: []string{"[N,3,H,W]"}},
		{name: "shape start end", node: node("Shape", []string{"x"}, []string{"y"}, attrInt("start", 1), attrInt("end", -1)),
			inputs: map[string]string{"x": "[N,3,H,W]"}, want: []string{"[2]"}, values: []string{"[3,H]"}},
		{name: "reshape flatten", node: node("Reshape", []string{"x", "p"}, []string{"y"}), inputs: map[string]string{"x": "[N,3,224,224]"},
			consts: map[string][]int64{"p": {0, -1}}, want: []string{"[N,150528]"}},
		{name: "reshape bad", node: node("Reshape", []string{"x", "p"}, []string{"y"}), inputs: map[string]string{"x": "[N,3,5]"},
			consts: map[string][]int64{"p": {0, -1, 2}}, wantErr: errNotDivisible},
		{name: "concat", node: node("Concat", []string{"a", "b"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"a": "[N,3]", "b": "[N,T]"}, want: []string{"[N,T+3]"}},
		{name: "concat unifies", node: node("Concat", []string{"a", "b"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"a": "[N,3]", "b": "[M,4]"}, want: []string{"[N,7]"}},
		// Issue 26: an input of unknown rank (the Imputer of a pipeline without a rule) first or
		// last adds a dim of its own, which may be 0: the concatenated dim is at least the others'.
		{name: "concat after an input of unknown rank", node: node("Concat", []string{"a", "b"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"a": "[...]", "b": "[N,3]"}, want: []string{"[N,3..]"}},
		{name: "concat before an input of unknown rank", node: node("Concat", []string{"b", "a", "c"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"a": "[...]", "b": "[N,3]", "c": "[N,T]"}, want: []string{"[N,4..]"}},
		// FuzzInferGraph: a Gather of index -3 along an axis C inferred without a word, refused at
		// C=1.
		{name: "gather along a symbol", node: node("Gather", []string{"x", "i"}, []string{"y"}), inputs: map[string]string{"x": "[C,4]"},
			consts: map[string][]int64{"i": {-3, 1}}, want: []string{"[2,4]"},
			constraints: []string{"C >= 3 (Gather_0 (Gather): index -3 (element 0 of the indices) within axis 0)"}},
		{name: "gather along a symbol, a positive index", node: node("Gather", []string{"x", "i"}, []string{"y"}, attrInt("axis", 1)),
			inputs: map[string]string{"x": "[N,C]"}, consts: map[string][]int64{"i": {0, 5, -2}}, want: []string{"[N,3]"},
			constraints: []string{"C >= 6 (Gather_0 (Gather): index 5 (element 1 of the indices) within axis 1)"}},
		{name: "gather along an axis of 2", node: node("Gather", []string{"x", "i"}, []string{"y"}), inputs: map[string]string{"x": "[2,4]"},
			consts: map[string][]int64{"i": {-3}}, wantErr: errInvalidShape},
		{name: "gather scalar", node: node("Gather", []string{"x", "i"}, []string{"y"}), inputs: map[string]string{"x": "[4]"},
			consts: map[string][]int64{"s:i": {2}}, want: []string{"[]"}},
		{name: "unsqueeze 13", node: node("Unsqueeze", []string{"x", "a"}, []string{"y"}), inputs: map[string]string{"x": "[B,T]"},
			consts: map[string][]int64{"a": {0, -1}}, want: []string{"[1,B,T,1]"}},
		{name: "squeeze", node: node("Squeeze", []string{"x", "a"}, []string{"y"}), inputs: map[string]string{"x": "[1,B,1]"},
			consts: map[string][]int64{"a": {2}}, want: []string{"[1,B]"}},
		// Squeezing an axis in the symbols requires it of size 1, as onnxruntime does at run time.
		{name: "squeeze a symbol", node: node("Squeeze", []string{"x", "a"}, []string{"y"}), inputs: map[string]string{"x": "[N,B,C]"},
			consts: map[string][]int64{"a": {0, 2}}, want: []string{"[B]"},
			constraints: []string{"N == 1 (Squeeze_0 (Squeeze): axis 0 squeezed, of size 1)", "C == 1 (Squeeze_0 (Squeeze): axis 2 squeezed, of size 1)"}},
		{name: "squeeze an axis of 2", node: node("Squeeze", []string{"x", "a"}, []string{"y"}), inputs: map[string]string{"x": "[N,2]"},
			consts: map[string][]int64{"a": {1}}, wantErr: errInvalidShape},
		{name: "flatten", node: node("Flatten", []string{"x"}, []string{"y"}, attrInt("axis", 2)), inputs: map[string]string{"x": "[N,C,H,W]"},
			want: []string{"[N*C,H*W]"}},
		{name: "transpose", node: node("Transpose", []string{"x"}, []string{"y"}, attrInts("perm", 0, 2, 1, 3)),
			inputs: map[string]string{"x": "[B,T,4,16]"}, want: []string{"[B,4,T,16]"}},
		{name: "slice to end", node: node("Slice", []string{"x", "s", "e", "a"}, []string{"y"}), inputs: map[string]string{"x": "[B,T,64]"},
			consts: map[string][]int64{"s": {1}, "e": {9223372036854775807}, "a": {1}}, want: []string{"[B,T-1,64]"}},
		{name: "slice negative step", node: node("Slice", []string{"x", "s", "e", "a", "st"}, []string{"y"}), inputs: map[string]string{"x": "[10]"},
			consts: map[string][]int64{"s": {-1}, "e": {-9223372036854775808}, "a": {0}, "st": {-3}}, want: []string{"[4]"}},
		{name: "slice reversed by 2", node: node("Slice", []string{"x", "s", "e", "a", "st"}, []string{"y"}), inputs: map[string]string{"x": "[B,T]"},
			consts: map[string][]int64{"s": {9223372036854775807}, "e": {-9223372036854775808}, "a": {1}, "st": {-2}}, want: []string{"[B,(T+1)//2]"}},
		{name: "slice starts of rank 2", node: node("Slice", []string{"x", "s", "e"}, []string{"y"}),
			inputs: map[string]string{"x": "[N,4]", "s": "[1,2]", "e": "[1,2]"}, wantErr: errInvalidShape},
		{name: "add broadcast", node: node("Add", []string{"a", "b"}, []string{"y"}), inputs: map[string]string{"a": "[B,T,64]", "b": "[64]"},
			want: []string{"[B,T,64]"}},
		{name: "two outputs of Reshape", node: node("Reshape", []string{"x", "p"}, []string{"y", "z"}), inputs: map[string]string{"x": "[N,3]"},
			consts: map[string][]int64{"p": {-1}}, wantErr: errSyntax},
		{name: "add bad broadcast", node: node("Add", []string{"a", "b"}, []string{"y"}), inputs: map[string]string{"a": "[B,3]", "b": "[4]"},
			wantErr: errInvalidShape},
		{name: "range", node: node("Range", []string{"s", "l", "d"}, []string{"y"}), consts: map[string][]int64{"s:s": {0}, "s:l": {10}, "s:d": {3}},
			want: []string{"[4]"}, values: []string{"[0,3,6,9]"}},
	})
}

var (
	errNotDivisible = errcode.ErrNotDivisible
	errInvalidShape = errcode.ErrInvalidShape
)

func errorsIs(err, target error) bool { return errors.Is(err, target) }
