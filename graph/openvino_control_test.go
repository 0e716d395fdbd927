package graph_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/graph"
)

// TestOVControl infers the TensorIterator, Loop and If networks that bench/gen_ir_models.py writes:
// their outputs (by tensor) and the conditions they record, with and without a binding.
func TestOVControl(t *testing.T) {
	for _, tc := range []struct {
		file  string
		dims  map[string]int64
		want  map[string]string
		conds []string
	}{
		// A TensorIterator slicing x [2,T,16] along axis 1: the states of every iteration
		// concatenated, [2,T,32], and the last one, carried by the back edge, [2,32].
		{"ti_rnn", nil, map[string]string{"2:2": "[2,x:1,32]", "2:3": "[2,32]"}, nil},
		{"ti_rnn", map[string]int64{"x:1": 7}, map[string]string{"2:2": "[2,7,32]", "2:3": "[2,32]"}, nil},
		// From the end of the axis to its start (start=-1, end=0, stride=-1): as many iterations.
		{"ti_reverse", nil, map[string]string{"2:2": "[2,x:1,32]", "2:3": "[2,32]"}, nil},
		// A Loop whose trip count is x's row count, read from its shape, and whose body's condition
		// is true: the rows stacked are x's, [x:0,8]; the sum, carried, [1,8].
		{"loop_rows", nil, map[string]string{"7:4": "[1,8]", "7:5": "[x:0,8]"}, nil},
		{"loop_rows", map[string]int64{"x:0": 5}, map[string]string{"7:4": "[1,8]", "7:5": "[5,8]"}, nil},
		// An If whose condition is an input: either body may run; the model runs when either can.
		{"if_branches", nil, map[string]string{"2:2": "[x:0,1..,6..8]"}, []string{"x:1 % 6 == 0 || x:1 % 8 == 0"}},
		// A Loop of T = x:1 iterations whose body gathers row i (its current_iteration, a symbol
		// below T) and appends it to a carried [2,i,8]: the carried value ends [2,T,8], the rows
		// stacked are [2,T,8], the Gather's index i <= T-1 holds at every iteration, and nothing is lost.
		{"loop_iter", nil, map[string]string{"7:4": "[2,x:1,8]", "7:5": "[2,x:1,8]"}, nil},
		{"loop_iter", map[string]int64{"x:1": 3}, map[string]string{"7:4": "[2,3,8]", "7:5": "[2,3,8]"}, nil},
		// The same Loop gathering row i+1 too, which the last iteration cannot, and stopping where
		// the data say (a row's sum): the first iteration needs T >= 2, the later ones i+2 <= T
		// only while the data let them run (a loss only a run decides, not a false alarm), and the
		// numbers of rows are unknown.
		{"loop_until", nil, map[string]string{"7:4": "[2,?,8]", "7:5": "[2,?,8]"}, []string{"x:1 >= 2"}},
		// A TensorIterator over the T steps of x [2,T,16] appending each, flattened, to a carried
		// [2,16*i]: it ends [2,16*T].
		{"ti_grow", nil, map[string]string{"2:2": "[2,16*x:1]"}, nil},
		{"ti_grow", map[string]int64{"x:1": 5}, map[string]string{"2:2": "[2,80]"}, nil},
	} {
		t.Run(tc.file, func(t *testing.T) {
			_, g := loadIR(t, filepath.Join("testdata", "ir", tc.file+".xml"))
			res, err := graph.Infer(g, graph.Options{Dims: tc.dims})
			if err != nil {
				t.Fatal(err)
			}
			for _, r := range res.Nodes {
				if r.Err != nil {
					t.Errorf("%s: %v", r.Path, r.Err)
				}
			}
			for name, want := range tc.want {
				if got := res.Tensor(name); got == nil || got.Shape.String() != want {
					t.Errorf("%s = %v, want %s", name, got, want)
				}
			}
			var conds []string
			for _, c := range res.Constraints() {
				conds = append(conds, c.Pred.String())
			}
			if strings.Join(conds, "; ") != strings.Join(tc.conds, "; ") {
				t.Errorf("constraints %q, want %q", conds, tc.conds)
			}
			var lost []string
			for _, l := range res.Lost() {
				lost = append(lost, l.String())
			}
			if want := tc.file == "loop_until"; tc.file != "if_branches" && (want != (len(lost) > 0) || want && !res.Lost()[0].RunTime) {
				t.Errorf("lost %q; want a loss only a run decides: %v", lost, want)
			}
		})
	}
}

// ovTI returns a network of one TensorIterator over x of the given <dim>s whose body passes its
// part x_t [2,1] through, with the port map's input entry slicing x by the attributes slicing and
// its output entry concatenating along axis 1.
func ovTI(xDims, slicing string) string {
	return irXML(`<layer id="0" name="x" type="Parameter" version="opset1"><data shape="" element_type="f32"/><output><port id="0" precision="FP32">`+xDims+`</port></output></layer>
<layer id="1" name="ti" type="TensorIterator" version="opset1">
<input><port id="0">`+xDims+`</port></input>
<output><port id="1" precision="FP32"><dim>2</dim><dim>-1</dim></port></output>
<port_map><input external_port_id="0" internal_layer_id="0" `+slicing+`/><output external_port_id="1" internal_layer_id="1" axis="1"/></port_map>
<body><layers>
<layer id="0" name="x_t" type="Parameter" version="opset1"><data shape="2,1" element_type="f32"/><output><port id="0" precision="FP32"><dim>2</dim><dim>1</dim></port></output></layer>
<layer id="1" name="y_t" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>1</dim></port></input></layer>
</layers><edges><edge from-layer="0" from-port="0" to-layer="1" to-port="0"/></edges></body>
</layer>
<layer id="2" name="y" type="Result" version="opset1"><input><port id="0"><dim>2</dim><dim>-1</dim></port></input></layer>`,
		`<edge from-layer="0" from-port="0" to-layer="1" to-port="0"/><edge from-layer="1" from-port="1" to-layer="2" to-port="0"/>`)
}

// TestOVTensorIteratorSlicing: the iterations a TensorIterator's slicing makes, start and end
// both included, and what it requires of the axis; a slicing outside it is an error at the layer.
func TestOVTensorIteratorSlicing(t *testing.T) {
	const static, dynamic = `<dim>2</dim><dim>6</dim>`, `<dim>2</dim><dim>-1</dim>`
	for _, tc := range []struct {
		name, x, slicing string
		want, cond, err  string
	}{
		{"all of 6", static, `axis="1"`, "[2,6]", "", ""},
		{"1 to 4", static, `axis="1" start="1" end="4"`, "[2,4]", "", ""},
		{"reversed", static, `axis="1" start="-1" end="0" stride="-1"`, "[2,6]", "", ""},
		{"end past the axis", static, `axis="1" start="0" end="6"`, "", "", "end = 6 within the axis"},
		{"axis out of range", static, `axis="2"`, "", "", "axis 2"},
		{"all of T", dynamic, `axis="1"`, "[2,x:1]", "", ""},
		{"from 2 of T", dynamic, `axis="1" start="2"`, "[2,x:1-2]", "x:1 >= 3", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := irDecode(t, ovTI(tc.x, tc.slicing), nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := graph.Infer(g, graph.Options{})
			if err != nil {
				t.Fatal(err)
			}
			r := res.Nodes[0]
			if tc.err != "" {
				if r.Err == nil || !strings.Contains(r.Err.Error(), tc.err) {
					t.Errorf("error %v, want one containing %q", r.Err, tc.err)
				}
				return
			}
			if r.Err != nil || r.Outputs[0].Shape.String() != tc.want {
				t.Errorf("output %v, %v; want %s", r.Outputs[0], r.Err, tc.want)
			}
			var conds []string
			for _, c := range res.Constraints() {
				conds = append(conds, c.Pred.String())
			}
			if strings.Join(conds, "; ") != tc.cond {
				t.Errorf("constraints %q, want %q", conds, tc.cond)
			}
		})
	}
}
