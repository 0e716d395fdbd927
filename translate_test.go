package reshape_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/shape"
)

func TestTranslate(t *testing.T) {
	dyn := shape.DynamicRank()
	tests := []struct {
		name     string
		pattern  reshape.Pattern
		from     reshape.Options
		to       reshape.Dialect
		in       shape.Shape
		want     string // translated pattern, or "" for an error
		wantSZ   bool
		wantCode error
	}{
		{"onnx allowzero=1 literal zero to openvino", reshape.IntPattern(3, 4, 0), reshape.Options{Dialect: reshape.ONNX, AllowZero: true}, reshape.OpenVINO, dyn, "[3,4,0]", false, nil},
		{"openvino copy without -1 to onnx", reshape.IntPattern(0, 4, 2), reshape.Options{SpecialZero: true}, reshape.ONNX, dyn, "[0,4,2]", true, nil},
		{"openvino copy beside -1, dims known non-zero", reshape.IntPattern(0, -1), reshape.Options{SpecialZero: true}, reshape.OneDNNStatic, must(shape.Parse("[2..5,3]")), "[0,-1]", true, nil},
		{"openvino copy beside -1, dim may be 0", reshape.IntPattern(0, -1), reshape.Options{SpecialZero: true}, reshape.OneDNNStatic, must(shape.Parse("[?,3]")), "", false, reshape.ErrNoEquivalent},
		{"openvino copy beside -1, rank unknown", reshape.IntPattern(0, -1), reshape.Options{SpecialZero: true}, reshape.ONNX, dyn, "", false, reshape.ErrNoEquivalent},
		{"openvino copies a static 0: the output written out", reshape.IntPattern(0, -1), reshape.Options{SpecialZero: true}, reshape.ONNX, shape.OfInts(0, 3), "[0,3]", false, nil},
		{"onnx copies a static 0: invalid in onnx", reshape.IntPattern(0, -1), reshape.Options{Dialect: reshape.ONNX, SpecialZero: true}, reshape.OpenVINO, shape.OfInts(0, 3), "", false, reshape.ErrAmbiguousInferred},
		{"onnx default, no zero beside -1, rank unknown", reshape.IntPattern(2, -1), reshape.Options{Dialect: reshape.ONNX}, reshape.OpenVINO, dyn, "[2,-1]", true, nil},
		{"openvino, no zero beside -1, rank unknown", reshape.IntPattern(-1, 3, 4), reshape.Options{SpecialZero: true}, reshape.OneDNNStatic, dyn, "[-1,3,4]", true, nil},
		{"onnx default, a zero beside -1, rank unknown", reshape.IntPattern(2, 0, -1), reshape.Options{Dialect: reshape.ONNX}, reshape.OpenVINO, dyn, "", false, reshape.ErrNoEquivalent},
		{"onnx default, a value that may be 0 beside -1", reshape.PatternOf(shape.Interval(0, 4), shape.Static(-1)), reshape.Options{Dialect: reshape.ONNX}, reshape.OpenVINO, must(shape.Parse("[?,3]")), "", false, reshape.ErrNoEquivalent},
		{"onnx default, zero past the rank both refuse", reshape.IntPattern(2, -1, 0), reshape.Options{Dialect: reshape.ONNX}, reshape.OpenVINO, must(shape.Parse("[?,3]")), "[2,-1,0]", true, nil},
		{"openvino to openvino", reshape.IntPattern(0, -1), reshape.Options{SpecialZero: true}, reshape.OpenVINO, dyn, "[0,-1]", true, nil},
		{"scalar 1 to onnx", reshape.ScalarPattern(shape.Static(1)), reshape.Options{}, reshape.ONNX, dyn, "[]", false, nil},
		{"scalar 1 to openvino", reshape.ScalarPattern(shape.Static(1)), reshape.Options{SpecialZero: true}, reshape.OpenVINO, dyn, "1", true, nil},
		{"scalar 7 to onnx", reshape.ScalarPattern(shape.Static(7)), reshape.Options{}, reshape.ONNX, dyn, "", false, reshape.ErrNoEquivalent},
		{"interval to onednn-static", reshape.PatternOf(shape.Interval(1, 8), shape.Static(-1)), reshape.Options{}, reshape.OneDNNStatic, dyn, "", false, reshape.ErrNoEquivalent},
		{"unknown to onednn-static", reshape.UnknownPattern(shape.OfInts(3)), reshape.Options{}, reshape.OneDNNStatic, dyn, "", false, reshape.ErrNoEquivalent},
		{"unknown to onednn-dynamic", reshape.UnknownPattern(shape.OfInts(3)), reshape.Options{}, reshape.OneDNNDynamic, dyn, "-", false, nil},
		{"large value to onednn-dynamic", reshape.IntPattern(1<<33, -1), reshape.Options{}, reshape.OneDNNDynamic, dyn, "", false, reshape.ErrNoEquivalent},
		{"i8 data to onednn", reshape.IntPattern(-1), reshape.Options{DataType: element.I8}, reshape.OneDNNStatic, dyn, "", false, reshape.ErrNoEquivalent},
	}
	for _, tt := range tests {
		p, opt, err := reshape.Translate(tt.pattern, tt.from, tt.to, tt.in)
		if tt.wantCode != nil {
			if !errors.Is(err, tt.wantCode) {
				t.Errorf("%s: Translate = %v %+v, %v; want %v", tt.name, p, opt, err, tt.wantCode)
			}
			continue
		}
		if err != nil || p.String() != tt.want || opt.CopiesZeros() != tt.wantSZ || opt.Dialect != tt.to || p.IsScalar() != tt.pattern.IsScalar() && tt.to == reshape.OpenVINO {
			t.Errorf("%s: Translate = %v %+v, %v; want %s special_zero %v", tt.name, p, opt, err, tt.want, tt.wantSZ)
		}
	}
}

// TestTranslateExact checks translations on every static input shape of a small space: the source
// and the translated reshape give the same output, or both fail.
func TestTranslateExact(t *testing.T) {
	patterns := [][]int64{{0, -1}, {-1, 0}, {0, 0, -1}, {2, -1}, {0, 3}, {-1}, {0, -1, 1}, {3, 0}, {0}}
	var inputs [][]int64
	for a := int64(0); a < 4; a++ {
		for b := int64(0); b < 4; b++ {
			inputs = append(inputs, []int64{a, b}, []int64{a, b, 2})
		}
	}
	for _, from := range reshape.Dialects() {
		for _, to := range reshape.Dialects() {
			for _, sz := range []bool{false, true} {
				for _, pv := range patterns {
					for _, in := range append(inputs, nil) {
						space := shape.DynamicRank()
						if in != nil {
							space = shape.OfInts(in...)
						}
						opt := reshape.Options{Dialect: from}.WithSpecialZero(sz)
						p, topt, err := reshape.Translate(reshape.IntPattern(pv...), opt, to, space)
						if err != nil {
							continue
						}
						values, _ := p.Values()
						ints := make([]int64, len(values))
						for i, v := range values {
							ints[i] = v.Lo
						}
						for _, x := range inputs {
							if in != nil && fmt.Sprint(x) != fmt.Sprint(in) {
								continue
							}
							a, errA := reshape.Infer(x, pv, opt)
							b, errB := reshape.Infer(x, ints, topt)
							if (errA == nil) != (errB == nil) || fmt.Sprint(a) != fmt.Sprint(b) {
								t.Fatalf("%v sz=%v %v -> %v %v sz=%v, input %v: %v, %v versus %v, %v", from, sz, pv, to, ints, topt.CopiesZeros(), x, a, errA, b, errB)
							}
						}
					}
				}
			}
		}
	}
}

func ExampleTranslate() {
	// ONNX allowzero=1 keeps a literal 0: OpenVINO says so with special_zero=false.
	p, opt, err := reshape.Translate(reshape.IntPattern(3, 4, 0), reshape.Options{Dialect: reshape.ONNX, AllowZero: true}, reshape.OpenVINO, shape.DynamicRank())
	fmt.Println(p, opt.SpecialZero, err)
	// A special zero beside -1 whose dimension is known only at run time.
	_, _, err = reshape.Translate(reshape.IntPattern(0, -1), reshape.Options{SpecialZero: true}, reshape.OneDNNStatic, shape.DynamicRank())
	fmt.Println(reshape.Code(err))
	// Output:
	// [3,4,0] false <nil>
	// no-equivalent
}

func TestSpecialZero(t *testing.T) {
	yes, no := true, false
	zero, one, two := int64(0), int64(1), int64(2)
	tests := []struct {
		d     reshape.Dialect
		sz    *bool
		az    *int64
		want  bool
		error string // a substring of the error, "" for none
	}{
		{reshape.OpenVINO, &yes, nil, true, ""},
		{reshape.OneDNNStatic, &no, nil, false, ""},
		{reshape.OpenVINO, nil, nil, false, "special_zero is required by openvino"},
		{reshape.ONNX, nil, nil, true, ""},
		{reshape.ONNX, nil, &one, false, ""},
		{reshape.ONNX, nil, &zero, true, ""},
		{reshape.ONNX, &no, &one, false, ""},
		{reshape.ONNX, &no, &zero, false, "allowzero=0 contradicts special_zero=false"},
		{reshape.ONNX, nil, &two, false, "allowzero=2: want 0 or 1"},
		{reshape.OpenVINO, &yes, &zero, false, "allowzero is an attribute of onnx: openvino takes special_zero"},
	}
	for _, tt := range tests {
		got, err := reshape.SpecialZero(tt.d, tt.sz, tt.az)
		switch {
		case tt.error == "" && (err != nil || got != tt.want):
			t.Errorf("SpecialZero(%v, %v, %v) = %v, %v; want %v", tt.d, tt.sz, tt.az, got, err, tt.want)
		case tt.error != "" && (!errors.Is(err, reshape.ErrSyntax) || !strings.Contains(err.Error(), tt.error)):
			t.Errorf("SpecialZero(%v, %v, %v) = %v, %v; want an error containing %q", tt.d, tt.sz, tt.az, got, err, tt.error)
		}
	}
}

func TestONNXOptions(t *testing.T) {
	zero, one, two := int64(0), int64(1), int64(2)
	tests := []struct {
		opset   int64
		az      *int64
		version int64
		sz      bool
		error   string // a substring of the error, "" for none
	}{
		{1, nil, 1, true, ""},
		{4, nil, 1, true, ""},
		{5, nil, 5, true, ""},
		{12, nil, 5, true, ""},
		{13, nil, 13, true, ""},
		{13, &zero, 13, true, "allowzero is an attribute of Reshape-14 and later, and the model imports opset 13"},
		{13, &one, 13, true, "allowzero is an attribute of Reshape-14"},
		{14, nil, 14, true, ""},
		{14, &zero, 14, true, ""},
		{14, &one, 14, false, ""},
		{14, &two, 14, false, "allowzero=2: want 0 or 1"},
		{18, &one, 14, false, ""},
		{19, nil, 19, true, ""},
		{20, &one, 19, false, ""},
		{21, &zero, 21, true, ""},
		{25, &one, 21, false, ""},
	}
	for _, tt := range tests {
		opt, v, err := reshape.ONNXOptions(tt.opset, tt.az)
		switch {
		case v != tt.version || v != reshape.ONNXVersion(tt.opset) || opt.Dialect != reshape.ONNX:
			t.Errorf("ONNXOptions(%d, %v): version %d (ONNXVersion %d), dialect %v; want %d, onnx", tt.opset, tt.az, v,
				reshape.ONNXVersion(tt.opset), opt.Dialect, tt.version)
		case tt.error == "" && (err != nil || opt.SpecialZero != tt.sz):
			t.Errorf("ONNXOptions(%d, %v) = %+v, %v; want special_zero %v", tt.opset, tt.az, opt, err, tt.sz)
		case tt.error != "" && (!errors.Is(err, reshape.ErrSyntax) || !strings.Contains(err.Error(), tt.error)):
			t.Errorf("ONNXOptions(%d, %v) = %+v, %v; want an error containing %q", tt.opset, tt.az, opt, err, tt.error)
		}
	}
}

func TestParseSpecialZero(t *testing.T) {
	for _, tt := range []struct {
		text string
		want bool
		ok   bool
	}{
		{"true", true, true}, {"True", true, true}, {"TRUE", true, true}, {" true ", true, true}, {"1", true, true},
		{"false", false, true}, {"False", false, true}, {"0", false, true},
		{"", false, false}, {"yes", false, false}, {"2", false, false}, {"t", false, false},
	} {
		got, err := reshape.ParseSpecialZero(tt.text)
		switch {
		case tt.ok && (err != nil || got != tt.want):
			t.Errorf("ParseSpecialZero(%q) = %v, %v; want %v", tt.text, got, err, tt.want)
		case !tt.ok && (!errors.Is(err, reshape.ErrSyntax) || !strings.Contains(err.Error(), fmt.Sprintf("special_zero=%q: want true or false", tt.text))):
			t.Errorf("ParseSpecialZero(%q) = %v, %v; want an error", tt.text, got, err)
		}
	}
}
