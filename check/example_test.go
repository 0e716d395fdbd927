package check_test

import (
	"fmt"
	"strings"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/onednn"
)

// The built-in model holds the five examples of the OpenVINO Reshape-1 specification.
func ExampleBuiltin() {
	rep, err := check.Builtin()
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Rows {
		fmt.Println(r.Name, r.Input, r.Pattern, r.Zero(), r.Inferred, r.Verdict)
	}
	fmt.Println(check.Summarize([]*check.Report{rep}))
	// Output:
	// example1_reshape [2,5,5,0] [0,4] special_zero=false [0,4] ok
	// example2_reshape [2,5,5,24] [0,-1,4] special_zero=true [2,150,4] ok
	// example3_reshape [2,2,3] [0,0,1,-1] special_zero=true [2,2,1,3] ok
	// example4_reshape [3,1,1] [-1,0] special_zero=true [3,1] ok
	// example5_reshape [3,1,1] [0,-1] special_zero=true [3,1] ok
	// 5 reshapes in 1 file: 5 ok, 0 mismatch, 0 inferred, 0 error
}

// A oneDNN Graph of two reshapes: the StaticReshape declares an output the rules do not give; the
// DynamicReshape reads the inferred [8,12], and its pattern is a run-time input, so its values are
// unknown, but no pattern gives the volume it declares.
func ExampleOneDNN() {
	const graph = `{"graph": [
	  {"id": 1, "name": "flatten", "kind": "StaticReshape",
	   "attrs": {"special_zero": {"type": "bool", "value": 1}, "shape": {"type": "s64[]", "value": [0, -1]}},
	   "inputs": [{"id": 0, "dtype": "f32", "shape": [8, 3, 4]}], "outputs": [{"id": 2, "dtype": "f32", "shape": [8, 3]}]},
	  {"id": 3, "name": "split", "kind": "DynamicReshape", "attrs": {"special_zero": {"type": "bool", "value": 0}},
	   "inputs": [{"id": 2, "dtype": "f32", "shape": [8, 3]}, {"id": 4, "dtype": "s32", "shape": [3]}],
	   "outputs": [{"id": 5, "dtype": "f32", "shape": [2, 4, 3]}]}
	]}`
	g, err := onednn.Decode(strings.NewReader(graph))
	if err != nil {
		fmt.Println(err)
		return
	}
	rep, err := check.OneDNN(g, "graph.json", check.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range rep.Rows {
		fmt.Printf("%s %s: %s by %s (%s) gives %s, declared %s: %s\n", r.Op, r.Name, r.Input, r.Pattern, r.PatternSource, r.Inferred, r.Declared, r.Verdict)
		if r.Message != "" {
			fmt.Printf("  %s\n", r.Message)
		}
	}
	// Output:
	// StaticReshape flatten: [8,3,4] by [0,-1] (const) gives [8,12], declared [8,3]: mismatch
	//   logical tensor 2: the model declares [8,3], the rules give [8,12]
	// DynamicReshape split: [8,12] by - (unknown) gives [?,?,?], declared [2,4,3]: mismatch
	//   logical tensor 5: the model declares [2,4,3] of volume 24, but the input [8,12] has volume 96, and a reshape keeps the volume; the pattern's values are known at run time only, so it is inferred with its values unknown
}

// ConditionsNote ends a summary line: the constraints and what they fix, then the limits.
func ExampleConditionsNote() {
	fmt.Printf("%q\n", check.ConditionsNote(3, 0, 1, nil))
	fmt.Printf("%q\n", check.ConditionsNote(2, 1, 0, []string{"B", "T"}))
	fmt.Printf("%q\n", check.ConditionsNote(0, 2, 0, nil))
	fmt.Printf("%q\n", check.ConditionsNote(0, 0, 0, nil))
	// Output:
	// "; 3 constraints, of which 1 fixes a dim"
	// "; 2 constraints, which fix B, T; 1 limit"
	// "; 2 limits"
	// ""
}
