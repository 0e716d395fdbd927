package main

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/shape"
)

// TestBindingNotes: a flag that binds (--dim, --input, --batch-size) never does nothing in silence.
// Given one model, a binding that binds nothing in it is an error of code binding, exit 2, that
// calls no file unreadable, in every format; given several, a note for each model it binds nothing
// in. An --input that changes a static dim of an ONNX model says that onnxruntime refuses it.
func TestBindingNotes(t *testing.T) {
	dir := t.TempDir()
	write := func(name string, inputs ...onnx.ValueInfo) string {
		m := onnx.Model{IRVersion: 8, OpsetImports: []onnx.OpsetID{{Version: 17}}, Graph: onnx.Graph{Inputs: inputs,
			Outputs: []onnx.ValueInfo{{Name: "z", Shape: shape.DynamicRank()}}}}
		if len(inputs) == 1 {
			m.Graph.Nodes = []onnx.Node{{Name: "relu", OpType: "Relu", Inputs: []string{"x"}, Outputs: []string{"z"}}}
		} else {
			m.Graph.Nodes = []onnx.Node{{Name: "add", OpType: "Add", Inputs: []string{"x", "y"}, Outputs: []string{"z"}}}
		}
		b, err := onnx.EncodeModel(&m)
		if err != nil {
			t.Fatal(err)
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, b, 0o644); err != nil {
			t.Fatal(err)
		}
		return path
	}
	x := onnx.ValueInfo{Name: "x", ElemType: onnx.Float, Shape: shape.OfInts(1, 3)}
	static := write("static.onnx", x)
	two := write("two.onnx", x, onnx.ValueInfo{Name: "y", ElemType: onnx.Float, Shape: shape.Of(shape.Dynamic, shape.Static(3)), DimParams: []string{"B", ""}})
	dnnl := filepath.Join(dir, "g.json")
	os.WriteFile(dnnl, []byte(`{"graph": [{"id": 1, "name": "r", "kind": "StaticReshape",
		"attrs": {"special_zero": {"type": "bool", "value": 0}, "shape": {"type": "s64[]", "value": [6]}},
		"inputs": [{"id": 0, "dtype": "f32", "shape": [2, 3]}], "outputs": [{"id": 2, "dtype": "f32", "shape": [6]}]}]}`), 0o644)
	ir := filepath.Join("..", "..", "testdata", "ir", "flatten_head.xml")
	nobin := copyFile(t, ir, filepath.Join(dir, "nobin.xml")) // the network without its .bin
	const noWeights = "note: read without its .bin (none beside the .xml): the values of its constants are unknown, and so is every shape and pattern they decide; --bin names the weights\n"

	const noBatch = "note: --batch-size 4 leaves x as declared: no batch dim (a scalar, an unknown rank, or a static leading dim the model does not mark as its batch)\n"
	const override = `note: --input x=[2,3] changes the static dim 0 of x, which the model declares [1,3]: onnxruntime refuses such an input ("Got invalid dimensions for input"), ` +
		"where OpenVINO's reshape accepts it and infers the model again, as here\n"
	for _, tt := range []struct {
		args   []string
		code   int
		stdout []string // in stdout, in order; "" for an empty stdout
		stderr string   // in stderr
	}{
		// One model: an error, whatever the format.
		{[]string{"check", "--batch-size", "4", static}, 2, []string{""}, "reshape: binding: " + static + ": a batch size of 4 binds no dim: no input has a batch dim"},
		{[]string{"shapes", "--batch-size", "4", static}, 2, []string{""}, "reshape: binding: " + static + ": a batch size of 4 binds no dim"},
		{[]string{"check", "--dim", "Q=1", two}, 2, []string{""}, "reshape: binding: " + two + ": a binding of Q: the model has no dim of that name (its symbols: B)\n"},
		{[]string{"check", "--input", "w=[1]", two}, 2, []string{""}, "reshape: binding: " + two + `: input "w": the graph has no such input (it has "x", "y")`},
		{[]string{"check", "--json", "--dim", "Q=1", two}, 2, []string{`{"record":"file","file":"` + two + `","error":"binding","message":`}, ""},
		{[]string{"shapes", "--dim", "Q=1", ir}, 2, []string{""}, "reshape: binding: "},
		{[]string{"check", "--dim", "Q=1", dnnl}, 2, []string{""}, "reshape: binding: "},
		{[]string{"shapes", "--input", "w=[2,3]", dnnl}, 2, []string{""}, "reshape: binding: "},
		{[]string{"check", "--batch-size", "4", dnnl}, 2, []string{""}, "reshape: binding: " + dnnl + ": a batch size of 4 binds no dim"},
		// One model that a binding binds in part: a note.
		{[]string{"shapes", "--batch-size", "4", two}, 0, []string{"y       -    f32   [4,3]", noBatch, "3 tensors: "}, ""},
		{[]string{"check", "--batch-size", "4", two}, 0, []string{two + ": " + noBatch, "0 reshapes in 1 file"}, ""},
		{[]string{"shapes", "--json", "--batch-size", "4", two}, 0, []string{`"notes":[{"flag":"--batch-size","message":"--batch-size 4 leaves x as declared: `}, ""},
		// Several models: a note for each model a binding binds nothing in.
		{[]string{"check", "--dim", "B=2", "--input", "w=[1]", "--batch-size", "4", two, static, dnnl}, 0, []string{
			two + ": note: --input w binds nothing: the model has no input of that name\n",
			two + ": " + noBatch,
			static + ": note: --dim B binds nothing: the model has no dim of that name (symbols left free: none)\n",
			static + ": note: --input w binds nothing: the model has no input of that name\n",
			static + ": " + noBatch,
			dnnl + ": note: --dim B binds nothing",
			dnnl + ": note: --batch-size 4 leaves 0 as declared",
			"in 3 files"}, ""},
		{[]string{"check", "--json", "--dim", "B=2", two, static}, 0, []string{
			`{"record":"note","file":"` + static + `","flag":"--dim","name":"B","message":"--dim B binds nothing: the model has no dim of that name (symbols left free: none)"}`,
			`{"record":"summary",`}, ""},
		// An --input that changes a static dim: onnxruntime refuses it, OpenVINO does not.
		{[]string{"shapes", "--input", "x=[2,3]", two}, 0, []string{override}, ""},
		{[]string{"check", "--input", "x=[1,3,1]", "--quiet", static}, 0, []string{
			static + `: note: --input x=[1,3,1] gives x the rank 3, where the model declares [1,3]: onnxruntime refuses such an input ("Invalid rank for input")`}, ""},
		{[]string{"shapes", "--input", "x=[1,3]", two}, 0, []string{"3 tensors: "}, ""},
		// An IR network read without its .bin: a note, in every output.
		{[]string{"check", "--quiet", nobin}, 0, []string{nobin + ": " + noWeights}, ""},
		{[]string{"shapes", "--quiet", nobin}, 0, []string{noWeights}, ""},
		{[]string{"check", "--quiet", ir}, 0, []string{"1 reshape in 1 file"}, ""},
		// report and map give them too, after their line (the page holds them).
		{[]string{"report", "-o", filepath.Join(dir, "r.html"), "--batch-size", "4", two}, 0, []string{"two.onnx runs", noBatch}, ""},
		{[]string{"report", "-o", filepath.Join(dir, "r.html"), nobin}, 0, []string{"nobin.xml states no condition on image:0", noWeights}, ""},
		{[]string{"map", "-o", filepath.Join(dir, "m.svg"), "--x", "image:0", nobin}, 0, []string{"image:0 1..", noWeights}, ""},
		{[]string{"check", "--json", nobin}, 0, []string{`{"record":"note","file":"` + nobin + `","flag":"--bin","message":"read without its .bin`}, ""},
	} {
		code, stdout, stderr := cli("", tt.args...)
		ok := code == tt.code && strings.Contains(stderr, tt.stderr) && (tt.stderr != "" || stderr == "")
		rest := stdout
		for _, w := range tt.stdout {
			if w == "" {
				ok = ok && stdout == ""
				continue
			}
			i := strings.Index(rest, w)
			ok = ok && i >= 0
			if i >= 0 {
				rest = rest[i+len(w):]
			}
		}
		if strings.Contains(stdout, "could not be read") || strings.Contains(stdout, "note: --input x=[1,3] ") ||
			strings.Contains(stdout, "without its .bin") && !slices.Contains(tt.args, nobin) {
			ok = false
		}
		if !ok {
			t.Errorf("reshape %s: exit %d, want %d, %q in stdout and %q in stderr:\n%s%s", strings.Join(tt.args, " "), code, tt.code, tt.stdout, tt.stderr, stdout, stderr)
		}
	}
}
