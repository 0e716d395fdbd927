package check_test

import (
	"errors"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/ir"
)

// flattenHead is the IR fixture of README's `reshape shapes` example: a Parameter image [?,3,8,8]
// through a Convolution and a ReLU, flattened by a computed pattern; its ports declare the shapes.
var flattenHead = filepath.Join("..", "testdata", "ir", "flatten_head.xml")

// irVariant writes the IR model at path, with its .bin, to a directory of its own with the xml
// changed by replacing old with new (once each, in order), and returns the new xml's path.
func irVariant(t *testing.T, path string, edits ...string) string {
	t.Helper()
	x, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(strings.TrimSuffix(path, ".xml") + ".bin")
	if err != nil {
		t.Fatal(err)
	}
	text := string(x)
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(text, edits[i]) {
			t.Fatalf("%s has no %q to edit", path, edits[i])
		}
		text = strings.Replace(text, edits[i], edits[i+1], 1)
	}
	dir := t.TempDir()
	out := filepath.Join(dir, filepath.Base(path))
	if err := os.WriteFile(out, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(strings.TrimSuffix(out, ".xml")+".bin", bin, 0o644); err != nil {
		t.Fatal(err)
	}
	return out
}

// tensorLine writes a tensor as reshape shapes does: name, op, type, shape, declared, verdict.
func tensorLine(tn check.Tensor) string {
	declared := "-"
	if tn.Declared != nil {
		declared = tn.Declared.String()
	}
	op := tn.Op
	if op == "" {
		op = "-"
	}
	return strings.Join([]string{tn.Name, op, tn.Type.String(), tn.Shape.String(), declared, string(tn.Verdict)}, " ")
}

// TestInferShapesIR infers the tensors of IR networks through InferShapes: names from the ports'
// names attributes, else LAYER:PORT; verdicts against the ports' dims, stale under bindings that
// rebind the inputs (--dim included, as check judges IR); errors and what lies downstream.
func TestInferShapesIR(t *testing.T) {
	// A features port that declares 5 channels where the Convolution gives 4.
	wrongPort := irVariant(t, flattenHead, `names="features">
					<dim>-1</dim>
					<dim>4</dim>`, `names="features">
					<dim>-1</dim>
					<dim>5</dim>`)
	// The ReLU an extension's layer, which has no shape rule: its port's dims are taken.
	extension := irVariant(t, flattenHead, `type="ReLU" version="opset1"`, `type="ReLU" version="extension"`)
	tests := []struct {
		name        string
		path        string
		opt         check.Options
		want        []string // every tensor, as tensorLine writes it
		symbols     []string
		valid       check.Validity
		unsupported map[string]int
	}{
		{
			name: "flatten_head", path: flattenHead,
			want: []string{
				"image - f32 [image:0,3,8,8] - inferred",
				"features Convolution f32 [image:0,4,8,8] [?,4,8,8] ok",
				"relu:1 ReLU f32 [image:0,4,8,8] [?,4,8,8] ok",
				"shape:1 ShapeOf i64 [4] [4] ok",
				"batch:3 Gather i64 [1] [1] ok",
				"pattern:2 Concat i64 [2] [2] ok",
				"logits,flat Reshape f32 [image:0,256] [?,256] ok",
			},
			symbols: []string{"image:0"}, valid: "always",
		},
		{
			// A dim the port declares dynamic meets the bound one: ok, not stale.
			name: "flatten_head --dim", path: flattenHead, opt: check.Options{Dims: map[string]int64{"image:0": 2}},
			want: []string{
				"image - f32 [2,3,8,8] - inferred",
				"features Convolution f32 [2,4,8,8] [?,4,8,8] ok",
				"relu:1 ReLU f32 [2,4,8,8] [?,4,8,8] ok",
				"shape:1 ShapeOf i64 [4] [4] ok",
				"batch:3 Gather i64 [1] [1] ok",
				"pattern:2 Concat i64 [2] [2] ok",
				"logits,flat Reshape f32 [2,256] [?,256] ok",
			},
			valid: "always",
		},
		{
			name: "flatten_head --input", path: flattenHead, opt: check.Options{Inputs: map[string]string{"image": "[2,3,16,16]"}},
			want: []string{
				"image - f32 [2,3,16,16] - inferred",
				"features Convolution f32 [2,4,16,16] [?,4,8,8] stale",
				"relu:1 ReLU f32 [2,4,16,16] [?,4,8,8] stale",
				"shape:1 ShapeOf i64 [4] [4] ok",
				"batch:3 Gather i64 [1] [1] ok",
				"pattern:2 Concat i64 [2] [2] ok",
				"logits,flat Reshape f32 [2,1024] [?,256] stale",
			},
			valid: "always",
		},
		{
			// A rank the Convolution refuses: its error, and unknown downstream.
			name: "flatten_head rank 3", path: flattenHead, opt: check.Options{Inputs: map[string]string{"image": "[2,3,8]"}},
			want: []string{
				"image - f32 [2,3,8] - inferred",
				"features Convolution undefined [...] [?,4,8,8] invalid-shape",
				"relu:1 ReLU undefined [...] [?,4,8,8] unknown",
				"shape:1 ShapeOf undefined [...] [4] unknown",
				"batch:3 Gather undefined [...] [1] unknown",
				"pattern:2 Concat undefined [...] [2] unknown",
				"logits,flat Reshape undefined [...] [?,256] unknown",
			},
			valid: "never",
		},
		{
			name: "wrong port", path: wrongPort,
			want: []string{
				"image - f32 [image:0,3,8,8] - inferred",
				"features Convolution f32 [image:0,4,8,8] [?,5,8,8] mismatch",
				"relu:1 ReLU f32 [image:0,4,8,8] [?,4,8,8] ok",
				"shape:1 ShapeOf i64 [4] [4] ok",
				"batch:3 Gather i64 [1] [1] ok",
				"pattern:2 Concat i64 [2] [2] ok",
				"logits,flat Reshape f32 [image:0,256] [?,256] ok",
			},
			symbols: []string{"image:0"}, valid: "always",
		},
		{
			// The same declaration, under an --input binding: the port's shape is the old input's.
			name: "wrong port --input", path: wrongPort, opt: check.Options{Inputs: map[string]string{"image": "[1,3,8,8]"}},
			want: []string{
				"image - f32 [1,3,8,8] - inferred",
				"features Convolution f32 [1,4,8,8] [?,5,8,8] stale",
				"relu:1 ReLU f32 [1,4,8,8] [?,4,8,8] ok",
				"shape:1 ShapeOf i64 [4] [4] ok",
				"batch:3 Gather i64 [1] [1] ok",
				"pattern:2 Concat i64 [2] [2] ok",
				"logits,flat Reshape f32 [1,256] [?,256] ok",
			},
			valid: "always",
		},
		{
			name: "extension layer", path: extension,
			want: []string{
				"image - f32 [image:0,3,8,8] - inferred",
				"features Convolution f32 [image:0,4,8,8] [?,4,8,8] ok",
				"relu:1 ReLU f32 [?,4,8,8] [?,4,8,8] inferred",
				"shape:1 ShapeOf i64 [4] [4] ok",
				"batch:3 Gather i64 [1] [1] ok",
				"pattern:2 Concat i64 [2] [2] ok",
				"logits,flat Reshape f32 [?,256] [?,256] ok",
			},
			symbols: []string{"image:0"}, valid: "always", unsupported: map[string]int{"openvino/extension:ReLU": 1},
		},
		{
			// Layers without names: LAYER:PORT; a Parameter by its name.
			name: "batch_flatten", path: filepath.Join("..", "graph", "testdata", "ir", "batch_flatten.xml"),
			want: []string{
				"x - f32 [x:0,3,224,224] - inferred",
				"shape:1 ShapeOf i64 [4] [4] ok",
				"batch:3 Gather i64 [1] [1] ok",
				"pattern:2 Concat i64 [2] [2] ok",
				"flatten:2 Reshape f32 [x:0,150528] [?,150528] ok",
			},
			symbols: []string{"x:0"}, valid: "always",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := check.InferShapes(tt.path, tt.opt)
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			var got []string
			for _, tn := range s.Tensors {
				got = append(got, tensorLine(tn))
			}
			if !slices.Equal(got, tt.want) {
				t.Errorf("tensors\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
			if s.Dialect != reshape.OpenVINO || !slices.Equal(s.Symbols, tt.symbols) || s.Valid() != tt.valid || !maps.Equal(s.Unsupported, tt.unsupported) {
				t.Errorf("dialect %s, symbols %q, valid %q, unsupported %v; want openvino, %q, %q, %v", s.Dialect, s.Symbols, s.Valid(), s.Unsupported, tt.symbols, tt.valid, tt.unsupported)
			}
		})
	}
}

// TestInferShapesIRFiles: the .bin comes from beside the .xml or from Options.BinPath; only the
// small constants are read of it; the shapes are not written into an IR network.
func TestInferShapesIRFiles(t *testing.T) {
	dir := t.TempDir()
	xml := filepath.Join(dir, "net.xml")
	x, err := os.ReadFile(flattenHead)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(xml, x, 0o644); err != nil {
		t.Fatal(err)
	}
	// Without the .bin beside it, the network is read whole, and its constants have no values.
	s, err := check.InferShapes(xml, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := s.BytesRead(), int64(len(x)); got != want {
		t.Errorf("without the .bin: BytesRead %d, want %d", got, want)
	}
	s.Close()
	_, err = check.InferShapes(xml, check.Options{BinPath: filepath.Join(dir, "none.bin")})
	if !errors.Is(err, errcode.ErrIO) || !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), "none.bin") {
		t.Errorf("with a .bin named that is not there: %v, want an io error naming none.bin", err)
	}
	bin := strings.TrimSuffix(flattenHead, ".xml") + ".bin"
	s, err = check.InferShapes(xml, check.Options{BinPath: bin})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	// The .xml whole; of the .bin, the three i64 values of the shape subgraph (24 bytes), not the
	// Convolution's 432 bytes of weights.
	if got, want := s.BytesRead(), int64(len(x))+24; got != want {
		t.Errorf("BytesRead %d, want %d", got, want)
	}
	if _, err := s.WithValueInfo(dir); !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), "OpenVINO IR") {
		t.Errorf("WithValueInfo of an IR network: %v, want a syntax error", err)
	}
	if err := s.Close(); err != nil {
		t.Errorf("Close: %v", err)
	}
	if _, err := check.InferShapes(xml, check.Options{BinPath: bin, MaxFileSize: 100}); !errors.Is(err, errcode.ErrLimit) {
		t.Errorf("an .xml over MaxFileSize: %v, want a limit error", err)
	}
}

// faceDetection is the largest IR model of ../shared/realdata, below it.
const faceDetection = "openvinotoolkit__datumaro/datumaro/plugins/openvino/models/face-detection-0200.xml"

// irRealModels returns the paths of the OpenVINO IR models of ../shared/realdata (its SOURCES.md,
// section A): testenv.Shared skips t, or fails it, when they are missing.
func irRealModels(t *testing.T) []string {
	t.Helper()
	dir := testenv.Shared(t, "realdata")
	var paths []string
	for _, rel := range []string{
		"ermig1979__Synet/data/inference_engine/test_015f/other.xml",
		faceDetection,
		"openvinotoolkit__open_model_zoo/tools/accuracy_checker/data/test_models/SampLeNet.xml",
		"openvinotoolkit__openvino_build_deploy/apps/palm_pilot/mediapipeModels/gesture_embedder.xml",
		"openvinotoolkit__openvino_build_deploy/apps/palm_pilot/mediapipeModels/hand_detector.xml",
		"openvinotoolkit__vpux_plugin/tests/lit/NPU/conversion/pipelines/dynamic_reshape.xml",
	} {
		paths = append(paths, filepath.Join(dir, filepath.FromSlash(rel)))
	}
	return paths
}

// TestShapesRealIR infers every IR model of ../shared/realdata through InferShapes: one tensor per
// Parameter and per output port of every other layer but Const and Result, each ok against its
// port's dims but the Parameters (inferred), no layer without a rule, and of the .bin only the
// small constants read (face-detection-0200: 57,941 of 1,921,621 bytes).
func TestShapesRealIR(t *testing.T) {
	for _, path := range irRealModels(t) {
		t.Run(filepath.Base(path), func(t *testing.T) {
			s, err := check.InferShapes(path, check.Options{})
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			net, err := ir.Decode(f)
			f.Close()
			if err != nil {
				t.Fatal(err)
			}
			ports := 0
			for _, l := range net.Layers {
				switch l.Type {
				case "Parameter":
					ports++
				case "Const", "Result":
				default:
					ports += len(l.Outputs)
				}
			}
			if len(s.Tensors) != ports {
				t.Errorf("%d tensors, want %d", len(s.Tensors), ports)
			}
			for _, tn := range s.Tensors {
				want := check.OK
				if tn.Op == "" {
					want = check.Inferred
				}
				if tn.Verdict != want || tn.Op != "" && tn.Declared == nil {
					t.Errorf("%s (%s %s): %s, want %s: %s", tn.Name, tn.Op, tn.Node, tn.Verdict, want, tn.Message)
				}
			}
			if len(s.Unsupported) != 0 || s.Valid() != "always" {
				t.Errorf("unsupported %v, valid %q", s.Unsupported, s.Valid())
			}
			st, err := os.Stat(strings.TrimSuffix(path, ".xml") + ".bin")
			if err != nil {
				t.Fatal(err)
			}
			xml, _ := os.Stat(path)
			// A .bin of weights is read a quarter at most (dynamic_reshape.xml's is its one
			// constant, 8 bytes, read whole).
			if read := s.BytesRead() - xml.Size(); read <= 0 || read > st.Size() || st.Size() > 1<<10 && read > st.Size()/4 {
				t.Errorf("%d bytes of the %d-byte .bin read", read, st.Size())
			}
			t.Logf("%d tensors; %d of the %d bytes of the .bin read", len(s.Tensors), s.BytesRead()-xml.Size(), st.Size())
		})
	}
}

// TestShapesCheckAgreeIR: the Reshape rows of check and the Reshape tensors of shapes come from one
// inference, so that they agree on every IR Reshape: the same layers in the same order, the same
// inferred and declared shapes and verdicts, with and without bindings.
func TestShapesCheckAgreeIR(t *testing.T) {
	shapesCheckAgree(t, flattenHead, check.Options{})
	shapesCheckAgree(t, flattenHead, check.Options{Inputs: map[string]string{"image": "[2,3,16,16]"}})
	shapesCheckAgree(t, filepath.Join("..", "graph", "testdata", "ir", "batch_flatten.xml"), check.Options{Dims: map[string]int64{"x:0": 3}})
	shapesCheckAgree(t, filepath.Join("model", "spec_examples.xml"), check.Options{})
	t.Run("realdata", func(t *testing.T) {
		for _, path := range irRealModels(t) {
			shapesCheckAgree(t, path, check.Options{})
		}
		fd := filepath.Join(testenv.Shared(t, "realdata"), filepath.FromSlash(faceDetection))
		shapesCheckAgree(t, fd, check.Options{Inputs: map[string]string{"image": "[N,3,256,256]"}})
		shapesCheckAgree(t, fd, check.Options{Inputs: map[string]string{"image": "[2,3,128,128]"}})
	})
}

// shapesCheckAgree requires check's Reshape rows and shapes' Reshape tensors of the model at path,
// under opt, to agree.
func shapesCheckAgree(t *testing.T, path string, opt check.Options) {
	t.Helper()
	rep, err := check.File(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	s, err := check.InferShapes(path, opt)
	if err != nil {
		t.Fatal(err)
	}
	s.Close()
	var rows, tensors []string
	for _, r := range rep.Rows {
		if r.Op == "Reshape" {
			inferred := "-"
			if r.Inferred != nil {
				inferred = r.Inferred.String()
			}
			rows = append(rows, r.Name+" "+inferred+" "+r.Declared.String()+" "+string(r.Verdict))
		}
	}
	for _, tn := range s.Tensors {
		if tn.Op == "Reshape" {
			shape := tn.Shape.String()
			if tn.Verdict.IsError() || tn.Verdict == check.Unknown {
				shape = "-"
			}
			tensors = append(tensors, tn.Node+" "+shape+" "+tn.Declared.String()+" "+string(tn.Verdict))
		}
	}
	if len(rows) == 0 || !slices.Equal(rows, tensors) {
		t.Errorf("%s %+v: check's Reshape rows\n%s\nshapes' Reshape tensors\n%s", path, opt, strings.Join(rows, "\n"), strings.Join(tensors, "\n"))
	}
}

// TestInferShapesIRBodies: the layers of a TensorIterator's body have rows of their own, named by
// their layer in the body (whose ids repeat the main network's), and checked against its ports.
func TestInferShapesIRBodies(t *testing.T) {
	s, err := check.InferShapes(filepath.Join("..", "graph", "testdata", "ir", "ti_rnn.xml"), check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	var got []string
	for _, tn := range s.Tensors {
		got = append(got, tn.Graph+" "+tensorLine(tn))
	}
	want := []string{
		" x - f32 [2,x:1,16] - inferred",
		" h0 - f32 [2,32] - inferred",
		"rnn/body x_t/flat:2 Reshape f32 [2,16] [2,16] ok",
		"rnn/body x_t/w:2 MatMul f32 [2,32] [2,32] ok",
		"rnn/body h_next:2 Add f32 [2,32] [2,32] ok",
		"rnn/body y_t:2 Unsqueeze f32 [2,1,32] [2,1,32] ok",
		" rnn:2 TensorIterator f32 [2,x:1,32] [2,?,32] ok",
		" rnn:3 TensorIterator f32 [2,32] [2,32] ok",
	}
	if !slices.Equal(got, want) {
		t.Errorf("tensors:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
