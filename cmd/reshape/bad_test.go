package main

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/reshape-go/reshape/tensor"
)

// badDir holds the bad-input corpus: small files of every format the command reads, each wrong in one
// way. Every file has a row in badInputs; a .bin file is covered by the row of the .xml beside it.
var badDir = filepath.Join("..", "..", "testdata", "bad")

// badFile is one bad file and what the command must answer on it. In args, FILE is the bad file's
// path, IN a valid .npy array of shape [2,3,4] (f32), OUT.npy and OUT.pb the output path in a fresh
// empty directory.
type badFile struct {
	file  string   // the name in testdata/bad
	args  []string // the command line
	exit  int      // 1: an invalid reshape (or a row verdict); 2: a file that cannot be read
	code  string   // the error code printed: "reshape: CODE: ...", or a check row's verdict
	where string   // a substring of the message that names the place: line, offset, field, layer, column
}

// The command lines of the table.
var (
	checkFile      = []string{"check", "FILE"}
	checkRun       = []string{"check", "--run", "FILE"}
	applyNpy       = []string{"apply", "--special-zero=false", "--pattern=-1", "FILE", "OUT.npy"}
	applyNpyToPB   = []string{"apply", "--special-zero=false", "--pattern=-1", "FILE", "OUT.pb"}
	applyPB        = []string{"apply", "--dialect", "onnx", "--pattern=-1", "FILE", "OUT.pb"}
	applyPBToNpy   = []string{"apply", "--dialect", "onnx", "--pattern=-1", "FILE", "OUT.npy"}
	patternFile    = []string{"apply", "--special-zero=false", "--pattern-file", "FILE", "IN", "OUT.npy"}
	patternFileONX = []string{"apply", "--dialect", "onnx", "--pattern-file", "FILE", "IN", "OUT.npy"}
)

var badInputs = []badFile{
	// OpenVINO IR .xml (and .bin)
	{"ir_truncated.xml", checkFile, 2, "syntax", "line 37"},
	{"ir_not_xml.xml", checkFile, 2, "syntax", "line 1"},
	{"ir_json_content.xml", checkFile, 2, "syntax", "line 1: no XML element"},
	{"ir_empty.xml", checkFile, 2, "syntax", "line 1"},
	{"ir_wrong_root.xml", checkFile, 2, "syntax", "line 2: root element <model>"},
	{"ir_version_7.xml", checkFile, 2, "syntax", `line 2: <net version="7">`},
	{"ir_version_missing.xml", checkFile, 2, "syntax", `line 2: <net version="">`},
	{"ir_encoding_utf16.xml", checkFile, 2, "syntax", "line 1"},
	{"ir_entity_bomb.xml", checkFile, 2, "syntax", "line 34"},
	{"ir_deep_nesting.xml", checkFile, 2, "syntax", "line 4"},
	{"ir_non_utf8_name.xml", checkFile, 2, "syntax", "line 22"},
	{"ir_duplicate_ids.xml", checkFile, 2, "syntax", `line 41: layer id "1"`},
	{"ir_layer_no_id.xml", checkFile, 2, "syntax", "line 41"},
	{"ir_port_no_id.xml", checkFile, 2, "syntax", "line 35"},
	{"ir_edge_missing_layer.xml", checkFile, 2, "syntax", `edge 1: from-layer "42"`},
	{"ir_edge_missing_port.xml", checkFile, 2, "syntax", `edge 1: layer "2" (line 22) has no input port "7"`},
	{"ir_edge_no_to_port.xml", checkFile, 2, "syntax", "line 53"},
	{"ir_edge_two_feeders.xml", checkFile, 2, "syntax", `edges 1 and 3 both feed input port "1" of layer "2"`},
	{"ir_pattern_unfed.xml", checkFile, 2, "syntax", `Reshape layer "2" ("reshape", line 22)`},
	{"ir_reshape_one_input.xml", checkFile, 2, "syntax", `Reshape layer "2" ("reshape", line 22)`},
	{"ir_no_special_zero.xml", checkFile, 2, "syntax", `Reshape layer "2" ("reshape", line 22)`},
	{"ir_special_zero_maybe.xml", checkFile, 2, "syntax", `Reshape layer "2" ("reshape", line 22): special_zero="maybe"`},
	{"ir_dim_text.xml", checkFile, 2, "syntax", "line 9"},
	{"ir_dim_negative.xml", checkFile, 2, "syntax", "line 9"},
	{"ir_dim_overflow.xml", checkFile, 2, "overflow", "line 9"},
	{"ir_dim_element_inside.xml", checkFile, 2, "syntax", "line 9"},
	{"ir_const_unknown_type.xml", checkFile, 2, "syntax", `Const layer "1" ("pattern", line 14): element_type`},
	{"ir_const_no_offset.xml", checkFile, 2, "syntax", `Const layer "1" ("pattern", line 14)`},
	{"ir_const_negative_offset.xml", checkFile, 2, "syntax", `Const layer "1" ("pattern", line 14): offset="-8"`},
	{"ir_const_offset_past_end.xml", checkFile, 2, "syntax", "offset 4096"},
	{"ir_const_size_mismatch.xml", checkFile, 2, "syntax", `Const layer "1" ("pattern", line 14): size=12`},
	{"ir_const_shape_overflow.xml", checkFile, 2, "overflow", `Const layer "1" ("pattern", line 14)`},
	{"ir_const_volume_overflow.xml", checkFile, 2, "overflow", `Const layer "1" ("pattern", line 14)`},
	{"ir_const_shape_dynamic.xml", checkFile, 2, "syntax", `Const layer "1" ("pattern", line 14)`},
	{"ir_truncated_bin.xml", checkFile, 2, "syntax", "offset 0 + size 16"},
	{"ir_run_data_past_end.xml", checkRun, 2, "syntax", "offset 16 + size 48"},
	{"ir_pattern_1e9.xml", checkFile, 2, "syntax", `Const layer "1" ("pattern", line 14): ../../testdata/bad/ir_pattern_1e9.bin: offset 0 + size 8000000000 is past the end of the file`},
	{"ir_pattern_u64_overflow.xml", checkFile, 1, "invalid-dim", "pattern[1] = -9223372036854775808"}, // u64 2^63 wraps, as OpenVINO reads it
	{"ir_pattern_f32.xml", checkFile, 1, "pattern-type", "Reshape 2 (reshape)"},
	{"ir_shape_cycle.xml", checkFile, 2, "syntax", `line 29: the edges form a cycle through Concat layer "5" ("concat", line 29)`},
	{"ir_shape_cycle_self.xml", checkFile, 2, "syntax", `line 29: the edges form a cycle through Concat layer "5" ("concat", line 29)`},
	{"ir_shape_cycle_shapeof.xml", checkFile, 2, "syntax", `line 14: the edges form a cycle through ShapeOf layer "4"`},
	{"ir_shape_gather_out_of_range.xml", checkFile, 1, "invalid-shape", `Gather 5 (op): index 7`},
	{"ir_shape_gather_bad_axis.xml", checkFile, 1, "invalid-shape", `Gather 5 (op): axis 3 is out of range`},
	{"ir_shape_divide_by_zero.xml", checkFile, 1, "invalid-shape", `Divide 5 (op): integer division by zero`},
	{"ir_shape_multiply_overflow.xml", checkFile, 1, "overflow", `Multiply 5 (op): 2 Multiply`},
	{"ir_shape_slice_zero_stride.xml", checkFile, 1, "invalid-shape", `StridedSlice 5 (op): the stride of step 0 is 0`},
	{"ir_shape_concat_bad_axis.xml", checkFile, 1, "invalid-shape", `Concat 5 (op): axis 5 is out of range`},
	{"ir_shape_concat_axis_text.xml", checkFile, 1, "syntax", `Concat 5 (op): attribute axis="zero" is not an integer`},
	{"ir_shape_squeeze_bad_axis.xml", checkFile, 1, "invalid-shape", `Squeeze 5 (op): axis 4 is out of range`},
	{"ir_shape_reduce_bad_axis.xml", checkFile, 1, "invalid-shape", `ReduceProd 5 (op): axis 9 is out of range`},
	{"ir_shape_add_broadcast.xml", checkFile, 1, "invalid-shape", `Add 5 (op): input 1: dim 2 does not broadcast with 3`},

	// oneDNN Graph .json
	{"dnnl_truncated.json", checkFile, 2, "syntax", "offset "},
	{"dnnl_not_json.json", checkFile, 2, "syntax", "offset 1"},
	{"dnnl_empty.json", checkFile, 2, "syntax", "empty file"},
	{"dnnl_data_after.json", checkFile, 2, "syntax", "offset "},
	{"dnnl_no_graph.json", checkFile, 2, "syntax", `no "graph" array`},
	{"dnnl_graph_object.json", checkFile, 2, "syntax", `offset 36: field "graph"`},
	{"dnnl_string_id.json", checkFile, 2, "syntax", `offset 170: field "graph.id"`},
	{"dnnl_float_shape.json", checkFile, 2, "syntax", `offset 564: field "graph.inputs.shape"`},
	{"dnnl_huge_id.json", checkFile, 2, "overflow", `field "graph.id"`},
	{"dnnl_huge_exponent.json", checkFile, 2, "syntax", `offset 826: field "graph.outputs.id"`},
	{"dnnl_huge_shape_attr.json", checkFile, 2, "overflow", `StaticReshape 1 ("reshape"): shape`},
	{"dnnl_deep_nesting.json", checkFile, 2, "syntax", "offset 10030"},
	{"dnnl_no_special_zero.json", checkFile, 2, "syntax", `StaticReshape 1 ("reshape"): no special_zero`},
	{"dnnl_no_shape_attr.json", checkFile, 2, "syntax", `StaticReshape 1 ("reshape"): no shape`},
	{"dnnl_bad_bool.json", checkFile, 2, "syntax", `StaticReshape 1 ("reshape"): special_zero`},
	{"dnnl_shape_attr_string.json", checkFile, 2, "syntax", `StaticReshape 1 ("reshape"): shape`},
	{"dnnl_shape_attr_minus5.json", checkFile, 1, "invalid-dim", "pattern[1] = -5"},
	{"dnnl_tensor_dim_minus5.json", checkFile, 2, "syntax", `StaticReshape 1 ("reshape"): logical tensor 0: shape[1] = -5`},
	{"dnnl_dynamic_one_input.json", checkFile, 2, "syntax", `DynamicReshape 1 ("reshape")`},
	{"dnnl_no_outputs.json", checkFile, 2, "syntax", `StaticReshape 1 ("reshape")`},

	// ONNX .onnx
	{"onnx_empty.onnx", checkFile, 2, "syntax", "empty file"},
	{"onnx_random_bytes.onnx", checkFile, 2, "syntax", "at offset 0"},
	{"onnx_truncated_varint.onnx", checkFile, 2, "syntax", "ModelProto.ir_version: truncated varint at offset 1"},
	{"onnx_length_past_end.onnx", checkFile, 2, "syntax", "ModelProto.graph: length 1000 past the end (40 bytes left) at offset 3"},
	{"onnx_truncated.onnx", checkFile, 2, "syntax", "ModelProto.graph: length 123 past the end (109 bytes left) at offset 19"},
	{"onnx_wrong_wire_type.onnx", checkFile, 2, "syntax", "ModelProto.ir_version: wire type length-delimited, want varint at offset 0"},
	{"onnx_dims_packed_2e40.onnx", checkFile, 2, "syntax", "TensorProto.dims: length 1099511627776 past the end (4 bytes left) at offset 14"},
	{"onnx_initializer_2e40.onnx", checkFile, 2, "syntax", `GraphProto.initializer[0]: tensor "shape": TensorProto.raw_data holds 16 bytes`},
	{"onnx_external_data.onnx", checkFile, 2, "syntax", `tensor "shape": external data ../../testdata/bad/weights.bin: no such file or directory`},
	{"onnx_no_opset.onnx", checkFile, 2, "syntax", "imports no opset"},
	{"onnx_allowzero_opset13.onnx", checkFile, 2, "syntax", `node 0 ("reshape", Reshape): allowzero`},
	{"onnx_reshape_no_inputs.onnx", checkFile, 2, "syntax", `node 0 ("reshape", Reshape): 0 inputs`},
	{"onnx_reshape_one_input.onnx", checkFile, 2, "syntax", `node 0 ("reshape", Reshape)`},
	{"onnx_reshape1_no_shape.onnx", checkFile, 2, "syntax", `node 0 ("reshape", Reshape)`},
	{"onnx_negative_dim.onnx", checkFile, 2, "syntax", "GraphProto.input[0]: TensorShapeProto.dim[1]"},
	{"onnx_dim_int64_max.onnx", checkFile, 1, "overflow", "the volume of [2,9223372036854775807,4] overflows int64"},
	{"onnx_pattern_cycle.onnx", checkFile, 2, "syntax", `node 0 ("concat", Concat) is on a cycle`},
	{"onnx_shape_div_zero.onnx", checkFile, 1, "invalid-shape", `Div 1 (op): integer division by zero`},
	{"onnx_shape_gather_out_of_range.onnx", checkFile, 1, "invalid-shape", `Gather 1 (op): index 9`},
	{"onnx_shape_slice_step0.onnx", checkFile, 1, "invalid-shape", `Slice 1 (op): steps[0] is 0`},
	{"onnx_shape_mul_overflow.onnx", checkFile, 1, "overflow", `Mul 1 (op): 2 Mul`},

	// ONNX graphs that inference refuses (graph's badCases write them: go test ./graph -run TestBadFiles -update)
	{"onnx_graph_add_one_input.onnx", checkFile, 1, "syntax", `Add 0 (add): input 1 is missing`},
	{"onnx_graph_cast_to_string.onnx", checkFile, 1, "syntax", `Cast 0 (cast): attribute to is STRING, want INT`},
	{"onnx_graph_concat_axis_floats.onnx", checkFile, 1, "syntax", `Concat 0 (concat): attribute axis is FLOATS, want INT`},
	{"onnx_graph_concat_doubling.onnx", checkFile, 1, "overflow", `Concat 62 (concat62): input 1: the dims along axis 0 add up past int64`},
	{"onnx_graph_concat_no_inputs.onnx", checkFile, 1, "syntax", `Concat 0 (concat): Concat has no inputs`},
	{"onnx_graph_concat_sum_overflow.onnx", checkFile, 1, "overflow", `Concat 0 (concat): input 1: the dims along axis 0 add up past int64`},
	{"onnx_graph_constant_value_graph.onnx", checkFile, 1, "syntax", `Constant 0 (const): attribute value is GRAPH, want TENSOR`},
	{"onnx_graph_cycle.onnx", checkFile, 2, "syntax", `graph: node 0 ("a", Relu) is on a cycle`},
	{"onnx_graph_cycle_self.onnx", checkFile, 2, "syntax", `graph: node 0 ("a", Add) is on a cycle`},
	{"onnx_graph_cycle_through_subgraph.onnx", checkFile, 2, "syntax", `graph: node 0 ("if", If) is on a cycle`},
	{"onnx_graph_flatten_overflow.onnx", checkFile, 1, "overflow", `Flatten 0 (flatten): the product of dims 0 to 1 of [4611686018427387904,8] overflows int64`},
	{"onnx_graph_gather_one_input.onnx", checkFile, 1, "syntax", `Gather 0 (gather): input 1 is missing`},
	{"onnx_graph_gather_three_inputs.onnx", checkFile, 1, "syntax", `Gather 0 (gather): 3 inputs, and Gather takes at most 2`},
	{"onnx_graph_if_branch_outputs.onnx", checkFile, 1, "syntax", `If 0 (if): then_branch has 1 outputs, else_branch 2`},
	{"onnx_graph_loop_body_inputs.onnx", checkFile, 1, "syntax", `Loop 0 (loop): the body has 2 inputs, want 3`},
	{"onnx_graph_loop_body_outputs.onnx", checkFile, 1, "syntax", `Loop 0 (loop): the body has 1 outputs, want at least 2`},
	{"onnx_graph_lstm_four_outputs.onnx", checkFile, 1, "syntax", `LSTM 0 (lstm): 4 outputs, and LSTM has at most 3`},
	{"onnx_graph_maxpool_three_outputs.onnx", checkFile, 1, "syntax", `MaxPool 0 (pool): 3 outputs, and MaxPool has at most 2`},
	{"onnx_graph_nested_if_100.onnx", checkFile, 2, "limit", `GraphProto.node[0]: NodeProto.attribute[0]: AttributeProto.g`},
	{"onnx_graph_nested_loop_20.onnx", checkFile, 2, "limit", `top/body/loop20/body/loop19/body/`},
	{"onnx_graph_output_is_initializer.onnx", checkFile, 2, "syntax", `graph: node 0 ("relu", Relu) outputs "p", which is an input or constant of the graph`},
	{"onnx_graph_output_is_input.onnx", checkFile, 2, "syntax", `graph: node 0 ("relu", Relu) outputs "x", which is an input or constant of the graph`},
	{"onnx_graph_range_1e6.onnx", checkFile, 1, "limit", `Reshape-14 1 (reshape): reshape (Reshape): output rank 1000000 exceeds the limit of 64`},
	{"onnx_graph_range_two_inputs.onnx", checkFile, 1, "syntax", `Range 0 (range): input 2 is missing`},
	{"onnx_graph_reshape_overflow.onnx", checkFile, 1, "overflow", `Reshape-14 0 (reshape): reshape (Reshape): the volume of [4611686018427387904,8] overflows int64`},
	{"onnx_graph_reshape_pattern_1e6.onnx", checkFile, 1, "limit", `Reshape-14 1 (reshape): reshape (Reshape): output rank 1000000 exceeds the limit of 64`},
	{"onnx_graph_shape_mul_overflow.onnx", checkFile, 1, "overflow", `Mul 1 (mul): 9223372036854775807 Mul 2 overflows int64`},
	{"onnx_graph_shape_no_input.onnx", checkFile, 1, "syntax", `Shape 0 (shape): input 0 is missing`},
	{"onnx_graph_transpose_perm_string.onnx", checkFile, 1, "syntax", `Transpose 0 (transpose): attribute perm is STRING, want INTS`},
	{"onnx_graph_two_producers.onnx", checkFile, 2, "syntax", `graph: node 1 ("abs", Abs) outputs "y", which node 0 ("relu") outputs already`},
	{"onnx_graph_undefined_in_subgraph.onnx", checkFile, 2, "syntax", `graph: node 0 ("if", If): a subgraph reads "nowhere", which nothing defines`},
	{"onnx_graph_undefined_input.onnx", checkFile, 2, "syntax", `graph: node 1 ("add", Add): input 1 reads "nowhere", which nothing defines`},
	{"onnx_graph_undefined_output.onnx", checkFile, 2, "syntax", `graph: output "nowhere": nothing defines it`},
	{"onnx_graph_unsqueeze_axes_int.onnx", checkFile, 1, "syntax", `Unsqueeze 0 (unsqueeze): attribute axes is INT, want INTS`},

	// TensorProto .pb
	{"pb_empty.pb", applyPB, 2, "syntax", "empty file"},
	{"pb_truncated.pb", applyPBToNpy, 2, "syntax", "TensorProto.raw_data: length 96 past the end (66 bytes left) at offset 12"},
	{"pb_dims_data_mismatch.pb", applyPB, 2, "syntax", `tensor "x": TensorProto.raw_data holds 24 bytes`},
	{"pb_unknown_data_type.pb", applyPB, 2, "data-type", `tensor "x": ONNX data type DataType(99)`},
	{"pb_string_data.pb", applyPBToNpy, 2, "data-type", `tensor "x": STRING values have no fixed width`},
	{"pb_external_data.pb", applyPB, 2, "syntax", `tensor "x": external data ../../testdata/bad/x.bin: no such file or directory`},
	{"pb_negative_dim.pb", applyPB, 2, "syntax", "TensorProto.dims: dims[0] = -3"},
	{"pb_wrong_wire_type.pb", applyPB, 2, "syntax", "TensorProto.data_type: wire type length-delimited"},
	{"pb_values_wrong_field.pb", applyPB, 2, "syntax", `tensor "x": TensorProto.float_data`},
	{"pb_segment.pb", applyPB, 2, "syntax", "TensorProto.segment"},
	{"pb_pattern_truncated.pb", patternFileONX, 2, "syntax", "TensorProto.raw_data: length 16 past the end"},
	{"pb_pattern_float.pb", patternFileONX, 1, "pattern-type", "pattern element type f32"},
	{"pb_pattern_2d.pb", patternFileONX, 1, "pattern-rank", "shape [1,2]"},
	{"pb_pattern_u64_overflow.pb", patternFile, 1, "overflow", "element 1"},

	// NumPy .npy
	{"npy_empty.npy", applyNpy, 2, "syntax", "offset 0: empty file"},
	{"npy_bad_magic.npy", applyNpy, 2, "syntax", "offset 0: not a .npy file"},
	{"npy_truncated_magic.npy", applyNpy, 2, "syntax", "offset 0: 4 bytes"},
	{"npy_version_4.npy", applyNpy, 2, "syntax", "offset 6: format version 4.0"},
	{"npy_truncated_header_len.npy", applyNpy, 2, "syntax", "offset 8: truncated header length"},
	{"npy_header_len_past_end.npy", applyNpy, 2, "syntax", "offset 10: the header says 1000 bytes, the file holds 50"},
	{"npy_header_over_1mib.npy", applyNpy, 2, "limit", "offset 8: a header of 1048577 bytes"},
	{"npy_lying_shape.npy", applyNpy, 2, "syntax", "offset 128: shape [1000,1000] of <f4 takes 4000000 bytes"},
	{"npy_lying_shape_fortran.npy", applyNpyToPB, 2, "syntax", "offset 128: shape [1000,1000] of <f4 takes 4000000 bytes"},
	{"npy_trailing_data.npy", applyNpy, 2, "syntax", "offset 128: shape [2,3] of <f4 takes 24 bytes of data, the file holds 31"},
	{"npy_shape_overflow.npy", applyNpy, 2, "overflow", "offset 10"},
	{"npy_dim_overflow.npy", applyNpyToPB, 2, "overflow", "offset 10"},
	{"npy_rank_65.npy", applyNpy, 2, "limit", "offset 10"},
	{"npy_negative_dim.npy", applyNpy, 2, "syntax", "column 52"},
	{"npy_complex_c8.npy", applyNpyToPB, 2, "data-type", "dtype <c8 has no element type: only a .npy output can hold it"},
	{"npy_object.npy", applyNpy, 2, "data-type", `dtype "|O": object arrays hold Python objects that np.save pickles`},
	{"npy_structured.npy", applyNpyToPB, 2, "data-type", "has no element type: only a .npy output can hold it"},
	{"npy_pipe_multibyte.npy", applyNpy, 2, "syntax", `dtype "|f4"`},
	{"npy_missing_key.npy", applyNpy, 2, "syntax", `no "fortran_order" key`},
	{"npy_extra_key.npy", applyNpy, 2, "syntax", "offset 10"},
	{"npy_header_duplicate_key.npy", applyNpy, 2, "syntax", "column 25"},
	{"npy_header_unclosed.npy", applyNpy, 2, "syntax", "column 58"},
	{"npy_header_unterminated_string.npy", applyNpy, 2, "syntax", "column 18"},
	{"npy_header_bad_bool.npy", applyNpy, 2, "syntax", "column 35"},
	{"npy_header_shape_list.npy", applyNpy, 2, "syntax", "offset 10: header"},
	{"npy_header_shape_float.npy", applyNpy, 2, "syntax", "column 53"},
	{"npy_header_text_after.npy", applyNpy, 2, "syntax", "column 61"},
	{"npy_pattern_lying_shape.npy", patternFile, 2, "syntax", "offset 128: shape [100] of <i8 takes 800 bytes"},
	{"npy_pattern_float.npy", patternFile, 1, "pattern-type", "pattern element type f32"},
	{"npy_pattern_2d.npy", patternFile, 1, "pattern-rank", "shape [1,2]"},
	{"npy_pattern_scalar.npy", patternFileONX, 1, "pattern-rank", "scalar pattern: onnx takes a 1-D pattern"},
}

// TestBadInput runs the command on every file of testdata/bad and checks that it fails as it must:
// the exit status, the error code, a message naming the file and the place, no panic, and for apply
// nothing left where the output would go.
func TestBadInput(t *testing.T) {
	entries, err := os.ReadDir(badDir)
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]bool{}
	for _, tt := range badInputs {
		if rows[tt.file] {
			t.Errorf("%s: two rows", tt.file)
		}
		rows[tt.file] = true
	}
	for _, e := range entries {
		name := e.Name()
		covered := rows[name]
		if filepath.Ext(name) == ".bin" {
			covered = covered || rows[strings.TrimSuffix(name, ".bin")+".xml"]
		}
		if !covered {
			t.Errorf("%s: a file of testdata/bad without a row in badInputs", name)
		}
	}

	tmp := t.TempDir()
	in := filepath.Join(tmp, "in.npy")
	x, _ := tensor.FromSlice(make([]float32, 24), 2, 3, 4)
	writeNpy(t, in, x)

	for i, tt := range badInputs {
		path := filepath.Join(badDir, tt.file)
		if _, err := os.Stat(path); err != nil {
			t.Errorf("%s: a row without a file: %v", tt.file, err)
			continue
		}
		outDir := filepath.Join(tmp, fmt.Sprintf("out%d", i))
		if err := os.Mkdir(outDir, 0o755); err != nil {
			t.Fatal(err)
		}
		args := make([]string, len(tt.args))
		var out string
		for j, a := range tt.args {
			switch a {
			case "FILE":
				a = path
			case "IN":
				a = in
			case "OUT.npy", "OUT.pb":
				a = filepath.Join(outDir, "out"+filepath.Ext(a))
				out = a
			}
			args[j] = a
		}
		code, stdout, stderr, panicked := cliGuarded(t, tt.file, args)
		if panicked != "" {
			t.Errorf("%s: reshape %q panicked: %s", tt.file, args, panicked)
			continue
		}
		if code != tt.exit {
			t.Errorf("%s: reshape %s: exit %d, want %d\nstdout: %s\nstderr: %s", tt.file, strings.Join(args, " "), code, tt.exit, stdout, stderr)
		}
		for _, s := range []string{stdout, stderr} {
			if strings.Contains(s, "goroutine ") || strings.Contains(s, "panic:") {
				t.Errorf("%s: a Go panic trace in the output:\n%s", tt.file, s)
			}
		}
		msg, ok := reported(args[0], path, tt.code, stdout, stderr)
		switch {
		case !ok:
			t.Errorf("%s: reshape %s: no %q error printed\nstdout: %s\nstderr: %s", tt.file, strings.Join(args, " "), tt.code, stdout, stderr)
		case !strings.Contains(msg, path):
			t.Errorf("%s: the message does not name the file %s: %s", tt.file, path, msg)
		case !strings.Contains(strings.ReplaceAll(msg, path, "FILE"), tt.where):
			t.Errorf("%s: the message does not name the place %q: %s", tt.file, tt.where, msg)
		}
		if out == "" {
			continue
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%s: reshape %s left %s", tt.file, strings.Join(args, " "), out)
		}
		if left, _ := os.ReadDir(outDir); len(left) > 0 {
			names := make([]string, len(left))
			for j, e := range left {
				names[j] = e.Name()
			}
			if !slices.Equal(names, []string{filepath.Base(out)}) {
				t.Errorf("%s: reshape %s left files in the output directory: %q", tt.file, strings.Join(args, " "), names)
			}
		}
	}
}

// cliGuarded runs the command line as cli does, turning a panic into its value and stack and a run
// that does not end into a test failure that names the file.
func cliGuarded(t *testing.T, file string, args []string) (code int, stdout, stderr, panicked string) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() {
			if r := recover(); r != nil {
				panicked = fmt.Sprintf("%v\n%s", r, debug.Stack())
			}
		}()
		code, stdout, stderr = cli("", args...)
	}()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("%s: reshape %q still runs after 30s: it hangs", file, args)
	}
	return code, stdout, stderr, panicked
}

// reported returns the message that reports the error code for the file at path: the stderr line
// "reshape: CODE: ...", or for check the message line of a row whose verdict is CODE ("PATH: Reshape
// ID (NAME): message", after the table).
func reported(command, path, code, stdout, stderr string) (msg string, ok bool) {
	for line := range strings.Lines(stderr) {
		if strings.HasPrefix(line, "reshape: "+code+": ") {
			return line, true
		}
	}
	if command != "check" {
		return "", false
	}
	verdict := false
	for line := range strings.Lines(stdout) {
		f := strings.Fields(line)
		if len(f) > 0 && strings.HasPrefix(line, path+" ") && f[len(f)-1] == code {
			verdict = true
		}
	}
	if !verdict {
		return "", false
	}
	for line := range strings.Lines(stdout) {
		if strings.HasPrefix(line, path+": ") {
			return line, true
		}
	}
	return "", false
}
