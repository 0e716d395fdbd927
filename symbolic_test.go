package reshape_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

func TestInferSymbolic(t *testing.T) {
	tests := []struct {
		name, in, pattern string // pattern: a sym shape notation of the values, "" for unknown
		opt               reshape.Options
		want              string
		err               error
	}{
		{"flatten after the batch", "[N,3,224,224]", "[N,-1]", reshape.Options{Dialect: reshape.ONNX}, "[N,150528]", nil},
		{"heads split", "[B,T,64]", "[B,T,4,16]", reshape.Options{Dialect: reshape.ONNX, SpecialZero: true}, "[B,T,4,16]", nil},
		{"heads merged by -1", "[B,T,4,16]", "[B,T,-1]", reshape.Options{Dialect: reshape.ONNX}, "[B,T,64]", nil},
		{"special zeros copy", "[B,T,64]", "[0,0,4,-1]", reshape.Options{Dialect: reshape.ONNX, SpecialZero: true}, "[B,T,4,16]", nil},
		{"openvino special zeros", "[B,T,64]", "[0,0,4,-1]", reshape.Options{SpecialZero: true}, "[B,T,4,16]", nil},
		{"merge the batch", "[B,T,64]", "[-1,64]", reshape.Options{}, "[B*T,64]", nil},
		{"an exact quotient", "[N,T]", "[2,-1]", reshape.Options{}, "[2,N*T/2]", nil},
		{"conv output", "[N,16,(H+1)//2,(W+1)//2]", "[N,-1]", reshape.Options{}, "[N,16*((H+1)//2)*((W+1)//2)]", nil},
		{"channel shuffle", "[N,116,H,W]", "[N,2,58,H,W]", reshape.Options{}, "[N,2,58,H,W]", nil},
		{"volume mismatch in symbols", "[N,6]", "[N,4]", reshape.Options{}, "", reshape.ErrVolumeMismatch},
		{"volume mismatch: the message names whole volumes", "[B,T,N,6]", "[T,B,N,4]", reshape.Options{},
			"output shape [T,B,N,4] has volume 4*B*T*N, input shape [B,T,N,6] has volume 6*B*T*N", reshape.ErrVolumeMismatch},
		{"dims in another order", "[B,T,768]", "[T,B,12,64]", reshape.Options{}, "[T,B,12,64]", nil},
		{"a dim twice", "[N,N,2]", "[N,2,N]", reshape.Options{}, "[N,2,N]", nil},
		{"a dim twice, a factor apart", "[N,N,2]", "[N,4,N]", reshape.Options{}, "", reshape.ErrVolumeMismatch},
		{"static error kept", "[N,6]", "[N,-1,-1]", reshape.Options{}, "", reshape.ErrMultipleInferred},
		{"not divisible in symbols", "[N,6]", "[4,-1,N]", reshape.Options{}, "", reshape.ErrNotDivisible},
		{"not divisible: the volume in symbols", "[B,8,6]", "[B,8,-1,5]", reshape.Options{},
			"pattern[2] = -1: input volume 48*B is not divisible by 40*B, the product of the other output dimensions", reshape.ErrNotDivisible},
		{"not divisible: openvino leaves copied dims out", "[B,8,6]", "[0,0,-1,5]", reshape.Options{SpecialZero: true},
			"pattern[2] = -1: input [B,8,6] without the dimensions special zeros copy has volume 6, which is not divisible by 5, the product of the other output dimensions", reshape.ErrNotDivisible},
		{"unknown values", "[N,6]", "", reshape.Options{}, "[?,?,?]", nil},
		{"interval input", "[1..8,6]", "[-1,3]", reshape.Options{}, "[2..16,3]", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tab := sym.NewTable()
			in, err := sym.ParseShape(tt.in, tab)
			if err != nil {
				t.Fatal(err)
			}
			var values []sym.Dim
			ps := shape.OfInts(3)
			if tt.pattern != "" {
				for _, f := range strings.Split(strings.Trim(tt.pattern, "[]"), ",") {
					v := sym.Const(-1) // -1 reads as "?" in a shape
					if f != "-1" {
						if v, err = sym.ParseDim(f, tab); err != nil {
							t.Fatal(err)
						}
					}
					values = append(values, v)
				}
				ps = shape.OfInts(int64(len(values)))
			}
			out, err := reshape.InferSymbolic(in, ps, values, tt.opt)
			if tt.err != nil {
				if !errors.Is(err, tt.err) || tt.want != "" && err.Error() != tt.want {
					t.Fatalf("InferSymbolic = %v, %v; want %v %s", out, err, tt.err, tt.want)
				}
				return
			}
			if err != nil || out.String() != tt.want {
				t.Fatalf("InferSymbolic = %v, %v; want %s", out, err, tt.want)
			}
		})
	}
}

// TestInferSymbolicAtBindings checks the symbolic answer against the integer rules: at random
// positive bindings of the symbols, the symbolic output evaluated equals Infer on the bound input
// and pattern, or Infer fails where the symbolic inference may not (it answers for the bindings
// where the model runs). 2,000 random cases, 20,000 in the long tier (testenv.Count).
func TestInferSymbolicAtBindings(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	names := []string{"A", "B", "C"}
	for iter := range testenv.Count(t, 2000, 20000) {
		tab := sym.NewTable()
		for _, n := range names {
			tab.Symbol(n, 0, sym.Inf)
		}
		rank := 1 + r.IntN(4)
		in := make([]sym.Dim, rank)
		for i := range in {
			if r.IntN(2) == 0 {
				e, _ := tab.Lookup(names[r.IntN(len(names))])
				in[i] = sym.Of(e)
			} else {
				in[i] = sym.Const(int64(1 + r.IntN(6)))
			}
		}
		n := 1 + r.IntN(4)
		values := make([]sym.Dim, n)
		for i := range values {
			switch r.IntN(5) {
			case 0:
				values[i] = sym.Const(-1)
			case 1:
				values[i] = sym.Const(0)
			case 2:
				values[i] = in[r.IntN(rank)]
			case 3:
				values[i] = sym.MulDims(in[r.IntN(rank)], in[r.IntN(rank)])
			default:
				values[i] = sym.Const(int64(1 + r.IntN(6)))
			}
		}
		opt := reshape.Options{Dialect: reshape.Dialect(r.IntN(4))}.WithSpecialZero(r.IntN(2) == 0)
		out, serr := reshape.InferSymbolic(sym.ShapeOf(in...), shape.OfInts(int64(n)), values, opt)
		for range 4 {
			env := map[string]int64{}
			for _, name := range names {
				env[name] = int64(1 + r.IntN(5))
			}
			val := func(name string) (int64, bool) { v, ok := env[name]; return v, ok }
			eval := func(d sym.Dim) int64 {
				e, _ := d.Expr()
				v, err := e.Eval(val)
				if err != nil {
					t.Fatalf("iteration %d: %v", iter, err)
				}
				return v
			}
			bin := make([]int64, rank)
			for i, d := range in {
				bin[i] = eval(d)
			}
			bp := make([]int64, n)
			for i, d := range values {
				bp[i] = eval(d)
			}
			want, ierr := reshape.Infer(bin, bp, opt)
			switch {
			case serr != nil && ierr == nil:
				t.Fatalf("iteration %d: InferSymbolic(%v, %v, %+v) = %v, but at %v Infer(%v, %v) = %v", iter, sym.ShapeOf(in...), values, opt, serr, env, bin, bp, want)
			case serr != nil || ierr != nil:
				continue
			}
			for i, d := range out.Dims {
				e, exact := d.Expr()
				if !exact {
					lo, hi := d.Bounds()
					if want[i] < lo || want[i] > hi {
						t.Fatalf("iteration %d: out[%d] = %v does not hold %d", iter, i, d, want[i])
					}
					continue
				}
				got, err := e.Eval(val)
				if err != nil || got != want[i] {
					t.Fatalf("iteration %d: InferSymbolic(%v, %v, %+v) = %v; at %v it is %d, %v; Infer gives %v", iter, sym.ShapeOf(in...), values, opt, out, env, got, err, want)
				}
			}
		}
	}
}
