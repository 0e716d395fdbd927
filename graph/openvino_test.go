package graph_test

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

// ovIn is one input of an OpenVINO layer under test: a graph input of a shape, a constant, or the
// ShapeOf of a graph input (whose values are that input's dims).
type ovIn struct {
	shape   string // a graph input of this shape, in sym's notation
	shapeOf string // the values of ShapeOf of a graph input of this shape...
	less    int64  // ...less this integer (a Subtract) when not 0...
	scalar  bool   // ...squeezed to a scalar, of a shape of one dim
	typ     element.Type
	dims    []int64 // a constant of this shape...
	ints    []int64 // ...and these values
	floats  []float64
}

func ovParam(s string) ovIn   { return ovIn{shape: s, typ: element.F32} }
func ovShapeOf(s string) ovIn { return ovIn{shapeOf: s} }

// ovShapeLess is ovShapeOf's values less k: values that may be negative.
func ovShapeLess(s string, k int64) ovIn { return ovIn{shapeOf: s, less: k} }

// ovScalarLess is ovShapeLess of a shape of one dim, squeezed to a scalar.
func ovScalarLess(s string, k int64) ovIn { return ovIn{shapeOf: s, less: k, scalar: true} }
func ovInts(v ...int64) ovIn              { return ovIn{typ: element.I64, dims: []int64{int64(len(v))}, ints: v} }
func ovScalar(v int64) ovIn               { return ovIn{typ: element.I64, dims: []int64{}, ints: []int64{v}} }
func ovScalarF(v float64) ovIn            { return ovIn{typ: element.F32, dims: []int64{}, floats: []float64{v}} }
func ovFloats(v ...float64) ovIn {
	return ovIn{typ: element.F32, dims: []int64{int64(len(v))}, floats: v}
}
func ovTensor(dims []int64, v ...int64) ovIn {
	return ovIn{typ: element.I64, dims: dims, ints: v}
}

// typed returns the constant in with element type t.
func (in ovIn) typed(t element.Type) ovIn { in.typ = t; return in }

// ovCase infers one OpenVINO layer and checks its outputs: shapes, and values where given.
type ovCase struct {
	name    string
	op      string
	version int64  // 1 when 0
	attrs   string // <data> attributes: "axis=0 special_zero=true"
	ins     []ovIn
	want    []string // output shapes
	values  []string // output values, flattened ("[N,-1]"); "" when not checked, "-" when there must be none
	wantErr error
	runTime string // the Loss.Why of a size only a run decides, "" when there must be none
	// lost is the Loss.Why of the layer's loss of precision, not checked when ""; constraints
	// are those the layer records (Result.Constraints), not checked when nil.
	lost        string
	constraints []string
}

// ovRun builds the graph of the case and infers it; it returns the result of the layer and the
// result of the graph.
func ovRun(t *testing.T, tc ovCase) (graph.NodeResult, *graph.Result) {
	t.Helper()
	g := &graph.Graph{Consts: map[string]*graph.Const{}, Declared: map[string]graph.Decl{}}
	tab := sym.NewTable()
	n := graph.Node{Name: tc.name, Op: tc.op, Domain: graph.DomainOpenVINO, Version: tc.version}
	if n.Version == 0 {
		n.Version = 1
	}
	for _, f := range strings.Fields(tc.attrs) {
		k, v, _ := strings.Cut(f, "=")
		n.Attrs = append(n.Attrs, graph.Attr{Name: k, Kind: graph.AttrText, Text: v})
	}
	for k, in := range tc.ins {
		name := fmt.Sprintf("in%d", k)
		n.Inputs = append(n.Inputs, name)
		switch {
		case in.shape != "" || in.shapeOf != "":
			text, pname := in.shape, name
			if in.shapeOf != "" {
				text, pname = in.shapeOf, fmt.Sprintf("x%d", k)
				vec := name
				if in.scalar {
					vec = name + "_vec"
				}
				src := vec
				if in.less != 0 {
					src = name + "_shape"
				}
				g.Nodes = append(g.Nodes, graph.Node{Name: "ShapeOf_" + name, Op: "ShapeOf", Domain: graph.DomainOpenVINO, Version: 3,
					Inputs: []string{pname}, Outputs: []string{src}})
				if in.less != 0 {
					less, k := name+"_less", in.less
					g.Consts[less] = &graph.Const{Name: less, Type: element.I64, Dims: []int64{},
						Load: func(int64) ([]int64, []float64, error) { return []int64{k}, nil, nil }}
					g.Nodes = append(g.Nodes, graph.Node{Name: "Subtract_" + name, Op: "Subtract", Domain: graph.DomainOpenVINO, Version: 1,
						Inputs: []string{src, less}, Outputs: []string{vec}})
				}
				if in.scalar {
					g.Nodes = append(g.Nodes, graph.Node{Name: "Squeeze_" + name, Op: "Squeeze", Domain: graph.DomainOpenVINO, Version: 1,
						Inputs: []string{vec}, Outputs: []string{name}})
				}
			}
			s, err := sym.ParseShape(text, tab)
			if err != nil {
				t.Fatal(err)
			}
			typ := element.F32
			if in.shape != "" && in.typ != element.Undefined {
				typ = in.typ
			}
			g.Inputs = append(g.Inputs, graph.Input{Name: pname, Decl: declOf(s, typ)})
		default:
			ints, floats := in.ints, in.floats
			g.Consts[name] = &graph.Const{Name: name, Type: in.typ, Dims: in.dims,
				Load: func(int64) ([]int64, []float64, error) { return ints, floats, nil }}
		}
	}
	for k := range max(len(tc.want), 1) {
		n.Outputs = append(n.Outputs, fmt.Sprintf("out%d", k))
	}
	g.Nodes = append(g.Nodes, n)
	res, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatalf("Infer: %v", err)
	}
	return res.Nodes[len(res.Nodes)-1], res
}

func checkOV(t *testing.T, cases []ovCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			r, res := ovRun(t, tc)
			runTime, lost := "", ""
			for _, l := range res.Lost() {
				switch {
				case l.RunTime:
					runTime = l.Why
				case l.Node == r.Path:
					lost = l.Why
				}
			}
			if runTime != tc.runTime {
				t.Errorf("run-time size %q, want %q", runTime, tc.runTime)
			}
			if tc.lost != "" && lost != tc.lost {
				t.Errorf("loss of precision %q, want %q", lost, tc.lost)
			}
			if tc.constraints != nil {
				var got []string
				for _, c := range res.Constraints() {
					got = append(got, c.String())
				}
				for _, c := range res.Limits() {
					got = append(got, "limit "+c.String())
				}
				if strings.Join(got, "\n") != strings.Join(tc.constraints, "\n") {
					t.Errorf("constraints:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.constraints, "\n"))
				}
			}
			if tc.wantErr != nil {
				if !errors.Is(r.Err, tc.wantErr) {
					t.Fatalf("error = %v, want %v", r.Err, tc.wantErr)
				}
				return
			}
			if r.Err != nil {
				t.Fatalf("error: %v", r.Err)
			}
			if r.Unsupported {
				t.Fatalf("no rule for %s", tc.op)
			}
			for i, want := range tc.want {
				out := r.Outputs[i]
				if out.FromDecl {
					t.Errorf("output %d: no shape from the rule", i)
				}
				if got := out.Shape.String(); got != want {
					t.Errorf("output %d = %s, want %s", i, got, want)
				}
				if i >= len(tc.values) || tc.values[i] == "" {
					continue
				}
				got := "-"
				if out.Value != nil {
					got = sym.ShapeOf(out.Value...).String()
				}
				if got != tc.values[i] {
					t.Errorf("output %d values = %s, want %s", i, got, tc.values[i])
				}
			}
		})
	}
}

func TestOVShapeOf(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "v1", op: "ShapeOf", ins: []ovIn{ovParam("[N,3,H,W]")}, want: []string{"[4]"}, values: []string{"[N,3,H,W]"}},
		{name: "v3 i32", op: "ShapeOf", version: 3, attrs: "output_type=i32", ins: []ovIn{ovParam("[1,1126,3]")},
			want: []string{"[3]"}, values: []string{"[1,1126,3]"}},
		{name: "scalar", op: "ShapeOf", version: 3, ins: []ovIn{ovParam("[]")}, want: []string{"[0]"}, values: []string{"[]"}},
		{name: "v3 f32", op: "ShapeOf", version: 3, attrs: "output_type=f32", ins: []ovIn{ovParam("[2]")}, wantErr: errcode.ErrSyntax},
	})
}

// TestOVGather ports the cases of package bounds' Gather, and adds symbols and Gather-8's zeros.
func TestOVGather(t *testing.T) {
	m23 := ovTensor([]int64{2, 3}, 1, 2, 3, 4, 5, 6)
	g := func(name string, data, idx ovIn, axis, batch int64, want, values string) ovCase {
		return ovCase{name: name, op: "Gather", version: 8, attrs: fmt.Sprintf("batch_dims=%d", batch),
			ins: []ovIn{data, idx, ovScalar(axis)}, want: []string{want}, values: []string{values}}
	}
	bad := func(name string, data, idx ovIn, axis, batch int64) ovCase {
		c := g(name, data, idx, axis, batch, "", "")
		c.wantErr = errcode.ErrInvalidShape
		return c
	}
	checkOV(t, []ovCase{
		g("SampLeNet", ovShapeOf("[1,16,16,16]"), ovInts(0), 0, 0, "[1]", "[1]"),
		g("batch symbol", ovShapeOf("[N,3,224,224]"), ovInts(0), 0, 0, "[1]", "[N]"),
		g("scalar index", ovInts(10, 20, 30, 40), ovScalar(2), 0, 0, "[]", "[30]"),
		g("negative", ovInts(10, 20, 30, 40), ovInts(-1, 0), 0, 0, "[2]", "[40,10]"),
		g("negative axis", ovInts(10, 20, 30, 40), ovInts(3, 3, 1), -1, 0, "[3]", "[40,40,20]"),
		g("no indices", ovInts(10, 20, 30, 40), ovInts(), 0, 0, "[0]", "[]"),
		g("axis 1", m23, ovInts(2, 0), 1, 0, "[2,2]", "[3,1,6,4]"),
		g("axis -1", m23, ovInts(2, 0), -1, 0, "[2,2]", "[3,1,6,4]"),
		g("row", m23, ovInts(1), 0, 0, "[1,3]", "[4,5,6]"),
		g("column scalar", m23, ovScalar(1), 1, 0, "[2]", "[2,5]"),
		g("negative row", m23, ovScalar(-2), 0, 0, "[3]", "[1,2,3]"),
		g("2-D indices", ovInts(7, 8), ovTensor([]int64{2, 2}, 0, 1, 1, 0), 0, 0, "[2,2]", "[7,8,8,7]"),
		g("batch 1", m23, ovTensor([]int64{2, 1}, 2, 0), 1, 1, "[2,1]", "[3,4]"),
		g("batch -1", m23, ovTensor([]int64{2, 1}, 2, 0), 1, -1, "[2,1]", "[3,4]"),
		g("batch 1 two", m23, ovTensor([]int64{2, 2}, 2, 1, 0, 0), 1, 1, "[2,2]", "[3,2,4,4]"),
		g("batch 3-D", ovTensor([]int64{2, 2, 2}, 1, 2, 3, 4, 5, 6, 7, 8), ovTensor([]int64{2, 1}, 1, 0), 1, 1, "[2,1,2]", "[3,4,5,6]"),
		g("symbols copied", ovShapeOf("[1,8,H,W]"), ovInts(2, 3), 0, 0, "[2]", "[H,W]"),
		g("out of range gives 0", ovInts(1, 2, 3), ovInts(3, -4, 1), 0, 0, "[3]", "[0,0,2]"),
		g("unknown indices", ovInts(1, 2, 3), ovShapeOf("[N]"), 0, 0, "[1]", "-"),
		g("data dims", ovParam("[N,C,H,W]"), ovInts(3, 2), 1, 0, "[N,2,H,W]", ""),
		g("batch unifies", ovParam("[B,7]"), ovParam("[4,3]"), 1, 1, "[4,3]", ""),
		g("too many values", ovTensor([]int64{256, 256}, make([]int64, 65536)...), ovTensor([]int64{65536}, make([]int64, 65536)...), 0, 0,
			"[65536,256]", "-"),
		{name: "Gather-1 out of range", op: "Gather", ins: []ovIn{ovInts(1, 2, 3), ovInts(3), ovScalar(0)}, wantErr: errcode.ErrInvalidShape},
		{name: "Gather-1 negative", op: "Gather", ins: []ovIn{ovInts(1, 2, 3), ovInts(-1), ovScalar(0)}, want: []string{"[1]"}, values: []string{"[3]"}},
		bad("scalar data", ovScalar(5), ovScalar(0), 0, 0),
		bad("axis out of range", ovInts(1, 2, 3), ovInts(0), 1, 0),
		bad("axis -2", ovInts(1, 2, 3), ovInts(0), -2, 0),
		bad("batch above axis", m23, ovTensor([]int64{2, 1}, 2, 0), 0, 1),
		bad("batch 3", m23, ovTensor([]int64{2, 1}, 2, 0), 1, 3),
		bad("batch -3", m23, ovTensor([]int64{2, 1}, 2, 0), 1, -3),
		bad("batch dims differ", m23, ovTensor([]int64{3, 1}, 0, 1, 2), 1, 1),
	})
}

func TestOVConcatSqueeze(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "concat pattern", op: "Concat", attrs: "axis=0", ins: []ovIn{ovShapeOf("[N,3,H,W]"), ovInts(1)},
			want: []string{"[5]"}, values: []string{"[N,3,H,W,1]"}},
		{name: "concat -1", op: "Concat", attrs: "axis=-1", ins: []ovIn{ovInts(-1), ovInts(1), ovInts(3)},
			want: []string{"[3]"}, values: []string{"[-1,1,3]"}},
		{name: "concat 2-D", op: "Concat", attrs: "axis=1", ins: []ovIn{ovTensor([]int64{2, 1}, 1, 2), ovTensor([]int64{2, 2}, 3, 4, 5, 6)},
			want: []string{"[2,3]"}, values: []string{"[1,3,4,2,5,6]"}},
		{name: "concat mismatch", op: "Concat", attrs: "axis=0", ins: []ovIn{ovTensor([]int64{2, 1}, 1, 2), ovTensor([]int64{2, 2}, 3, 4, 5, 6)},
			wantErr: errcode.ErrInvalidShape},
		{name: "concat dims", op: "Concat", attrs: "axis=1", ins: []ovIn{ovParam("[N,3]"), ovParam("[M,T]")}, want: []string{"[N,T+3]"}},
		{name: "concat after an input of dynamic rank", op: "Concat", attrs: "axis=1", ins: []ovIn{ovParam("[...]"), ovParam("[2,2..5]"), ovParam("[2,4]")},
			want: []string{"[2,6..]"}},
		{name: "unsqueeze scalar", op: "Unsqueeze", ins: []ovIn{ovScalar(5), ovInts(0)}, want: []string{"[1]"}, values: []string{"[5]"}},
		{name: "unsqueeze -1", op: "Unsqueeze", ins: []ovIn{ovScalar(5), ovInts(-1)}, want: []string{"[1]"}, values: []string{"[5]"}},
		{name: "unsqueeze two", op: "Unsqueeze", ins: []ovIn{ovScalar(5), ovInts(0, 1)}, want: []string{"[1,1]"}},
		{name: "unsqueeze scalar axes", op: "Unsqueeze", ins: []ovIn{ovParam("[32]"), ovScalar(0)}, want: []string{"[1,32]"}},
		{name: "unsqueeze dims", op: "Unsqueeze", ins: []ovIn{ovParam("[32]"), ovInts(0, 2, 3)}, want: []string{"[1,32,1,1]"}},
		{name: "unsqueeze mixed", op: "Unsqueeze", ins: []ovIn{ovParam("[B,T]"), ovInts(2, 0)}, want: []string{"[1,B,1,T]"}},
		{name: "unsqueeze repeat", op: "Unsqueeze", ins: []ovIn{ovParam("[B,T]"), ovInts(0, 0)}, want: []string{"[1,B,T]"}},
		{name: "unsqueeze empty", op: "Unsqueeze", ins: []ovIn{ovInts(1, 2), ovInts()}, wantErr: errcode.ErrInvalidShape},
		{name: "unsqueeze same axis twice", op: "Unsqueeze", ins: []ovIn{ovInts(1, 2), ovInts(0, -3)}, wantErr: errcode.ErrInvalidShape},
		{name: "unsqueeze out of range", op: "Unsqueeze", ins: []ovIn{ovInts(1, 2), ovInts(2)}, wantErr: errcode.ErrInvalidShape},
		{name: "squeeze all", op: "Squeeze", ins: []ovIn{ovTensor([]int64{1, 2}, 1, 2)}, want: []string{"[2]"}, values: []string{"[1,2]"}},
		{name: "squeeze axis", op: "Squeeze", ins: []ovIn{ovTensor([]int64{1, 2}, 1, 2), ovInts(-2)}, want: []string{"[2]"}},
		{name: "squeeze to scalar", op: "Squeeze", ins: []ovIn{ovTensor([]int64{1, 1, 1}, 7), ovInts(0, 2)}, want: []string{"[1]"}, values: []string{"[7]"}},
		{name: "squeeze keeps a dim that is not 1", op: "Squeeze", ins: []ovIn{ovParam("[1,21,1]"), ovInts(1, 2)}, want: []string{"[1,21]"}},
		{name: "squeeze symbol", op: "Squeeze", ins: []ovIn{ovParam("[N,21]"), ovInts(0)}, want: []string{"[21]"}},
		{name: "squeeze unknown rank", op: "Squeeze", ins: []ovIn{ovParam("[N,21]")}, want: []string{"[...]"}},
		{name: "squeeze out of range", op: "Squeeze", ins: []ovIn{ovParam("[1,2]"), ovInts(2)}, wantErr: errcode.ErrInvalidShape},
	})
}

func TestOVReshape(t *testing.T) {
	r := func(name, attrs string, data, pattern ovIn, want string) ovCase {
		return ovCase{name: name, op: "Reshape", attrs: attrs, ins: []ovIn{data, pattern}, want: []string{want}}
	}
	checkOV(t, []ovCase{
		r("special zero", "special_zero=True", ovParam("[N,3,224,224]"), ovInts(0, -1), "[N,150528]"),
		r("special zero false", "special_zero=false", ovParam("[2,5,5,0]"), ovInts(0, 4), "[0,4]"),
		r("spec example 2", "special_zero=true", ovParam("[2,5,5,24]"), ovInts(0, -1, 4), "[2,150,4]"),
		r("copy and infer", "special_zero=True", ovParam("[2,2,3]"), ovInts(2, -1, 0), "[2,2,3]"),
		r("i32 pattern", "special_zero=false", ovParam("[1,21,3]"), ovInts(1, 63).typed(element.I32), "[1,63]"),
		r("scalar pattern 1", "special_zero=false", ovParam("[1,1]"), ovScalar(1), "[]"),
		r("computed", "special_zero=false", ovParam("[1,8,H,W]"), ovShapeOf("[1,8,H,W]"), "[1,8,H,W]"),
		{name: "zero and -1", op: "Reshape", attrs: "special_zero=false", ins: []ovIn{ovParam("[3,1,1]"), ovInts(0, -1)}, wantErr: errcode.ErrAmbiguousInferred},
		{name: "scalar pattern 2", op: "Reshape", attrs: "special_zero=false", ins: []ovIn{ovParam("[1,1]"), ovScalar(2)}, wantErr: errcode.ErrScalarPattern},
		{name: "not divisible", op: "Reshape", attrs: "special_zero=false", ins: []ovIn{ovParam("[3,5]"), ovInts(2, -1)}, wantErr: errcode.ErrNotDivisible},
		{name: "no special_zero", op: "Reshape", ins: []ovIn{ovParam("[2]"), ovInts(2)}, wantErr: errcode.ErrSyntax},
		{name: "bad special_zero", op: "Reshape", attrs: "special_zero=yes", ins: []ovIn{ovParam("[2]"), ovInts(2)}, wantErr: errcode.ErrSyntax},
		{name: "float pattern", op: "Reshape", attrs: "special_zero=true", ins: []ovIn{ovParam("[2]"), ovFloats(2)}, wantErr: errcode.ErrPatternType},
	})
}

func TestOVMovement(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "transpose", op: "Transpose", ins: []ovIn{ovParam("[1,192,192,3]"), ovInts(0, 3, 1, 2)}, want: []string{"[1,3,192,192]"}},
		{name: "transpose reversed", op: "Transpose", ins: []ovIn{ovParam("[B,T,C]"), ovInts()}, want: []string{"[C,T,B]"}},
		{name: "transpose values", op: "Transpose", ins: []ovIn{ovTensor([]int64{2, 3}, 1, 2, 3, 4, 5, 6), ovInts(1, 0)},
			want: []string{"[3,2]"}, values: []string{"[1,4,2,5,3,6]"}},
		{name: "transpose bad order", op: "Transpose", ins: []ovIn{ovParam("[1,2]"), ovInts(0, 0)}, wantErr: errcode.ErrInvalidShape},
		{name: "broadcast numpy mismatch", op: "Broadcast", ins: []ovIn{ovParam("[3,1]"), ovInts(2, 4, 4)}, wantErr: errcode.ErrInvalidShape},
		{name: "broadcast numpy", op: "Broadcast", ins: []ovIn{ovParam("[3,1]"), ovInts(2, 3, 4)}, want: []string{"[2,3,4]"}},
		{name: "broadcast numpy rank", op: "Broadcast", ins: []ovIn{ovParam("[2,3,1]"), ovInts(3, 4)}, wantErr: errcode.ErrInvalidShape},
		{name: "broadcast numpy values", op: "Broadcast", ins: []ovIn{ovInts(7), ovInts(2, 3)}, want: []string{"[2,3]"}, values: []string{"[7,7,7,7,7,7]"}},
		{name: "broadcast numpy symbol", op: "Broadcast", ins: []ovIn{ovParam("[1,C]"), ovShapeOf("[N,C]")}, want: []string{"[N,C]"}},
		{name: "broadcast explicit", op: "Broadcast", attrs: "mode=explicit", ins: []ovIn{ovTensor([]int64{2}, 1, 2), ovInts(2, 3), ovInts(0)},
			want: []string{"[2,3]"}, values: []string{"[1,1,1,2,2,2]"}},
		{name: "broadcast bidirectional", op: "Broadcast", version: 3, attrs: "mode=bidirectional", ins: []ovIn{ovParam("[3,1]"), ovInts(2, 1, 4)},
			want: []string{"[2,3,4]"}},
		{name: "tile", op: "Tile", ins: []ovIn{ovParam("[N,3]"), ovInts(2, 1, 2)}, want: []string{"[2,N,6]"}},
		{name: "tile values", op: "Tile", ins: []ovIn{ovInts(1, 2), ovInts(2)}, want: []string{"[4]"}, values: []string{"[1,2,1,2]"}},
		{name: "range", op: "Range", version: 4, attrs: "output_type=i64", ins: []ovIn{ovScalar(0), ovScalar(10), ovScalar(3)},
			want: []string{"[4]"}, values: []string{"[0,3,6,9]"}},
		{name: "range negative", op: "Range", ins: []ovIn{ovScalar(5), ovScalar(-1), ovScalar(-2)}, want: []string{"[3]"}, values: []string{"[5,3,1]"}},
		{name: "range empty", op: "Range", ins: []ovIn{ovScalar(5), ovScalar(1), ovScalar(1)}, want: []string{"[0]"}},
		{name: "range float", op: "Range", version: 4, attrs: "output_type=f32", ins: []ovIn{ovScalarF(0), ovScalarF(1), ovScalarF(0.25)},
			want: []string{"[4]"}},
		{name: "range truncated", op: "Range", version: 4, attrs: "output_type=i32", ins: []ovIn{ovScalarF(0.5), ovScalarF(4.9), ovScalarF(1)},
			want: []string{"[4]"}, values: []string{"[0,1,2,3]"}},
		{name: "range step 0", op: "Range", ins: []ovIn{ovScalar(0), ovScalar(1), ovScalar(0)}, wantErr: errcode.ErrInvalidShape},
		{name: "range no output_type", op: "Range", version: 4, ins: []ovIn{ovScalar(0), ovScalar(1), ovScalar(1)}, wantErr: errcode.ErrSyntax},
	})
}

// TestOVStridedSlice ports the cases of package bounds' StridedSlice, and adds symbolic dims.
func TestOVStridedSlice(t *testing.T) {
	s3 := ovShapeOf("[1,1126,3]")
	m23 := ovTensor([]int64{2, 3}, 1, 2, 3, 4, 5, 6)
	iota := func(dims ...int64) ovIn {
		v := make([]int64, shapeCount(dims))
		for i := range v {
			v[i] = int64(i)
		}
		return ovTensor(dims, v...)
	}
	ss := func(in ovIn, begin, end, stride []int64, masks, want, values string) ovCase {
		ins := []ovIn{in, ovInts(begin...), ovInts(end...)}
		if stride != nil {
			ins = append(ins, ovInts(stride...))
		}
		return ovCase{name: fmt.Sprintf("%v:%v:%v %s", begin, end, stride, masks), op: "StridedSlice", attrs: masks, ins: ins,
			want: []string{want}, values: []string{values}}
	}
	bad := func(in ovIn, begin, end, stride []int64, masks string) ovCase {
		c := ss(in, begin, end, stride, masks, "", "")
		c.wantErr = errcode.ErrInvalidShape
		return c
	}
	i := func(v ...int64) []int64 { return v }
	kInts := ovIn{shape: "[K]", typ: element.I64}
	const none = "begin_mask=0 end_mask=0 new_axis_mask=0 shrink_axis_mask=0 ellipsis_mask=0"
	checkOV(t, []ovCase{
		ss(s3, i(0), i(1), i(1), none, "[1]", "[1]"),
		ss(s3, i(0), i(1), nil, "", "[1]", "[1]"),
		ss(s3, i(1), i(0), i(1), "end_mask=1", "[2]", "[1126,3]"),
		ss(s3, i(7), i(-7), i(1), "begin_mask=1 end_mask=1", "[3]", "[1,1126,3]"),
		ss(s3, i(-2), i(0), i(1), "end_mask=1", "[2]", "[1126,3]"),
		ss(s3, i(0), i(-1), i(1), "", "[2]", "[1,1126]"),
		ss(s3, i(-1), i(0), i(1), "shrink_axis_mask=1", "[]", "[3]"),
		ss(s3, i(1), i(2), i(1), "shrink_axis_mask=1", "[]", "[1126]"),
		ss(s3, i(0), i(0), i(-1), "begin_mask=1 end_mask=1", "[3]", "[3,1126,1]"),
		ss(s3, i(-1), i(0), i(-1), "", "[2]", "[3,1126]"),
		ss(s3, i(100), i(-100), i(-2), "", "[2]", "[3,1]"),
		ss(s3, i(0), i(3), i(2), "", "[2]", "[1,3]"),
		ss(s3, i(0), i(2), i(1), "new_axis_mask=1", "[1,3]", "[1,1126,3]"),
		ss(s3, i(0, 0), i(2, 0), i(1, 1), "new_axis_mask=0,1", "[2,1]", "[1,1126]"),
		ss(s3, i(1), i(2), i(1), "begin_mask=2,0,0 end_mask=0,1,1", "[1]", "[1126]"),
		ss(s3, i(0, 0), i(0, 1), i(1, 1), "ellipsis_mask=1,0", "[1]", "[1]"),
		ss(m23, i(0, 1), i(0, 2), i(1, 1), "ellipsis_mask=1,0", "[2,1]", "[2,5]"),
		ss(m23, i(0, -1), i(0, 0), i(1, 1), "ellipsis_mask=1,0 shrink_axis_mask=0,1", "[2]", "[3,6]"),
		ss(m23, i(1, 0), i(2, 0), i(1, 1), "ellipsis_mask=0,1", "[1,3]", "[4,5,6]"),
		ss(m23, i(0, 0), i(0, 0), i(1, 1), "ellipsis_mask=1,0 new_axis_mask=0,1", "[2,3,1]", "[1,2,3,4,5,6]"),
		ss(m23, i(1), i(2), i(1), "", "[1,3]", "[4,5,6]"),
		ss(m23, i(0, 2), i(0, 0), i(1, -1), "begin_mask=1,0 end_mask=1,0", "[2,2]", "[3,2,6,5]"),
		ss(m23, i(0, 1), i(0, 0), i(1, 1), "shrink_axis_mask=0,1 begin_mask=1,0 end_mask=1,1", "[2]", "[2,5]"),
		// The specification's example of begin_mask and end_mask, array[1:, :, ::-1] on [2,3,4].
		ss(iota(2, 3, 4), i(1, 1, 123), i(0, 0, 2), i(1, 1, -1), "begin_mask=0,1,1 end_mask=1,1,1", "[1,3,4]",
			"[15,14,13,12,19,18,17,16,23,22,21,20]"),
		// The clamping example, array[2:3, 2:1:-1] on [2,2]: empty.
		ss(iota(2, 2), i(1234, 2), i(1234, 4321), i(1, -1), "", "[0,0]", "[]"),
		// Negative indices, array[0:2, 0:2, 0:-1] on [2,3,4].
		ss(iota(2, 3, 4), i(0, 0, 0), i(2, 2, -1), i(1, 1, 1), "", "[2,2,3]", "[0,1,2,4,5,6,12,13,14,16,17,18]"),
		// new_axis_mask, array[np.newaxis, 0:2, np.newaxis, 0:4] on [2,4].
		ss(iota(2, 4), i(0, 0, 0, 0), i(0, 2, 0, 4), i(1, 1, 1, 1), "new_axis_mask=1,0,1,0", "[1,2,1,4]", "[0,1,2,3,4,5,6,7]"),
		ss(ovInts(), i(0), i(1), i(-1), "begin_mask=1 end_mask=1", "[0]", "[]"),
		ss(ovScalar(7), i(0), i(0), nil, "new_axis_mask=1", "[1]", "[7]"),
		// Symbols.
		ss(ovShapeOf("[1,8,H,W]"), i(2), i(4), nil, "", "[2]", "[H,W]"),
		ss(ovParam("[N,T,64]"), i(0, 1), i(0, 0), nil, "begin_mask=1,0 end_mask=1,1", "[N,T-1,64]", ""),
		ss(ovParam("[N,T,64]"), i(0, -1), i(0, 0), nil, "begin_mask=1,0 end_mask=1,0 shrink_axis_mask=0,1", "[N,64]", ""),
		ss(ovParam("[N,T,64]"), i(0, 0, 0), i(0, 0, 0), i(1, 1, 2), "begin_mask=1,1,1 end_mask=1,1,1", "[N,T,32]", ""),
		// The specification's first example, array[0:4, 1:4, 0:4:2, 1:4:2, 3:0:-1, 3:0:-2] on
		// [4,4,4,4,4,4]: 3 elements at 3:0:-1, as OpenVINO's reference and numpy give.
		ss(ovParam("[4,4,4,4,4,4]"), i(0, 1, 0, 1, 3, 3), i(4, 4, 4, 4, 0, 0), i(1, 1, 2, 2, -1, -2), "", "[4,3,2,2,3,2]", ""),
		// A number of steps in the symbols: begin's length K at most the rank, or with masks that
		// change the rank, a loss.
		{name: "steps in the symbols", op: "StridedSlice", ins: []ovIn{ovParam("[N,T,64]"), kInts, kInts}, want: []string{"[?,?,..64]"},
			runTime:     "the values of input 2 (in2) are not known",
			constraints: []string{"K <= 3 (steps in the symbols (StridedSlice): begin's length, the number of slicing steps, at most the input's rank 3)"}},
		{name: "steps in the symbols past the rank", op: "StridedSlice", ins: []ovIn{ovParam("[N,T,64]"), {shape: "[4]", typ: element.I64}, kInts},
			wantErr: errcode.ErrInvalidShape},
		{name: "steps in the symbols new axis", op: "StridedSlice", attrs: "new_axis_mask=1", ins: []ovIn{ovParam("[N,T,64]"), kInts, kInts},
			want: []string{"[...]"}, lost: "the output's rank: begin's length, the number of slicing steps, is not known"},
		// Errors.
		bad(s3, i(0), i(1), i(0), ""),
		bad(s3, i(0), i(1, 2), nil, ""),
		bad(s3, i(0), i(1), i(1, 1), ""),
		bad(s3, i(0, 0, 0, 0), i(1, 1, 1, 1), nil, ""),
		bad(s3, i(3), i(0), nil, "shrink_axis_mask=1"),
		bad(s3, i(-4), i(0), nil, "shrink_axis_mask=1"),
		bad(m23, i(0, 0), i(0, 0), nil, "ellipsis_mask=1,1"),
		bad(ovInts(), i(0), i(0), nil, "shrink_axis_mask=1"),
	})
}

func shapeCount(dims []int64) int64 {
	n := int64(1)
	for _, d := range dims {
		n *= d
	}
	return n
}

// TestOVSlice ports the cases of package bounds' Slice (ONNX Slice-13 semantics, which Slice-8
// shares); Slice-8 takes start, stop, step, axes.
func TestOVSlice(t *testing.T) {
	const maxI, minI = 1<<63 - 1, -1 << 63
	data2 := ovTensor([]int64{2, 4}, 1, 2, 3, 4, 5, 6, 7, 8)
	v1234 := ovInts(1, 2, 3, 4)
	sl := func(in ovIn, start, stop, step, axes []int64, want, values string) ovCase {
		ins := []ovIn{in, ovInts(start...), ovInts(stop...), ovInts(step...)}
		if axes != nil {
			ins = append(ins, ovInts(axes...))
		}
		return ovCase{name: fmt.Sprintf("%v:%v:%v axes %v", start, stop, step, axes), op: "Slice", version: 8, ins: ins,
			want: []string{want}, values: []string{values}}
	}
	i := func(v ...int64) []int64 { return v }
	bad := sl(v1234, i(0), i(1), i(0), nil, "", "")
	bad.wantErr = errcode.ErrInvalidShape
	bad2 := sl(v1234, i(0), i(1), i(1), i(1), "", "")
	bad2.wantErr = errcode.ErrInvalidShape
	bad3 := sl(data2, i(0, 0), i(1, 1), i(1, 1), i(0, -2), "", "")
	bad3.wantErr = errcode.ErrInvalidShape
	checkOV(t, []ovCase{
		sl(data2, i(1, 0), i(2, 3), i(1, 2), i(0, 1), "[1,2]", "[5,7]"),
		sl(data2, i(0, 1), i(-1, 1000), i(1, 1), nil, "[1,3]", "[2,3,4]"),
		sl(data2, i(1), i(3), i(1), i(-1), "[2,2]", "[2,3,6,7]"),
		sl(data2, i(1, -1), i(minI, maxI), i(-1, 1), i(0, 1), "[2,1]", "[8,4]"),
		sl(ovShapeOf("[1,16,16,16]"), i(1), i(maxI), i(1), nil, "[3]", "[16,16,16]"),
		sl(v1234, i(-1), i(minI), i(-1), nil, "[4]", "[4,3,2,1]"),
		sl(v1234, i(10), i(-10), i(-1), nil, "[4]", "[4,3,2,1]"),
		sl(v1234, i(3), i(0), i(-2), nil, "[2]", "[4,2]"),
		sl(v1234, i(-2), i(-1), i(1), i(0), "[1]", "[3]"),
		sl(v1234, i(1), i(1), i(1), nil, "[0]", "[]"),
		sl(v1234, i(3), i(1), i(1), nil, "[0]", "[]"),
		sl(v1234, i(1), i(3), i(-1), nil, "[0]", "[]"),
		sl(v1234, i(-100), i(2), i(1), nil, "[2]", "[1,2]"),
		sl(v1234, i(0), i(4), i(3), nil, "[2]", "[1,4]"),
		sl(v1234, i(3), i(minI), i(minI), nil, "[1]", "[4]"),
		sl(v1234, i(0), i(maxI), i(maxI), nil, "[1]", "[1]"),
		sl(v1234, i(maxI), i(minI), i(-3), nil, "[2]", "[4,1]"),
		sl(data2, i(0), i(0), i(1), i(1), "[2,0]", "[]"),
		sl(ovShapeOf("[1,8,H,W]"), i(2), i(4), i(1), nil, "[2]", "[H,W]"),
		sl(ovParam("[B,T,64]"), i(1), i(maxI), i(1), i(1), "[B,T-1,64]", ""),
		bad, bad2, bad3,
	})
}

// TestOVArithmetic ports the static cases of package bounds' Binary: OpenVINO's Divide rounds
// toward -inf by default (m_pythondiv) and toward zero without.
func TestOVArithmetic(t *testing.T) {
	b := func(op, attrs string, a, c ovIn, want, values string) ovCase {
		return ovCase{name: op + " " + attrs + " " + values, op: op, attrs: attrs, ins: []ovIn{a, c}, want: []string{want}, values: []string{values}}
	}
	bad := func(op, attrs string, a, c ovIn) ovCase {
		x := b(op, attrs, a, c, "", "")
		x.wantErr = errcode.ErrInvalidShape
		return x
	}
	num, den := ovInts(7, -7, 7, -7, 6, 0), ovInts(2, 2, -2, -2, 3, -5)
	checkOV(t, []ovCase{
		b("Add", "", ovInts(1, 2, 3), ovInts(10, 20, 30), "[3]", "[11,22,33]"),
		b("Add", "auto_broadcast=numpy", ovInts(1, 2, 3), ovScalar(-1), "[3]", "[0,1,2]"),
		b("Subtract", "", ovInts(1, 2, 3), ovInts(3, 2, 1), "[3]", "[-2,0,2]"),
		b("Multiply", "", ovInts(1, -2, 3), ovInts(-4, 5, 0), "[3]", "[-4,-10,0]"),
		b("Divide", "", num, den, "[6]", "[3,-4,-4,3,2,0]"),
		b("Divide", "m_pythondiv=true", num, den, "[6]", "[3,-4,-4,3,2,0]"),
		b("Divide", "m_pythondiv=false", num, den, "[6]", "[3,-3,-3,3,2,0]"),
		b("Divide", "m_pythondiv=False", ovInts(-1), ovInts(3), "[1]", "[0]"),
		b("FloorMod", "", num, den, "[6]", "[1,1,-1,-1,0,0]"),
		b("Mod", "", num, den, "[6]", "[1,-1,1,-1,0,0]"),
		b("Maximum", "", ovInts(1, 5), ovInts(3, 2), "[2]", "[3,5]"),
		b("Minimum", "", ovInts(1, 5), ovInts(3, 2), "[2]", "[1,2]"),
		b("Add", "", ovTensor([]int64{2, 1}, 1, 2), ovInts(10, 20, 30), "[2,3]", "[11,21,31,12,22,32]"),
		b("Multiply", "", ovScalar(2), ovScalar(3), "[]", "[6]"),
		b("Add", "", ovInts(), ovInts(5), "[0]", "[]"),
		b("Multiply", "", ovShapeOf("[N,3,H,W]"), ovInts(1, 1, 2, 2), "[4]", "[N,3,2*H,2*W]"),
		b("Divide", "", ovShapeOf("[N,3,H,W]"), ovInts(1, 1, 2, 2), "[4]", "[N,3,H//2,W//2]"),
		b("Equal", "", ovShapeOf("[N,3]"), ovInts(0, 3), "[2]", "[0,1]"),
		b("NotEqual", "", ovShapeOf("[N,3]"), ovInts(1, 3), "[2]", "[..1,0]"),
		b("Less", "", ovInts(1, 5), ovInts(3, 5), "[2]", "[1,0]"),
		b("LessEqual", "", ovInts(1, 5), ovInts(3, 5), "[2]", "[1,1]"),
		b("Greater", "", ovShapeOf("[N]"), ovInts(0), "[1]", "[1]"),
		b("GreaterEqual", "", ovInts(1, 5), ovInts(3, 5), "[2]", "[0,1]"),
		b("LogicalAnd", "", ovInts(1, 0).typed(element.Boolean), ovInts(1, 1).typed(element.Boolean), "[2]", "[1,0]"),
		b("LogicalOr", "", ovInts(1, 0).typed(element.Boolean), ovInts(0, 0).typed(element.Boolean), "[2]", "[1,0]"),
		b("LogicalXor", "", ovInts(1, 0).typed(element.Boolean), ovInts(1, 1).typed(element.Boolean), "[2]", "[0,1]"),
		b("Add", "", ovParam("[B,T,64]"), ovParam("[64]"), "[B,T,64]", ""),
		b("Add", "auto_broadcast=none", ovParam("[B,64]"), ovParam("[N,64]"), "[B,64]", ""),
		b("Power", "", ovInts(2), ovInts(3), "[1]", "-"),
		b("Add", "auto_broadcast=pdpd", ovParam("[B,T,64]"), ovParam("[T,1]"), "[B,T,64]", ""),
		b("Multiply", "auto_broadcast=pdpd", ovParam("[2,1,5]"), ovParam("[1]"), "[2,1,5]", ""),
		bad("Add", "auto_broadcast=pdpd", ovInts(1, 2), ovTensor([]int64{1, 2}, 1, 2)),
		bad("Add", "auto_broadcast=pdpd", ovTensor([]int64{2, 1}, 1, 2), ovTensor([]int64{1, 2}, 1, 2)),
		bad("Add", "", ovInts(1, 2, 3), ovInts(1, 2)),
		bad("Add", "auto_broadcast=none", ovInts(1, 2, 3), ovInts(1)),
		bad("Divide", "", ovInts(1), ovInts(0)),
		bad("FloorMod", "", ovInts(1), ovInts(0)),
		{name: "bad auto_broadcast", op: "Add", attrs: "auto_broadcast=left", ins: []ovIn{ovInts(1), ovInts(1)}, wantErr: errcode.ErrSyntax},
	})
}

// TestOVReduce ports the static cases of package bounds' ReduceProd.
func TestOVReduce(t *testing.T) {
	rp := func(in ovIn, axes ovIn, keep bool, want, values string) ovCase {
		return ovCase{name: fmt.Sprintf("%v keep %v %s", axes.ints, keep, values), op: "ReduceProd", attrs: fmt.Sprintf("keep_dims=%v", keep),
			ins: []ovIn{in, axes}, want: []string{want}, values: []string{values}}
	}
	s := ovShapeOf("[1,16,16,16]")
	m23 := ovTensor([]int64{2, 3}, 1, 2, 3, 4, 5, 6)
	checkOV(t, []ovCase{
		rp(s, ovInts(0), false, "[]", "[4096]"),
		rp(s, ovInts(0), true, "[1]", "[4096]"),
		rp(s, ovScalar(-1), true, "[1]", "[4096]"),
		rp(s, ovInts(), false, "[4]", "[1,16,16,16]"),
		rp(m23, ovInts(0), false, "[3]", "[4,10,18]"),
		rp(m23, ovInts(1), false, "[2]", "[6,120]"),
		rp(m23, ovInts(1), true, "[2,1]", "[6,120]"),
		rp(m23, ovInts(-2), true, "[1,3]", "[4,10,18]"),
		rp(m23, ovInts(0, 1, 1), false, "[]", "[720]"),
		rp(ovInts(), ovInts(0), false, "[]", "[1]"),
		rp(ovTensor([]int64{2, 0}), ovInts(1), false, "[2]", "[1,1]"),
		rp(ovTensor([]int64{2, 0}), ovInts(0), false, "[0]", "[]"),
		rp(ovInts(-1, 2, -3), ovInts(0), false, "[]", "[6]"),
		rp(ovShapeOf("[N,3,224,224]"), ovInts(0), false, "[]", "[150528*N]"),
		rp(ovShapeOf("[1,8,H,W]"), ovInts(0), true, "[1]", "[8*H*W]"),
		rp(ovParam("[N,C,H,W]"), ovInts(2, 3), true, "[N,C,1,1]", ""),
		{name: "sum", op: "ReduceSum", ins: []ovIn{m23, ovInts(1)}, want: []string{"[2]"}, values: []string{"[6,15]"}},
		{name: "max", op: "ReduceMax", ins: []ovIn{m23, ovInts(0)}, want: []string{"[3]"}, values: []string{"[4,5,6]"}},
		{name: "min", op: "ReduceMin", attrs: "keep_dims=False", ins: []ovIn{ovParam("[1,21]"), ovInts(1)}, want: []string{"[1]"}},
		{name: "min of nothing", op: "ReduceMin", ins: []ovIn{ovTensor([]int64{2, 0}), ovInts(1)}, want: []string{"[2]"}, values: []string{"-"}},
		{name: "mean", op: "ReduceMean", attrs: "keep_dims=true", ins: []ovIn{ovParam("[1,6,3]"), ovInts(1)}, want: []string{"[1,1,3]"}},
		{name: "axis out of range", op: "ReduceProd", ins: []ovIn{ovInts(1, 2), ovInts(1)}, wantErr: errcode.ErrInvalidShape},
		{name: "scalar", op: "ReduceProd", ins: []ovIn{ovScalar(7), ovInts(0)}, wantErr: errcode.ErrInvalidShape},
	})
}

// TestOVConvert ports the integer cases of package bounds' Convert: values that the type holds
// pass, static ones wrap, others become the type's range.
func TestOVConvert(t *testing.T) {
	cv := func(in ovIn, to, values string) ovCase {
		return ovCase{name: fmt.Sprintf("%v to %s", in.ints, to), op: "Convert", attrs: "destination_type=" + to, ins: []ovIn{in},
			want: []string{fmt.Sprintf("[%d]", len(in.ints))}, values: []string{values}}
	}
	const maxI, minI = 1<<63 - 1, -1 << 63
	checkOV(t, []ovCase{
		cv(ovInts(-1), "i64", "[-1]"),
		cv(ovInts(-1, 1<<31, 1<<32+5, maxI, minI), "i32", "[-1,-2147483648,5,-1,0]"),
		cv(ovInts(300, -1, 255), "u8", "[44,255,255]"),
		cv(ovInts(200, -129), "i8", "[-56,127]"),
		cv(ovInts(65536+7), "u16", "[7]"),
		cv(ovInts(-32769), "i16", "[32767]"),
		cv(ovInts(1<<32, -1), "u32", "[0,4294967295]"),
		cv(ovInts(9, -8), "i4", "[-7,-8]"),
		cv(ovInts(17), "u4", "[1]"),
		cv(ovInts(3, 2), "u1", "[1,0]"),
		cv(ovInts(5), "u64", "[5]"),
		cv(ovInts(-1), "u64", "-"),
		cv(ovInts(0, -5), "boolean", "[0,1]"),
		cv(ovInts(1, 2), "f32", "-"),
		{name: "symbols pass", op: "Convert", attrs: "destination_type=i32", ins: []ovIn{ovShapeOf("[N,3]")}, want: []string{"[2]"}, values: []string{"[N,3]"}},
		{name: "symbols to i8", op: "Convert", attrs: "destination_type=i8", ins: []ovIn{ovShapeOf("[N,3]")}, want: []string{"[2]"}, values: []string{"[N,3]"}},
		{name: "too large for i8", op: "Convert", attrs: "destination_type=i8", ins: []ovIn{ovShapeOf("[300..400,3]")}, want: []string{"[2]"},
			values: []string{"[-128..127,3]"}},
		{name: "symbols to boolean", op: "Convert", attrs: "destination_type=boolean", ins: []ovIn{ovShapeOf("[N,3]")}, want: []string{"[2]"}, values: []string{"[1,1]"}},
		{name: "floats", op: "Convert", attrs: "destination_type=i64", ins: []ovIn{ovFloats(2, -3)}, want: []string{"[2]"}, values: []string{"[2,-3]"}},
		{name: "fraction", op: "Convert", attrs: "destination_type=i64", ins: []ovIn{ovFloats(2.5)}, want: []string{"[1]"}, values: []string{"-"}},
		{name: "like", op: "ConvertLike", ins: []ovIn{ovInts(300), ovInts(0).typed(element.U8)}, want: []string{"[1]"}, values: []string{"[44]"}},
		{name: "no type", op: "Convert", ins: []ovIn{ovInts(1)}, wantErr: errcode.ErrSyntax},
		{name: "bad type", op: "Convert", attrs: "destination_type=int", ins: []ovIn{ovInts(1)}, wantErr: errcode.ErrSyntax},
	})
}

func TestOVSplit(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "split", op: "Split", attrs: "num_splits=3", ins: []ovIn{ovParam("[1,21,3]"), ovScalar(2)},
			want: []string{"[1,21,1]", "[1,21,1]", "[1,21,1]"}},
		{name: "split symbol", op: "Split", attrs: "num_splits=2", ins: []ovIn{ovParam("[N,C]"), ovScalar(1)}, want: []string{"[N,C/2]", "[N,C/2]"}},
		{name: "split values", op: "Split", attrs: "num_splits=2", ins: []ovIn{ovShapeOf("[N,3,H,W]"), ovScalar(0)},
			want: []string{"[2]", "[2]"}, values: []string{"[N,3]", "[H,W]"}},
		{name: "split not divisible", op: "Split", attrs: "num_splits=2", ins: []ovIn{ovParam("[3]"), ovScalar(0)}, want: []string{"", ""},
			wantErr: errcode.ErrInvalidShape},
		{name: "split count", op: "Split", attrs: "num_splits=3", ins: []ovIn{ovParam("[3]"), ovScalar(0)}, want: []string{"", ""},
			wantErr: errcode.ErrSyntax},
		{name: "variadic", op: "VariadicSplit", ins: []ovIn{ovShapeOf("[N,3,H,W]"), ovScalar(0), ovInts(1, -1, 1)},
			want: []string{"[1]", "[2]", "[1]"}, values: []string{"[N]", "[3,H]", "[W]"}},
		{name: "variadic symbol", op: "VariadicSplit", ins: []ovIn{ovParam("[N,T]"), ovScalar(1), ovInts(2, -1)},
			want: []string{"[N,2]", "[N,T-2]"}},
		{name: "variadic sum", op: "VariadicSplit", ins: []ovIn{ovParam("[4]"), ovScalar(0), ovInts(1, 2)}, want: []string{"", ""},
			wantErr: errcode.ErrInvalidShape},
		{name: "variadic two -1", op: "VariadicSplit", ins: []ovIn{ovParam("[4]"), ovScalar(0), ovInts(-1, -1)}, want: []string{"", ""},
			wantErr: errcode.ErrInvalidShape},
	})
}

func TestOVNetworkLayers(t *testing.T) {
	conv := "strides=2,2 dilations=1,1 pads_begin=1,1 pads_end=1,1"
	checkOV(t, []ovCase{
		{name: "conv", op: "Convolution", attrs: conv, ins: []ovIn{ovParam("[N,3,H,W]"), ovParam("[16,3,3,3]")}, want: []string{"[N,16,(H+1)//2,(W+1)//2]"}},
		{name: "conv same_upper", op: "Convolution", attrs: "strides=2,2 dilations=1,1 pads_begin=0,0 pads_end=0,0 auto_pad=same_upper",
			ins: []ovIn{ovParam("[1,3,192,192]"), ovParam("[32,3,5,5]")}, want: []string{"[1,32,96,96]"}},
		{name: "conv valid", op: "Convolution", attrs: "strides=1,1 dilations=2,2 auto_pad=valid",
			ins: []ovIn{ovParam("[1,3,10,10]"), ovParam("[8,3,3,3]")}, want: []string{"[1,8,6,6]"}},
		{name: "conv channels", op: "Convolution", attrs: conv, ins: []ovIn{ovParam("[1,C,8,8]"), ovParam("[16,3,3,3]")}, want: []string{"[1,16,4,4]"}},
		{name: "conv bad channels", op: "Convolution", attrs: conv, ins: []ovIn{ovParam("[1,4,8,8]"), ovParam("[16,3,3,3]")}, wantErr: errcode.ErrInvalidShape},
		{name: "conv too small", op: "Convolution", attrs: "strides=1,1", ins: []ovIn{ovParam("[1,3,2,8]"), ovParam("[16,3,3,3]")}, wantErr: errcode.ErrInvalidShape},
		{name: "conv no strides", op: "Convolution", ins: []ovIn{ovParam("[1,3,8,8]"), ovParam("[16,3,3,3]")}, wantErr: errcode.ErrSyntax},
		{name: "conv bad strides", op: "Convolution", attrs: "strides=1", ins: []ovIn{ovParam("[1,3,8,8]"), ovParam("[16,3,3,3]")}, wantErr: errcode.ErrInvalidShape},
		{name: "group conv", op: "GroupConvolution", attrs: "strides=1,1 pads_begin=0,0 pads_end=0,0 dilations=1,1 auto_pad=same_upper",
			ins: []ovIn{ovParam("[1,32,96,96]"), ovParam("[32,1,1,5,5]")}, want: []string{"[1,32,96,96]"}},
		{name: "maxpool ceil", op: "MaxPool", attrs: "kernel=2,2 pads_begin=0,0 pads_end=0,0 rounding_type=ceil strides=2,2",
			ins: []ovIn{ovParam("[1,6,27,27]")}, want: []string{"[1,6,14,14]"}},
		{name: "maxpool floor", op: "MaxPool", attrs: "kernel=2,2 rounding_type=floor strides=2,2", ins: []ovIn{ovParam("[1,6,H,W]")},
			want: []string{"[1,6,H//2,W//2]"}},
		{name: "maxpool 8", op: "MaxPool", version: 8, attrs: "kernel=2,2 strides=2,2 dilations=1,1 auto_pad=same_upper index_element_type=i32",
			ins: []ovIn{ovParam("[1,32,95,96]")}, want: []string{"[1,32,48,48]", "[1,32,48,48]"}},
		{name: "avgpool", op: "AvgPool", attrs: "kernel=3,3 strides=1,1 pads_begin=1,1 pads_end=1,1 exclude-pad=true",
			ins: []ovIn{ovParam("[N,8,H,W]")}, want: []string{"[N,8,H,W]"}},
		{name: "maxpool kernel 0", op: "MaxPool", attrs: "kernel=0,2 strides=2,2", ins: []ovIn{ovParam("[1,6,8,8]")}, wantErr: errcode.ErrInvalidShape},
		{name: "maxpool no kernel", op: "MaxPool", attrs: "strides=2,2", ins: []ovIn{ovParam("[1,6,8,8]")}, wantErr: errcode.ErrSyntax},
		{name: "maxpool ceil_torch", op: "MaxPool", version: 14, attrs: "kernel=2,2 strides=2,2 pads_begin=1,1 pads_end=1,1 rounding_type=ceil_torch",
			ins: []ovIn{ovParam("[1,6,3,H]")}, want: []string{"[1,6,2,H//2+1]", "[1,6,2,H//2+1]"}},
		{name: "maxpool 14 ceil", op: "MaxPool", version: 14, attrs: "kernel=2,2 strides=2,2 pads_begin=1,1 pads_end=1,1 rounding_type=ceil",
			ins: []ovIn{ovParam("[1,6,3,H]")}, want: []string{"[1,6,3,(H+1)//2+1]", "[1,6,3,(H+1)//2+1]"}},
		{name: "maxpool 8 ceil_torch", op: "MaxPool", version: 8, attrs: "kernel=2,2 strides=2,2 rounding_type=ceil_torch",
			ins: []ovIn{ovParam("[1,6,8,8]")}, wantErr: errcode.ErrSyntax},
		{name: "avgpool 16 dilations", op: "AvgPool", version: 16, attrs: "kernel=2,2 strides=1,1 dilations=2,2 pads_begin=1,1 pads_end=1,1 rounding_type=ceil_torch",
			ins: []ovIn{ovParam("[1,3,9,W]")}, want: []string{"[1,3,9,W]"}},
		{name: "avgpool 14 no dilations", op: "AvgPool", version: 14, attrs: "kernel=2,2 strides=1,1 dilations=2,2",
			ins: []ovIn{ovParam("[1,3,9,W]")}, want: []string{"[1,3,8,W-1]"}},
		{name: "avgpool kernel in padding", op: "AvgPool", attrs: "kernel=3 strides=1 pads_begin=3 pads_end=0 exclude-pad=true",
			ins: []ovIn{ovParam("[1,3,W]")}, wantErr: errcode.ErrInvalidShape},
		{name: "avgpool rank 2", op: "AvgPool", attrs: "kernel=3 strides=1", ins: []ovIn{ovParam("[1,3]")}, wantErr: errcode.ErrInvalidShape},
		{name: "matmul", op: "MatMul", attrs: "transpose_a=false transpose_b=true", ins: []ovIn{ovParam("[1,63]"), ovParam("[128,63]")},
			want: []string{"[1,128]"}},
		{name: "matmul batch", op: "MatMul", ins: []ovIn{ovParam("[B,1,T,64]"), ovParam("[H,64,T2]")}, want: []string{"[B,H,T,T2]"}},
		{name: "matmul vectors", op: "MatMul", ins: []ovIn{ovParam("[K]"), ovParam("[K,N]")}, want: []string{"[N]"}},
		{name: "matmul inner", op: "MatMul", ins: []ovIn{ovParam("[2,3]"), ovParam("[4,5]")}, wantErr: errcode.ErrInvalidShape},
		{name: "pad", op: "Pad", attrs: "pad_mode=constant", ins: []ovIn{ovParam("[1,32,48,48]"), ovInts(0, 0, 0, 0), ovInts(0, 32, 0, 0), ovScalarF(0)},
			want: []string{"[1,64,48,48]"}},
		{name: "pad symbols", op: "Pad", ins: []ovIn{ovParam("[N,C]"), ovInts(0, 1), ovInts(0, 2)}, want: []string{"[N,C+3]"}},
		{name: "pad negative", op: "Pad", version: 12, ins: []ovIn{ovParam("[1,2]"), ovInts(0, -2), ovInts(0, -1)}, wantErr: errcode.ErrInvalidShape},
		{name: "interpolate sizes", op: "Interpolate", version: 11, attrs: "mode=linear_onnx shape_calculation_mode=sizes pads_begin=0,0,0,0 pads_end=0,0,0,0",
			ins: []ovIn{ovParam("[1,6,6,256]"), ovInts(12, 12).typed(element.I32), ovInts(1, 2)}, want: []string{"[1,12,12,256]"}},
		{name: "interpolate scales", op: "Interpolate", version: 11, attrs: "mode=nearest shape_calculation_mode=scales",
			ins: []ovIn{ovParam("[1,3,5,7]"), ovFloats(1, 1, 2, 0.5)}, want: []string{"[1,3,10,3]"}},
		{name: "interpolate 4", op: "Interpolate", version: 4, attrs: "mode=nearest shape_calculation_mode=sizes",
			ins: []ovIn{ovParam("[N,3,H,W]"), ovInts(64, 64), ovFloats(2, 2), ovInts(2, 3)}, want: []string{"[N,3,64,64]"}},
		{name: "prior box clustered", op: "PriorBoxClustered", attrs: "width=8.0,21.4,12.5,29.6 height=12.8,33.7,21.7,53.9 clip=0 step=16.0",
			ins: []ovIn{ovInts(16, 16), ovInts(256, 256)}, want: []string{"[2,4096]"}},
		{name: "detection output", op: "DetectionOutput", attrs: "keep_top_k=200 top_k=400 num_classes=3 normalized=true",
			ins: []ovIn{ovParam("[N,4504]"), ovParam("[N,3378]"), ovParam("[1,2,4504]")}, want: []string{"[1,1,200*N,7]"}},
		{name: "clamp", op: "Clamp", attrs: "min=0.5 max=6.0", ins: []ovIn{ovInts(-3, 1, 9)}, want: []string{"[3]"}, values: []string{"[1,1,6]"}},
		{name: "relu values", op: "ReLU", ins: []ovIn{ovInts(-3, 1)}, want: []string{"[2]"}, values: []string{"[0,1]"}},
		{name: "negative values", op: "Negative", ins: []ovIn{ovShapeOf("[N]")}, want: []string{"[1]"}, values: []string{"[-N]"}},
		{name: "softmax", op: "SoftMax", attrs: "axis=1", ins: []ovIn{ovParam("[1126,3]")}, want: []string{"[1126,3]"}},
		{name: "prelu", op: "PReLU", ins: []ovIn{ovParam("[1,32,96,96]"), ovParam("[1,32,1,1]")}, want: []string{"[1,32,96,96]"}},
		{name: "fake quantize", op: "FakeQuantize", attrs: "levels=256", ins: []ovIn{ovParam("[1,3,H,W]"), ovParam("[]"), ovParam("[]"), ovParam("[1,3,1,1]"), ovParam("[]")},
			want: []string{"[1,3,H,W]"}},
		{name: "select", op: "Select", ins: []ovIn{ovInts(1, 0).typed(element.Boolean), ovInts(5, 6), ovInts(7, 8)}, want: []string{"[2]"}, values: []string{"[5,8]"}},
	})
}

// TestOVRulesRegistered checks that the operators of the models and of the old evaluator have
// rules.
func TestOVRulesRegistered(t *testing.T) {
	for _, op := range []string{"ShapeOf", "Gather", "Concat", "StridedSlice", "Slice", "Add", "Subtract", "Multiply", "Divide",
		"FloorMod", "Maximum", "Minimum", "Equal", "Less", "Convert", "Squeeze", "Unsqueeze", "ReduceProd", "ReduceSum", "ReduceMax",
		"ReduceMin", "Reshape", "Range", "Broadcast", "Transpose", "Split", "VariadicSplit", "Convolution", "MatMul"} {
		if !graph.Supported(graph.DomainOpenVINO, op) {
			t.Errorf("no rule for %s", op)
		}
	}
	if slices.ContainsFunc([]string{"Result", "Parameter", "Const"}, func(op string) bool { return graph.Supported(graph.DomainOpenVINO, op) }) {
		t.Error("Result, Parameter and Const are not nodes and have no rules")
	}
}

// TestOVTypeCase: OpenVINO matches layer types ignoring case; the rule reads its own spelling
// (ReduceLogicalAnd's boolean output, Relu's values).
func TestOVTypeCase(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "Relu, as newer IR writes it", op: "Relu", ins: []ovIn{ovInts(-3, 1)}, want: []string{"[2]"}, values: []string{"[0,1]"}},
		{name: "SoftMax, as IR v10 writes it", op: "SoftMax", attrs: "axis=1", ins: []ovIn{ovParam("[N,3]")}, want: []string{"[N,3]"}},
		{name: "softmax-8", op: "softmax", version: 8, attrs: "axis=-1", ins: []ovIn{ovParam("[N,3]")}, want: []string{"[N,3]"}},
		{name: "reducelogicaland", op: "reducelogicaland", attrs: "keep_dims=false", ins: []ovIn{ovInts(1, 0).typed(element.Boolean), ovInts(0)},
			want: []string{"[]"}, values: []string{"[0]"}},
	})
	if !graph.Supported(graph.DomainOpenVINO, "RELU") || graph.Supported(graph.DomainOpenVINO, "Relu6") {
		t.Error("Supported does not match OpenVINO's types ignoring case")
	}
}

// TestOVShapeNegative checks that a layer whose output shape is a tensor's values states each value
// that may be negative not negative, as the specs take the tensor for the output's shape, whose
// dims are sizes, and OpenVINO's shape inference refuses a negative one ("Value -4 not in range
// [0:", type_prop eye.cpp); a value that is negative is an error.
func TestOVShapeNegative(t *testing.T) {
	cond := func(name, sym string, i, k int) []string {
		return []string{sym + " >= 3 (" + name + ": input " + fmt.Sprint(i) + " value " + fmt.Sprint(k) + ", a dim of the output, is not negative)"}
	}
	checkOV(t, []ovCase{
		{name: "broadcast numpy", op: "Broadcast", ins: []ovIn{ovParam("[1]"), ovShapeLess("[N,T]", 3)},
			want: []string{"[N-3,T-3]"}, constraints: append(cond("broadcast numpy (Broadcast)", "N", 1, 0), cond("broadcast numpy (Broadcast)", "T", 1, 1)...)},
		{name: "broadcast explicit", op: "Broadcast", attrs: "mode=explicit", ins: []ovIn{ovParam("[1]"), ovShapeLess("[T]", 3), ovInts(0)},
			want: []string{"[T-3]"}, constraints: cond("broadcast explicit (Broadcast)", "T", 1, 0)},
		{name: "broadcast bidirectional", op: "Broadcast", version: 3, attrs: "mode=bidirectional", ins: []ovIn{ovParam("[1]"), ovShapeLess("[T]", 3)},
			want: []string{"[T-3]"}, constraints: cond("broadcast bidirectional (Broadcast)", "T", 1, 0)},
		{name: "broadcast negative", op: "Broadcast", ins: []ovIn{ovParam("[1]"), ovShapeLess("[2]", 3)}, wantErr: errcode.ErrInvalidShape},
		{name: "eye", op: "Eye", version: 9, attrs: "output_type=f32", ins: []ovIn{ovShapeLess("[T]", 3), ovScalar(4), ovScalar(0), ovShapeLess("[B]", 3)},
			want: []string{"[B-3,T-3,4]"}, constraints: append(cond("eye (Eye)", "T", 0, 0), cond("eye (Eye)", "B", 3, 0)...)},
		{name: "eye negative batch", op: "Eye", version: 9, attrs: "output_type=f32", ins: []ovIn{ovScalar(3), ovScalar(4), ovScalar(0), ovShapeLess("[1]", 3)},
			wantErr: errcode.ErrInvalidShape},
		{name: "random uniform", op: "RandomUniform", version: 8, attrs: "output_type=f32", ins: []ovIn{ovShapeLess("[T]", 3), ovScalarF(0), ovScalarF(1)},
			want: []string{"[T-3]"}, constraints: cond("random uniform (RandomUniform)", "T", 0, 0)},
	})
}

// TestOVSizeNegative checks that a layer that reads a size from a tensor's values (a TopK's k, a
// OneHot's depth, an output_shape, sizes, lengths) states it not negative where it may be, as the
// specification takes a size, and OpenVINO's shape inference refuses a negative one (type_prop
// topk.cpp: "The value of 'K' must be greater or equal to zero"; one_hot.cpp: "can't be negative");
// a value that is negative is an error.
func TestOVSizeNegative(t *testing.T) {
	cond := func(layer, cond, name string) []string {
		return []string{cond + " (" + layer + ": " + name + " not negative)"}
	}
	checkOV(t, []ovCase{
		{name: "topk", op: "TopK", version: 11, attrs: "axis=0 mode=max sort=value", ins: []ovIn{ovParam("[N]"), ovScalarLess("[K]", 3)},
			want: []string{"[K-3]", "[K-3]"}, constraints: cond("topk (TopK)", "K >= 3", "k = K-3")},
		{name: "topk negative", op: "TopK", version: 11, attrs: "axis=0 mode=max sort=value", ins: []ovIn{ovParam("[N]"), ovScalarLess("[2]", 3)},
			wantErr: errcode.ErrInvalidShape},
		{name: "one hot", op: "OneHot", attrs: "axis=-1", ins: []ovIn{ovInts(0, 1), ovScalarLess("[D]", 3), ovScalarF(1), ovScalarF(0)},
			want: []string{"[2,D-3]"}, constraints: cond("one hot (OneHot)", "D >= 3", "depth = D-3")},
		{name: "embedding segments", op: "EmbeddingSegmentsSum", version: 3,
			ins:  []ovIn{ovParam("[5,2]"), ovInts(0, 1, 2, 3), ovInts(0, 0, 1, 1), ovScalarLess("[S]", 3)},
			want: []string{"[S-3,2]"}, constraints: cond("embedding segments (EmbeddingSegmentsSum)", "S >= 3", "num_segments = S-3")},
		{name: "segment max", op: "SegmentMax", version: 16, attrs: "fill_mode=zero", ins: []ovIn{ovParam("[3,4]"), ovInts(0, 0, 1), ovScalarLess("[S]", 3)},
			want: []string{"[S-3,4]"}, constraints: cond("segment max (SegmentMax)", "S >= 3", "num_segments = S-3")},
		{name: "convolution backprop output_shape", op: "ConvolutionBackpropData",
			attrs: "strides=1,1 pads_begin=0,0 pads_end=0,0 dilations=1,1 auto_pad=explicit", ins: []ovIn{ovParam("[1,16,5,5]"), ovParam("[16,6,3,3]"), ovShapeLess("[H,W]", 3)},
			want: []string{"[1,6,H-3,W-3]"}, constraints: append(cond("convolution backprop output_shape (ConvolutionBackpropData)", "H >= 3", "output_shape[0] = H-3"),
				cond("convolution backprop output_shape (ConvolutionBackpropData)", "W >= 3", "output_shape[1] = W-3")...)},
		{name: "adaptive pool", op: "AdaptiveAvgPool", version: 8, ins: []ovIn{ovParam("[1,6,8,9]"), ovShapeLess("[H,W]", 3)},
			want: []string{"[1,6,H-3,W-3]"}, constraints: append(cond("adaptive pool (AdaptiveAvgPool)", "H >= 3", "output_shape[0] = H-3"),
				cond("adaptive pool (AdaptiveAvgPool)", "W >= 3", "output_shape[1] = W-3")...)},
		{name: "dft signal_size", op: "DFT", version: 7, ins: []ovIn{ovParam("[2,10,2]"), ovInts(1), ovShapeLess("[S]", 3)},
			want: []string{"[2,S-3,2]"}, constraints: cond("dft signal_size (DFT)", "S >= 3", "signal_size[0] = S-3")},
		{name: "variadic split", op: "VariadicSplit", ins: []ovIn{ovParam("[N,4]"), ovScalar(0), ovShapeLess("[L]", 3)},
			want: []string{"[L-3,4]"}, constraints: []string{"N == L-3 (variadic split (VariadicSplit): the sum of the split lengths and the axis)"}},
		{name: "interpolate sizes", op: "Interpolate", version: 11, attrs: "mode=nearest shape_calculation_mode=sizes",
			ins:  []ovIn{ovParam("[1,3,8,8]"), ovShapeLess("[A,B]", 3), ovInts(2, 3)},
			want: []string{"[1,3,A-3,B-3]"}, constraints: append(cond("interpolate sizes (Interpolate)", "A >= 3", "sizes[0] = A-3"),
				cond("interpolate sizes (Interpolate)", "B >= 3", "sizes[1] = B-3")...)},
		{name: "interpolate target_shape", op: "Interpolate", attrs: "axes=2,3 mode=nearest",
			ins:  []ovIn{ovParam("[1,3,8,8]"), ovShapeLess("[A,B]", 3)},
			want: []string{"[1,3,A-3,B-3]"}, constraints: append(cond("interpolate target_shape (Interpolate)", "A >= 3", "target_shape[0] = A-3"),
				cond("interpolate target_shape (Interpolate)", "B >= 3", "target_shape[1] = B-3")...)},
		{name: "col2im output_size", op: "Col2Im", version: 15, ins: []ovIn{ovParam("[N,4,L]"), ovShapeLess("[A,B]", 3), ovInts(1, 1)},
			want: []string{"[N,4,A-3,B-3]"}, constraints: []string{
				"(A-3)*(B-3) == L (col2im output_size (Col2Im): the number of blocks L and the blocks that output_size holds)",
				"(A-3)*(B-3) >= 1 (col2im output_size (Col2Im): the number of blocks L and the blocks that output_size holds)",
				"B >= 3 (col2im output_size (Col2Im): output_size[1] = B-3 not negative)"}},
		{name: "tile", op: "Tile", ins: []ovIn{ovParam("[2]"), ovShapeLess("[R]", 3)},
			want: []string{"[2*R-6]"}, constraints: cond("tile (Tile)", "R >= 3", "repeats[0] = R-3")},
	})
}
