package graph_test

import (
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
)

func TestOVSelectionLayers(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "nms 4 padded", op: "NonMaxSuppression", version: 4, attrs: "output_type=i32",
			ins: []ovIn{ovParam("[2,7,4]"), ovParam("[2,5,7]"), ovScalar(3)}, want: []string{"[30,3]"}},
		{name: "nms 1 symbols", op: "NonMaxSuppression", ins: []ovIn{ovParam("[B,N,4]"), ovParam("[B,C,N]"), ovScalar(3)},
			want: []string{"[B*C*min(N,3),3]"}},
		{name: "nms 1 without max", op: "NonMaxSuppression", ins: []ovIn{ovParam("[B,N,4]"), ovParam("[B,C,N]")}, want: []string{"[0,3]"}},
		{name: "nms 9", runTime: "the count of boxes selected", op: "NonMaxSuppression", version: 9, ins: []ovIn{ovParam("[2,7,4]"), ovParam("[2,5,7]"), ovScalar(1000)},
			want: []string{"[..70,3]", "[..70,3]", "[1]"}},
		{name: "nms 9 without max", runTime: "the count of boxes selected", op: "NonMaxSuppression", version: 9, ins: []ovIn{ovParam("[2,7,4]"), ovParam("[2,5,7]")},
			want: []string{"[?,3]", "[?,3]", "[1]"}},
		{name: "nms boxes", op: "NonMaxSuppression", version: 5, ins: []ovIn{ovParam("[1,2,3]"), ovParam("[1,2,2]")},
			want: []string{"", "", ""}, wantErr: errcode.ErrInvalidShape},
		{name: "nms 3 scalar", op: "NonMaxSuppression", version: 3, ins: []ovIn{ovParam("[1,2,4]"), ovParam("[1,2,2]"), ovInts(3)},
			wantErr: errcode.ErrInvalidShape},
		{name: "nms rotated", runTime: "the count of boxes selected", op: "NMSRotated", version: 13, ins: []ovIn{ovParam("[1,6,5]"), ovParam("[1,2,6]"), ovScalar(2), ovScalarF(0.5), ovScalarF(0)},
			want: []string{"[..4,3]", "[..4,3]", "[1]"}},
		{name: "matrix nms", runTime: "the count of boxes selected", op: "MatrixNms", version: 8, attrs: "nms_top_k=3 keep_top_k=5",
			ins: []ovIn{ovParam("[2,10,4]"), ovParam("[2,4,10]")}, want: []string{"[..10,6]", "[..10,1]", "[2]"}},
		{name: "multiclass nms roisnum", runTime: "the count of boxes selected", op: "MulticlassNms", version: 9, attrs: "nms_top_k=-1 keep_top_k=-1",
			ins: []ovIn{ovParam("[3,10,4]"), ovParam("[3,10]"), ovParam("[B]")}, want: []string{"[?,6]", "[?,1]", "[B]"}},
		{name: "generate proposals", runTime: "the count of proposals kept", op: "GenerateProposals", version: 9, attrs: "post_nms_count=100 roi_num_type=i32",
			ins:  []ovIn{ovParam("[N,3]"), ovParam("[H,W,A,4]"), ovParam("[N,12,H,W]"), ovParam("[N,3,H,W]")},
			want: []string{"[?,4]", "[?]", "[N]"}},
		{name: "generate proposals deltas", op: "GenerateProposals", version: 9, attrs: "post_nms_count=100",
			ins:  []ovIn{ovParam("[N,3]"), ovParam("[H,W,3,4]"), ovParam("[N,11,H,W]"), ovParam("[N,3,H,W]")},
			want: []string{"", "", ""}, wantErr: errcode.ErrInvalidShape},
		{name: "ed proposals", op: "ExperimentalDetectronGenerateProposalsSingleImage", version: 6, attrs: "post_nms_count=1000",
			ins: []ovIn{ovParam("[3]"), ovParam("[R,4]"), ovParam("[12,H,W]"), ovParam("[3,H,W]")}, want: []string{"[1000,4]", "[1000]"}},
		{name: "ed detection output", op: "ExperimentalDetectronDetectionOutput", version: 6, attrs: "max_detections_per_image=100 num_classes=81",
			ins: []ovIn{ovParam("[R,4]"), ovParam("[R,324]"), ovParam("[R,81]"), ovParam("[1,3]")}, want: []string{"[100,4]", "[100]", "[100]"}},
		{name: "ed prior grid", op: "ExperimentalDetectronPriorGridGenerator", version: 6, attrs: "flatten=true",
			ins: []ovIn{ovParam("[3,4]"), ovParam("[1,256,H,W]"), ovParam("[1,3,800,1344]")}, want: []string{"[3*H*W,4]"}},
		{name: "ed roi features", op: "ExperimentalDetectronROIFeatureExtractor", version: 6, attrs: "output_size=7",
			ins: []ovIn{ovParam("[R,4]"), ovParam("[1,256,200,336]"), ovParam("[1,256,100,168]")}, want: []string{"[R,256,7,7]", "[R,4]"}},
		{name: "ed roi features channels", op: "ExperimentalDetectronROIFeatureExtractor", version: 6, attrs: "output_size=7",
			ins: []ovIn{ovParam("[R,4]"), ovParam("[1,256,200,336]"), ovParam("[1,128,100,168]")}, wantErr: errcode.ErrInvalidShape},
		{name: "ed top k rois", op: "ExperimentalDetectronTopKROIs", version: 6, attrs: "max_rois=1000",
			ins: []ovIn{ovParam("[R,4]"), ovParam("[R]")}, want: []string{"[1000,4]"}},
	})
}

func TestOVSignalLayers(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "dft", op: "DFT", version: 7, ins: []ovIn{ovParam("[N,H,W,2]"), ovInts(1, 2)}, want: []string{"[N,H,W,2]"}},
		{name: "dft signal size", op: "DFT", version: 7, ins: []ovIn{ovParam("[N,H,W,2]"), ovInts(-2, -1), ovInts(-1, 64)},
			want: []string{"[N,H,64,2]"}},
		{name: "dft complex", op: "DFT", version: 7, ins: []ovIn{ovParam("[N,H,W,3]"), ovInts(1)}, wantErr: errcode.ErrInvalidShape},
		{name: "idft axis", op: "IDFT", version: 7, ins: []ovIn{ovParam("[N,H,2]"), ovInts(2)}, wantErr: errcode.ErrInvalidShape},
		{name: "rdft", op: "RDFT", version: 9, ins: []ovIn{ovParam("[N,T]"), ovInts(1)}, want: []string{"[N,T//2+1,2]"}},
		{name: "rdft signal size", op: "RDFT", version: 9, ins: []ovIn{ovParam("[N,T]"), ovInts(1), ovInts(16)}, want: []string{"[N,9,2]"}},
		{name: "irdft", op: "IRDFT", version: 9, ins: []ovIn{ovParam("[N,F,2]"), ovInts(1)}, want: []string{"[N,2*F-2]"}},
		{name: "irdft signal size", op: "IRDFT", version: 9, ins: []ovIn{ovParam("[N,F,2]"), ovInts(1), ovInts(30)}, want: []string{"[N,30]"}},
		{name: "stft", op: "STFT", version: 15, attrs: "transpose_frames=true", ins: []ovIn{ovParam("[B,T]"), ovParam("[16]"), ovScalar(16), ovScalar(4)},
			want: []string{"[B,9,T//4-3,2]"}},
		{name: "stft frames", op: "STFT", version: 15, attrs: "transpose_frames=false", ins: []ovIn{ovParam("[48]"), ovParam("[16]"), ovScalar(16), ovScalar(16)},
			want: []string{"[3,9,2]"}},
		{name: "stft window", op: "STFT", version: 15, ins: []ovIn{ovParam("[48]"), ovParam("[17]"), ovScalar(16), ovScalar(16)}, wantErr: errcode.ErrInvalidShape},
		{name: "stft signal", op: "STFT", version: 15, ins: []ovIn{ovParam("[8]"), ovParam("[16]"), ovScalar(16), ovScalar(4)}, wantErr: errcode.ErrInvalidShape},
		{name: "istft", op: "ISTFT", version: 16, attrs: "center=false normalized=false",
			ins: []ovIn{ovParam("[B,9,F,2]"), ovParam("[16]"), ovScalar(16), ovScalar(4)}, want: []string{"[B,4*F+12]"}},
		{name: "istft length", op: "ISTFT", version: 16, attrs: "center=true",
			ins: []ovIn{ovParam("[9,F,2]"), ovParam("[16]"), ovScalar(16), ovScalar(4), ovScalar(100)}, want: []string{"[100]"}},
		{name: "nv12 one plane", op: "NV12toRGB", version: 8, ins: []ovIn{ovParam("[N,720,640,1]")}, want: []string{"[N,480,640,3]"}},
		{name: "nv12 two planes", op: "NV12toBGR", version: 8, ins: []ovIn{ovParam("[N,H,W,1]"), ovParam("[N,240,320,2]")},
			want: []string{"[N,480,640,3]"}},
		{name: "i420 three planes", op: "I420toRGB", version: 8, ins: []ovIn{ovParam("[1,480,640,1]"), ovParam("[1,240,320,1]"), ovParam("[1,240,320,1]")},
			want: []string{"[1,480,640,3]"}},
		{name: "i420 odd", op: "I420toBGR", version: 8, ins: []ovIn{ovParam("[1,8,640,1]")}, wantErr: errcode.ErrInvalidShape},
	})
}

func TestOVMiscLayers(t *testing.T) {
	checkOV(t, []ovCase{
		{name: "eye", op: "Eye", version: 9, attrs: "output_type=f32", ins: []ovIn{ovScalar(3), ovScalar(4), ovScalar(0), ovInts(2, 5)},
			want: []string{"[2,5,3,4]"}},
		{name: "eye rows", op: "Eye", version: 9, attrs: "output_type=f32", ins: []ovIn{ovScalar(-3), ovScalar(4), ovScalar(0)}, wantErr: errcode.ErrInvalidShape},
		{name: "random uniform", op: "RandomUniform", version: 8, attrs: "output_type=f32", ins: []ovIn{ovShapeOf("[N,3]"), ovScalarF(0), ovScalarF(1)},
			want: []string{"[N,3]"}},
		{name: "multinomial", op: "Multinomial", version: 13, attrs: "convert_type=i32", ins: []ovIn{ovParam("[B,C]"), ovScalar(5)},
			want: []string{"[B,5]"}},
		{name: "multinomial rank", op: "Multinomial", version: 13, attrs: "convert_type=i32", ins: []ovIn{ovParam("[B,C,D]"), ovScalar(5)},
			wantErr: errcode.ErrInvalidShape},
		{name: "fake convert", op: "FakeConvert", version: 13, attrs: "destination_type=f8e4m3", ins: []ovIn{ovParam("[N,C]"), ovParam("[1,C]"), ovParam("[1,C]")},
			want: []string{"[N,C]"}},
		{name: "fake convert type", op: "FakeConvert", version: 13, attrs: "destination_type=f16", ins: []ovIn{ovParam("[N,C]"), ovParam("[]")},
			wantErr: errcode.ErrSyntax},
		{name: "convert promote types", op: "ConvertPromoteTypes", version: 14, ins: []ovIn{ovParam("[N,3]"), ovInts(1, 2)},
			want: []string{"[N,3]", "[2]"}},
		{name: "string tensor unpack", op: "StringTensorUnpack", version: 15, ins: []ovIn{{typ: element.String, dims: []int64{2}}},
			want: []string{"[2]", "[2]", "[?]"}},
		{name: "string tensor pack", op: "StringTensorPack", version: 15, ins: []ovIn{ovParam("[B]"), ovParam("[B]"), ovParam("[S]")},
			want: []string{"[B]"}},
		{name: "string tensor pack ends", op: "StringTensorPack", version: 15, ins: []ovIn{ovParam("[2]"), ovParam("[3]"), ovParam("[S]")},
			wantErr: errcode.ErrInvalidShape},
		{name: "moe", op: "MOE", version: 16, attrs: "topk=2 expert_num=4 router_mode=normalized expert_mode=Silu3GEMM fused_experts=false",
			ins:  []ovIn{ovParam("[T,2048]"), ovParam("[T,4]"), ovParam("[4,8192,2048]"), ovParam("[4,8192]"), ovParam("[4,2048,8192]")},
			want: []string{"[T,2048]"}},
	})
}

// TestOVPromote pins ConvertPromoteTypes-14's promotion of two element types.
func TestOVPromote(t *testing.T) {
	for _, tc := range []struct {
		a, b  element.Type
		attrs string
		want  element.Type
	}{
		{element.I32, element.I32, "", element.I32},
		{element.Boolean, element.I8, "", element.I8},
		{element.I64, element.F16, "", element.F16},
		{element.F16, element.BF16, "", element.F32},
		{element.F32, element.F64, "", element.F64},
		{element.U8, element.I8, "", element.I16},
		{element.U16, element.I64, "", element.I64},
		{element.U32, element.I32, "", element.I64},
		{element.U64, element.I8, "promote_unsafe=true", element.F32},
		{element.U64, element.I8, "promote_unsafe=true u64_integer_promotion_target=i64", element.I64},
		{element.I8, element.I32, "pytorch_scalar_promotion=true", element.I8},
	} {
		n := graph.Node{Name: "p", Op: "ConvertPromoteTypes", Domain: graph.DomainOpenVINO, Version: 14,
			Inputs: []string{"a", "b"}, Outputs: []string{"x", "y"}}
		for _, f := range strings.Fields(tc.attrs) {
			k, v, _ := strings.Cut(f, "=")
			n.Attrs = append(n.Attrs, graph.Attr{Name: k, Kind: graph.AttrText, Text: v})
		}
		g := &graph.Graph{Nodes: []graph.Node{n}, Consts: map[string]*graph.Const{
			"a": {Name: "a", Type: tc.a, Dims: []int64{3}},
			"b": {Name: "b", Type: tc.b, Dims: []int64{}},
		}}
		res, err := graph.Infer(g, graph.Options{})
		if err != nil {
			t.Fatal(err)
		}
		if r := res.Nodes[0]; r.Err != nil || r.Outputs[0].Type != tc.want {
			t.Errorf("%v and %v (%s): %v, %v; want %v", tc.a, tc.b, tc.attrs, r.Outputs[0].Type, r.Err, tc.want)
		}
	}
}
