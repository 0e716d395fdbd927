package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/sym"
)

var nnFuzzOps = []string{"Conv", "ConvInteger", "QLinearConv", "ConvTranspose", "MaxPool", "AveragePool", "LpPool",
	"GlobalAveragePool", "GlobalMaxPool", "GlobalLpPool", "MaxUnpool", "BatchNormalization", "InstanceNormalization",
	"LayerNormalization", "GroupNormalization", "RMSNormalization", "LpNormalization", "Softmax", "LogSoftmax", "Hardmax",
	"MeanVarianceNormalization", "LRN", "Dropout", "MatMul", "MatMulInteger", "QLinearMatMul", "Gemm", "Einsum",
	"QuantizeLinear", "DequantizeLinear", "DynamicQuantizeLinear", "RNN", "GRU", "LSTM"}

// FuzzNNRules runs the rules of the neural-network operators on nodes built from fuzzed bytes
// (operator, version, graph inputs whose dims are integers or the symbols A, B, C, attributes,
// Einsum equations) twice: with the symbols, and with them bound to integers. It checks that no
// rule panics, that no output dim is below 0, and that where the bound run succeeds, every output
// dim the symbolic run determined evaluates, at the binding, to the bound run's dim.
func FuzzNNRules(f *testing.F) {
	f.Add(uint8(0), uint8(16), []byte{2, 1, 4, 1, 3, 255, 254, 1, 4, 8, 3, 2, 2, 1, 2, 3, 1, 1, 3, 3, 3, 1, 5, 1, 2})
	f.Add(uint8(4), uint8(11), []byte{1, 1, 4, 2, 3, 255, 254, 2, 1, 2, 7, 0, 1, 1, 3, 3, 1, 2, 2})
	f.Add(uint8(3), uint8(10), []byte{2, 1, 4, 1, 3, 255, 254, 1, 4, 3, 2, 3, 3, 0, 0, 3, 2, 1, 1, 1, 5, 2, 2, 2})
	f.Add(uint8(27), uint8(11), []byte{2, 1, 3, 255, 254, 6, 1, 2, 6, 5, 1, 3, 2, 0, 1, 0, 2, 3, 1, 0})
	f.Add(uint8(33), uint8(13), []byte{3, 1, 3, 255, 254, 4, 1, 3, 1, 12, 4, 1, 3, 1, 12, 3, 2, 3, 3, 3, 3, 3, 3, 3, 3, 7})
	f.Fuzz(func(t *testing.T, op, version uint8, data []byte) {
		r := &fuzzReader{b: data}
		n := graph.Node{Name: "n", Op: nnFuzzOps[int(op)%len(nnFuzzOps)], Version: 1 + int64(version)%25}
		g := &graph.Graph{Consts: map[string]*graph.Const{}, Declared: map[string]graph.Decl{}}
		binding := map[string]int64{"A": 1 + abs(r.next())%9, "B": 1 + abs(r.next())%9, "C": 1 + abs(r.next())%9}
		for i := range abs(r.next()) % 10 {
			name := "in" + string(rune('0'+i))
			if abs(r.next())%4 == 0 {
				n.Inputs = append(n.Inputs, "")
				continue
			}
			g.Inputs = append(g.Inputs, graph.Input{Name: name, Decl: r.decl(5, 12)})
			n.Inputs = append(n.Inputs, name)
		}
		for i := range 1 + abs(r.next())%3 {
			n.Outputs = append(n.Outputs, "out"+string(rune('0'+i)))
		}
		for _, name := range []string{"group", "ceil_mode", "hidden_size", "layout", "axis", "transA", "transB",
			"num_groups", "training_mode", "size", "spatial", "broadcast"} {
			if v := r.next(); v%2 != 0 {
				n.Attrs = append(n.Attrs, attrInt(name, v/2%5))
			}
		}
		// Window attributes mostly fit the spatial axes of input 0, with values in range.
		spatial := int64(1)
		if len(g.Inputs) > 0 {
			spatial = max(int64(g.Inputs[0].Decl.Rank)-2, 1)
		}
		for _, name := range []string{"kernel_shape", "strides", "pads", "dilations", "output_padding", "output_shape", "axes"} {
			v := r.next()
			if v%2 == 0 {
				continue
			}
			size := spatial
			switch {
			case v%3 == 0:
				size = abs(v) % 7
			case name == "pads":
				size = 2 * spatial
			}
			a := attrInts(name)
			for range size {
				x := r.next()
				if v%5 != 0 {
					x = 1 + abs(x)%4
					if name == "pads" || name == "output_padding" {
						x--
					}
				}
				a.Ints = append(a.Ints, x%13)
			}
			n.Attrs = append(n.Attrs, a)
		}
		if v := abs(r.next()); v%2 != 0 {
			pads := []string{"NOTSET", "SAME_UPPER", "SAME_LOWER", "VALID"}
			n.Attrs = append(n.Attrs, attrString("auto_pad", pads[v/2%4]))
		}
		if v := abs(r.next()); v%2 != 0 {
			n.Attrs = append(n.Attrs, attrString("direction", []string{"forward", "reverse", "bidirectional"}[v/2%3]))
		}
		if v := abs(r.next()); v%2 != 0 {
			var eq []byte
			for range v % 16 {
				eq = append(eq, "abcabc,..-> "[abs(r.next())%12])
			}
			n.Attrs = append(n.Attrs, attrString("equation", string(eq)))
		}
		g.Nodes = []graph.Node{n}
		checkSymbolicBound(t, g, binding)
	})
}

// checkSymbolicBound infers the graph of one node g twice, with its symbols and with them bound to
// the integers of binding, and checks that no output dim is below 0 and that where both runs
// succeed, every output dim the symbolic run determined evaluates, at the binding, to the bound
// run's dim.
func checkSymbolicBound(t *testing.T, g *graph.Graph, binding map[string]int64) {
	t.Helper()
	n := g.Nodes[0]
	symbolic, err := graph.Infer(g, graph.Options{})
	if err != nil {
		t.Fatalf("Infer: %v", err)
	}
	used := map[string]int64{} // Infer refuses a binding of a symbol the graph does not have
	for _, s := range symbolic.Symbols() {
		if v, ok := binding[s.Name]; ok {
			used[s.Name] = v
		}
	}
	bound, err := graph.Infer(g, graph.Options{Dims: used})
	if err != nil {
		t.Fatalf("Infer bound: %v", err)
	}
	sr, br := symbolic.Nodes[0], bound.Nodes[0]
	for i := range sr.Outputs {
		for _, out := range []*graph.Info{sr.Outputs[i], br.Outputs[i]} {
			if out == nil || out.Shape.RankDynamic {
				continue
			}
			for _, d := range out.Shape.Dims {
				if lo, _ := d.Bounds(); lo < 0 {
					t.Fatalf("%s-%d: output %d = %v, a dim below 0 (node %+v, inputs %v)", n.Op, n.Version, i, out.Shape, n, g.Inputs)
				}
			}
		}
		if br.Err != nil || sr.Err != nil || sr.Outputs[i] == nil || br.Outputs[i] == nil {
			continue
		}
		s, b := sr.Outputs[i].Shape, br.Outputs[i].Shape
		want, ok := b.Static()
		if !ok || s.RankDynamic {
			continue
		}
		if len(s.Dims) != len(want) {
			t.Fatalf("%s-%d: output %d = %v, and %v at %v", n.Op, n.Version, i, s, b, binding)
		}
		for k, d := range s.Dims {
			if lo, hi := d.Bounds(); want[k] < lo || want[k] > hi {
				t.Fatalf("%s-%d: output %d = %v, and %v at %v", n.Op, n.Version, i, s, b, binding)
			}
			if !d.Determined() {
				continue
			}
			if v, err := evalAt(d, binding); err == nil && v != want[k] {
				t.Fatalf("%s-%d: output %d = %v, and %v at %v", n.Op, n.Version, i, s, b, binding)
			}
		}
	}
}

// evalAt evaluates a determined dim at a binding of its symbols.
func evalAt(d sym.Dim, binding map[string]int64) (int64, error) {
	if n, ok := d.Static(); ok {
		return n, nil
	}
	e, _ := d.Expr()
	return e.Eval(func(name string) (int64, bool) { v, ok := binding[name]; return v, ok })
}
