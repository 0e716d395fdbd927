package graph

import (
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// staticBlocks returns a model of n blocks of static shapes from x [2,3,4,5]: Relu, Transpose,
// Reshape by a constant pattern and back, Transpose back, Add of the block's input; 6n nodes.
func staticBlocks(n int) *model {
	b := newModel(17).input("x", int64(2), int64(3), int64(4), int64(5)).
		ints("flat", nil, 2, -1, 5).ints("back", nil, 2, 4, 3, 5)
	prev := "x"
	for i := range n {
		k := strconv.Itoa(i)
		b.node("relu"+k, "Relu", []string{prev}, []string{"a" + k}).
			node("t"+k, "Transpose", []string{"a" + k}, []string{"b" + k}, attrInts("perm", 0, 2, 1, 3)).
			node("flat"+k, "Reshape", []string{"b" + k, "flat"}, []string{"c" + k}).
			node("back"+k, "Reshape", []string{"c" + k, "back"}, []string{"d" + k}).
			node("tb"+k, "Transpose", []string{"d" + k}, []string{"e" + k}, attrInts("perm", 0, 2, 1, 3)).
			node("add"+k, "Add", []string{"e" + k, prev}, []string{"f" + k})
		prev = "f" + k
	}
	return b.output(prev)
}

// TestAllocsPerNode pins the allocations of Infer per node: an all-static model of small ranks at
// most 1.05 per node (its Relu and Add allocate nothing but their share of the slabs; each Reshape
// its output dims and the list of their sources, each Transpose its normalized perm), and
// bert_deep_4x (8,965 nodes of symbolic shapes, constants and shape subgraphs) at most 1.3, where
// they took 3.4 and 11.3 before the slabs and the fast paths of package sym.
func TestAllocsPerNode(t *testing.T) {
	static := decodeGraph(t, staticBlocks(1000).encode())
	data, err := os.ReadFile(filepath.Join("..", "testdata", "models", "bert_deep_4x.onnx"))
	if err != nil {
		t.Fatal(err)
	}
	bert := decodeGraph(t, data)
	for _, c := range []struct {
		name string
		g    *Graph
		max  float64
	}{
		{"static blocks", static, 1.05},
		{"bert_deep_4x", bert, 1.3},
	} {
		allocs := testing.AllocsPerRun(3, func() {
			if _, err := Infer(c.g, Options{}); err != nil {
				t.Fatal(err)
			}
		})
		perNode := allocs / float64(len(c.g.Nodes))
		t.Logf("%s: %.0f allocations, %.3f per node", c.name, allocs, perNode)
		if perNode > c.max {
			t.Errorf("%s: %.3f allocations per node, want at most %.2f", c.name, perNode, c.max)
		}
	}
}
