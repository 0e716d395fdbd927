package graph_test

import (
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/graph"
)

func TestMatMulRules(t *testing.T) {
	ab := []string{"a", "b"}
	checkNode(t, []nodeCase{
		{name: "batched", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[B,T,64]", "b", "[64,128]"), want: []string{"[B,T,128]"}},
		{name: "inner dims unify", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[B,T,K]", "b", "[B,K,T]"), want: []string{"[B,T,T]"}},
		{name: "inner symbol takes the integer", node: nodeV("MatMul", 9, ab, y), inputs: shapes1("a", "[K,K]", "b", "[6,5]"), want: []string{"[6,5]"}},
		{name: "vector vector", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[3]", "b", "[3]"), want: []string{"[]"}},
		{name: "vector matrix", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[3]", "b", "[2,3,4]"), want: []string{"[2,4]"}},
		{name: "matrix vector", node: nodeV("MatMul", 1, ab, y), inputs: shapes1("a", "[2,5,3]", "b", "[3]"), want: []string{"[2,5]"}},
		{name: "batch broadcast", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[1,5,3]", "b", "[7,1,3,2]"), want: []string{"[7,1,5,2]"}},
		{name: "batch symbols", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[B,H,T,16]", "b", "[B,H,16,T]"), want: []string{"[B,H,T,T]"}},
		{name: "dynamic rank", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[...]", "b", "[64,128]"), want: []string{"[...]"}},
		{name: "inner mismatch", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[2,3]", "b", "[4,5]"), wantErr: errInvalidShape},
		{name: "batch mismatch", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[2,2,3]", "b", "[3,3,5]"), wantErr: errInvalidShape},
		{name: "scalar", node: nodeV("MatMul", 13, ab, y), inputs: shapes1("a", "[]", "b", "[3]"), wantErr: errInvalidShape},
		{name: "MatMulInteger", node: nodeV("MatMulInteger", 10, []string{"a", "b", "az"}, y), inputs: shapes1("a", "[B,T,64]", "b", "[64,32]", "az", "[]"),
			want: []string{"[B,T,32]"}},
		{name: "QLinearMatMul", node: nodeV("QLinearMatMul", 21, []string{"a", "as", "az", "b", "bs", "bz", "ys", "yz"}, y),
			inputs: shapes1("a", "[B,T,64]", "as", "[]", "az", "[]", "b", "[64,32]", "bs", "[]", "bz", "[]", "ys", "[]", "yz", "[]"), want: []string{"[B,T,32]"}},
	})
}

func TestGemmRules(t *testing.T) {
	abc := []string{"a", "b", "c"}
	checkNode(t, []nodeCase{
		{name: "C vector", node: nodeV("Gemm", 13, abc, y), inputs: shapes1("a", "[M,K]", "b", "[K,10]", "c", "[10]"), want: []string{"[M,10]"}},
		{name: "transB", node: nodeV("Gemm", 11, abc, y, attrInt("transB", 1)), inputs: shapes1("a", "[N,1024]", "b", "[10,1024]", "c", "[10]"),
			want: []string{"[N,10]"}},
		{name: "transA", node: nodeV("Gemm", 9, abc, y, attrInt("transA", 1)), inputs: shapes1("a", "[3,2]", "b", "[3,4]", "c", "[]"), want: []string{"[2,4]"}},
		{name: "no C", node: nodeV("Gemm", 11, []string{"a", "b"}, y), inputs: shapes1("a", "[2,3]", "b", "[3,4]"), want: []string{"[2,4]"}},
		{name: "C column", node: nodeV("Gemm", 13, abc, y), inputs: shapes1("a", "[2,3]", "b", "[3,4]", "c", "[2,1]"), want: []string{"[2,4]"}},
		{name: "C sets M", node: nodeV("Gemm", 13, abc, y), inputs: shapes1("a", "[M,3]", "b", "[3,4]", "c", "[5,4]"), want: []string{"[5,4]"}},
		{name: "C symbol may be 1", node: nodeV("Gemm", 13, abc, y), inputs: shapes1("a", "[M,3]", "b", "[3,4]", "c", "[P,4]"), want: []string{"[M,4]"}},
		{name: "C mismatch", node: nodeV("Gemm", 13, abc, y), inputs: shapes1("a", "[2,3]", "b", "[3,4]", "c", "[2]"), wantErr: errInvalidShape},
		{name: "Gemm-6 without broadcast", node: nodeV("Gemm", 6, abc, y), inputs: shapes1("a", "[2,3]", "b", "[3,4]", "c", "[4]"), wantErr: errInvalidShape},
		{name: "Gemm-6 broadcast", node: nodeV("Gemm", 6, abc, y, attrInt("broadcast", 1)), inputs: shapes1("a", "[2,3]", "b", "[3,4]", "c", "[4]"), want: []string{"[2,4]"}},
		{name: "Gemm-9 needs C", node: nodeV("Gemm", 9, []string{"a", "b"}, y), inputs: shapes1("a", "[2,3]", "b", "[3,4]"), wantErr: errSyntax},
		{name: "K mismatch", node: nodeV("Gemm", 13, []string{"a", "b"}, y), inputs: shapes1("a", "[2,3]", "b", "[4,4]"), wantErr: errInvalidShape},
		{name: "rank 3", node: nodeV("Gemm", 13, []string{"a", "b"}, y), inputs: shapes1("a", "[2,2,3]", "b", "[3,4]"), wantErr: errInvalidShape},
	})
}

// The equations were checked against onnxruntime 1.20.1: a label broadcasts across inputs (j of
// [2,1] and [3,4]), not within one (a diagonal of [1,3] fails).
func TestEinsumRules(t *testing.T) {
	eq := func(s string) []graph.Attr { return []graph.Attr{attrString("equation", s)} }
	e := func(s string, ins ...string) nodeCase {
		return nodeCase{node: nodeV("Einsum", 12, ins, y, eq(s)...)}
	}
	checkNode(t, []nodeCase{
		with(e("btk,km->btm", "a", "b"), "projection", shapes1("a", "[B,T,6]", "b", "[6,5]"), "[B,T,5]"),
		with(e("bhtd,bhsd->bhts", "a", "b"), "attention scores", shapes1("a", "[B,4,T,16]", "b", "[B,4,S,16]"), "[B,4,T,S]"),
		with(e("...ij->...ji", "a"), "ellipsis transpose", shapes1("a", "[B,T,6]"), "[B,6,T]"),
		with(e("bii->bi", "a"), "diagonal", shapes1("a", "[B,T,T]"), "[B,T]"),
		with(e("bij->bi", "a"), "diagonal unifies", shapes1("a", "[B,T,S]"), "[B,T]"),
		with(e("btk->", "a"), "sum", shapes1("a", "[B,T,6]"), "[]"),
		with(e("ij,jk", "a", "b"), "implicit", shapes1("a", "[M,K]", "b", "[K,N]"), "[M,N]"),
		with(e("ba,ca", "a", "b"), "implicit order", shapes1("a", "[2,3]", "b", "[4,3]"), "[2,4]"),
		with(e("ii", "a"), "implicit trace", shapes1("a", "[3,3]"), "[]"),
		with(e("ij,jk->ik", "a", "b"), "label broadcast", shapes1("a", "[2,1]", "b", "[3,4]"), "[2,4]"),
		with(e("...ij,...jk", "a", "b"), "ellipsis broadcast", shapes1("a", "[5,1,2,3]", "b", "[1,4,3,6]"), "[5,4,2,6]"),
		with(e("i...j,j...k", "a", "b"), "ellipsis inside", shapes1("a", "[2,5,3]", "b", "[3,1,4]"), "[5,2,4]"),
		with(e("ij,...jk->...ik", "a", "b"), "one ellipsis", shapes1("a", "[2,3]", "b", "[B,3,4]"), "[B,2,4]"),
		with(e("...ij->ij", "a"), "empty ellipsis", shapes1("a", "[2,3]"), "[2,3]"),
		with(e("...", "a"), "ellipsis only", shapes1("a", "[3,2]"), "[3,2]"),
		with(e("Ab->bA", "a"), "upper case", shapes1("a", "[3,2]"), "[2,3]"),
		with(e("i j , j k -> i k", "a", "b"), "spaces", shapes1("a", "[2,3]", "b", "[3,4]"), "[2,4]"),
		with(e("ij,jk->ik", "a", "b"), "dynamic rank", shapes1("a", "[...]", "b", "[3,4]"), "[?,4]"),
		with(e("...j,jk", "a", "b"), "dynamic rank ellipsis", shapes1("a", "[...]", "b", "[3,4]"), "[...]"),
		fails(e("ij,ij->i", "a", "b"), "label mismatch", shapes1("a", "[2,3]", "b", "[2,4]"), errInvalidShape),
		fails(e("ii->i", "a"), "diagonal mismatch", shapes1("a", "[1,3]"), errInvalidShape),
		fails(e("ij->ik", "a"), "unknown output label", shapes1("a", "[2,3]"), errInvalidShape),
		fails(e("ij->ii", "a"), "repeated output label", shapes1("a", "[2,3]"), errInvalidShape),
		fails(e("...ij->ij", "a"), "ellipsis dropped", shapes1("a", "[5,2,3]"), errInvalidShape),
		fails(e("...ij,...jk", "a", "b"), "ellipsis lengths", shapes1("a", "[5,1,2,3]", "b", "[4,3,6]"), errInvalidShape),
		fails(e("ij,jk", "a"), "terms", shapes1("a", "[2,3]"), errInvalidShape),
		fails(e("ijk", "a"), "rank", shapes1("a", "[2,3]"), errInvalidShape),
		fails(e("i1", "a"), "character", shapes1("a", "[2,3]"), errSyntax),
	})
}

func with(tc nodeCase, name string, in map[string]string, want string) nodeCase {
	tc.name, tc.inputs, tc.want = name, in, []string{want}
	return tc
}

func fails(tc nodeCase, name string, in map[string]string, err error) nodeCase {
	tc.name, tc.inputs, tc.wantErr = name, in, err
	return tc
}

func TestQuantizeRules(t *testing.T) {
	checkNode(t, []nodeCase{
		{name: "QuantizeLinear", node: nodeV("QuantizeLinear", 13, []string{"x", "s", "z"}, y, attrInt("axis", 1)),
			inputs: shapes1("x", "[N,C,H,W]", "s", "[C]", "z", "[C]"), want: []string{"[N,C,H,W]"}},
		{name: "DequantizeLinear", node: nodeV("DequantizeLinear", 10, []string{"x", "s"}, y), inputs: shapes1("x", "[B,T,64]", "s", "[]"),
			want: []string{"[B,T,64]"}},
		{name: "DynamicQuantizeLinear", node: nodeV("DynamicQuantizeLinear", 11, []string{"x"}, []string{"y", "s", "z"}), inputs: shapes1("x", "[B,T,64]"),
			want: []string{"[B,T,64]", "[]", "[]"}},
		{name: "QuantizeLinear scale missing", node: nodeV("QuantizeLinear", 13, []string{"x"}, y), inputs: shapes1("x", "[B]"), wantErr: errSyntax},
	})
}

func TestMatMulQuantizeTypes(t *testing.T) {
	checkTypes(t, []typeCase{
		{nodeCase{node: nodeV("MatMulInteger", 10, []string{"a", "b"}, y), inputs: shapes1("a", "[2,3]", "b", "[3,4]"),
			types: map[string]element.Type{"a": element.I8, "b": element.I8}}, []element.Type{element.I32}},
		{nodeCase{node: nodeV("QLinearMatMul", 10, []string{"a", "as", "az", "b", "bs", "bz", "ys", "yz"}, y),
			inputs: shapes1("a", "[2,3]", "as", "[]", "az", "[]", "b", "[3,4]", "bs", "[]", "bz", "[]", "ys", "[]", "yz", "[]"),
			types:  map[string]element.Type{"a": element.U8, "az": element.U8, "b": element.I8, "bz": element.I8, "yz": element.I8}},
			[]element.Type{element.I8}},
		{nodeCase{node: nodeV("QuantizeLinear", 13, []string{"x", "s"}, y), inputs: shapes1("x", "[2,3]", "s", "[]")}, []element.Type{element.U8}},
		{nodeCase{node: nodeV("QuantizeLinear", 13, []string{"x", "s", "z"}, y), inputs: shapes1("x", "[2,3]", "s", "[]", "z", "[]"),
			types: map[string]element.Type{"z": element.I8}}, []element.Type{element.I8}},
		{nodeCase{node: nodeV("QuantizeLinear", 21, []string{"x", "s"}, y, attrInt("output_dtype", 3)), inputs: shapes1("x", "[2,3]", "s", "[]")},
			[]element.Type{element.I8}},
		{nodeCase{node: nodeV("DequantizeLinear", 19, []string{"x", "s"}, y), inputs: shapes1("x", "[2,3]", "s", "[]"),
			types: map[string]element.Type{"x": element.I8, "s": element.F16}}, []element.Type{element.F16}},
		{nodeCase{node: nodeV("DynamicQuantizeLinear", 11, []string{"x"}, []string{"y", "s", "z"}), inputs: shapes1("x", "[2,3]")},
			[]element.Type{element.U8, element.F32, element.U8}},
	})
}
