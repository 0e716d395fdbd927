package fix_test

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/ir"
)

// findIR runs FindIR on the IR model at path, with the .bin beside it when there is one, and
// returns its .xml and weights too (nil without a .bin), which stay open until the test ends.
func findIR(t *testing.T, path string) (*fix.Fix, []byte, *ir.Weights) {
	t.Helper()
	src, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	w, err := ir.OpenWeights(strings.TrimSuffix(path, ".xml") + ".bin")
	if errors.Is(err, fs.ErrNotExist) {
		w = nil
	} else if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { w.Close() })
	f, err := fix.FindIR(src, w, fix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return f, src, w
}

// writeIR writes the fixed IR model, proves it as written (VerifyIR) and returns its .xml and .bin
// (nil when w, the model's weights, is nil) and its network.
func writeIR(t *testing.T, f *fix.Fix, w *ir.Weights) (xml, bin []byte, net *ir.Net) {
	t.Helper()
	var x, b bytes.Buffer
	if _, err := f.WriteTo(&x); err != nil {
		t.Fatal(err)
	}
	var fixed *ir.Weights
	if w != nil {
		if _, err := f.WriteWeights(&b); err != nil {
			t.Fatal(err)
		}
		fixed = ir.NewWeights(bytes.NewReader(b.Bytes()), int64(b.Len()), "fixed.bin")
	} else if _, err := f.WriteWeights(&b); !errors.Is(err, errcode.ErrIO) {
		t.Errorf("WriteWeights without a .bin: %v, want ErrIO", err)
	}
	net, err := ir.Decode(bytes.NewReader(x.Bytes()))
	if err != nil {
		t.Fatalf("the fixed .xml: %v", err)
	}
	if err := f.VerifyIR(net, fixed); err != nil {
		t.Fatalf("VerifyIR: %v", err)
	}
	if w == nil {
		return x.Bytes(), nil, net
	}
	return x.Bytes(), b.Bytes(), net
}

// blocked returns what stops the IR network at batch n (graph.Options.BatchSize): the nodes in
// error and the conditions Reshapes impose, "" when nothing does.
func blocked(t *testing.T, net *ir.Net, w *ir.Weights, n int64) string {
	t.Helper()
	g, err := graph.FromIR(net, w)
	if err != nil {
		t.Fatal(err)
	}
	r, err := graph.Infer(g, graph.Options{BatchSize: n})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, nr := range r.Nodes {
		if nr.Err != nil {
			out = append(out, nr.Path+": "+nr.Err.Error())
		}
	}
	for _, c := range r.Constraints() {
		if c.Origin.Op == "Reshape" {
			out = append(out, c.String())
		}
	}
	return strings.Join(out, "; ")
}

// TestFindIR fixes the IR fixtures of testdata/ir (bench/gen_ir_models.py): a baked Reshape's
// pattern is rewritten, the .xml written keeps every other line, the .bin is the model's with the
// new constants after it, and the fixed model runs at the batches the constant blocked.
func TestFindIR(t *testing.T) {
	tests := []struct {
		model   string
		after   []string // the rewrites' patterns after
		zero    bool     // special_zero becomes "true"
		removed int      // lines of the .xml left out that no kept line repeats
	}{
		{model: "baked_flatten", after: []string{"[0,256]"}, zero: true, removed: 4},
		{model: "baked_merge", after: []string{"[0,3,-1,5,x:5*x:6]"}, zero: true, removed: 4},
		{model: "absorb_batch"}, // [1,-1]: a -1, nothing baked
		{model: "flatten_head"},
	}
	for _, tt := range tests {
		t.Run(tt.model, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "ir", tt.model+".xml")
			f, src, w := findIR(t, path)
			var after []string
			for _, r := range f.Rewrites {
				parts := make([]string, len(r.After))
				for i, d := range r.After {
					parts[i] = d.String()
				}
				after = append(after, "["+strings.Join(parts, ",")+"]")
			}
			if strings.Join(after, " ") != strings.Join(tt.after, " ") {
				t.Fatalf("rewrites %v, want %v", after, tt.after)
			}
			xml, bin, net := writeIR(t, f, w)
			old, err := os.ReadFile(strings.TrimSuffix(path, ".xml") + ".bin")
			if err != nil {
				t.Fatal(err)
			}
			if len(tt.after) == 0 {
				if !bytes.Equal(xml, src) || !bytes.Equal(bin, old) {
					t.Fatalf("nothing to rewrite, and the model written differs: .xml %d bytes (was %d), .bin %d (was %d)", len(xml), len(src), len(bin), len(old))
				}
				return
			}
			if !bytes.HasPrefix(bin, old) || len(bin)%8 != 0 {
				t.Errorf("the .bin written (%d bytes) is not the model's (%d bytes) with constants after it, aligned to 8", len(bin), len(old))
			}
			if got := strings.Contains(string(xml), `special_zero="true"`); got != tt.zero {
				t.Errorf(`special_zero="true" written: %v, want %v`, got, tt.zero)
			}
			kept := 0
			lines := strings.Split(string(xml), "\n")
			for _, line := range strings.Split(string(src), "\n") {
				if strings.Contains(line, "special_zero") || slices.Contains(lines, line) {
					kept++
				}
			}
			if removed := len(strings.Split(string(src), "\n")) - kept; removed != tt.removed {
				t.Errorf("%d lines of the .xml left out, want %d", removed, tt.removed)
			}
			fixed := ir.NewWeights(bytes.NewReader(bin), int64(len(bin)), "fixed.bin")
			model, err := ir.Decode(bytes.NewReader(src))
			if err != nil {
				t.Fatal(err)
			}
			for _, n := range []int64{2, 8} {
				if blocked(t, model, w, n) == "" {
					t.Errorf("the model runs at batch %d: the fixture bakes nothing", n)
				}
				if why := blocked(t, net, fixed, n); why != "" {
					t.Errorf("the fixed model at batch %d: %s", n, why)
				}
			}
		})
	}
}

// TestFindIRNoWeights: an IR network read without its .bin cannot be fixed when a Reshape reads
// its pattern from a Const (its values are in the .bin); one without such a Reshape is written as
// it is, and has no .bin to write.
func TestFindIRNoWeights(t *testing.T) {
	for _, tt := range []struct {
		model string
		code  error
	}{{"baked_flatten", errcode.ErrIO}, {"baked_merge", errcode.ErrIO}} {
		src, err := os.ReadFile(filepath.Join("..", "testdata", "ir", tt.model+".xml"))
		if err != nil {
			t.Fatal(err)
		}
		if _, err := fix.FindIR(src, nil, fix.Options{}); !errors.Is(err, tt.code) {
			t.Errorf("%s: FindIR without the .bin: %v, want %v", tt.model, err, tt.code)
		}
	}
	src, err := os.ReadFile(filepath.Join("..", "graph", "testdata", "ir", "loop_rows.xml"))
	if err != nil {
		t.Fatal(err)
	}
	f, err := fix.FindIR(src, nil, fix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if xml, _, _ := writeIR(t, f, nil); !bytes.Equal(xml, src) {
		t.Error("the .xml written differs from the model's")
	}
}

// TestFindIRRealdata fixes every IR network of ../shared/realdata: one with nothing to rewrite is
// written as it is, byte for byte (its .xml and .bin); one with rewrites is proven as written.
func TestFindIRRealdata(t *testing.T) {
	root := testenv.Shared(t, "realdata")
	var paths []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".xml") {
			paths = append(paths, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(paths) < 28 {
		t.Fatalf("%d IR networks in %s, want at least 28", len(paths), root)
	}
	rewritten, left := 0, 0
	for _, path := range paths {
		t.Run(strings.TrimPrefix(path, root+string(filepath.Separator)), func(t *testing.T) {
			f, src, w := findIR(t, path)
			xml, bin, _ := writeIR(t, f, w)
			rewritten, left = rewritten+len(f.Rewrites), left+len(f.Left)
			if len(f.Rewrites) > 0 {
				return
			}
			if !bytes.Equal(xml, src) {
				t.Error("nothing to rewrite, and the .xml written differs")
			}
			if w != nil {
				var old bytes.Buffer
				if _, err := w.WriteTo(&old); err != nil {
					t.Fatal(err)
				}
				if !bytes.Equal(bin, old.Bytes()) {
					t.Error("nothing to rewrite, and the .bin written differs")
				}
			}
		})
	}
	t.Logf("%d IR networks: %d Reshapes rewritten, %d left", len(paths), rewritten, left)
}

// TestFindIRv10: an IR v10 network is rewritten as a v11 one, and stays v10.
func TestFindIRv10(t *testing.T) {
	path := filepath.Join("..", "testdata", "ir", "baked_flatten")
	src, err := os.ReadFile(path + ".xml")
	if err != nil {
		t.Fatal(err)
	}
	v10 := bytes.Replace(src, []byte(`<net name="baked_flatten" version="11">`), []byte(`<net name="baked_flatten" version="10">`), 1)
	if bytes.Equal(v10, src) {
		t.Fatal("the fixture's <net> is not v11")
	}
	w, err := ir.OpenWeights(path + ".bin")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	f, err := fix.FindIR(v10, w, fix.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(f.Rewrites) != 1 || f.Rewrites[0].Changes[0].How != fix.HowCopy {
		t.Fatalf("rewrites %+v, want the batch's 1 copied", f.Rewrites)
	}
	_, _, net := writeIR(t, f, w)
	if net.Version != 10 {
		t.Errorf("the fixed network is IR v%d, want v10", net.Version)
	}
}
