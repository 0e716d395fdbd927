package graph_test

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/internal/shared"
	"github.com/reshape-go/reshape/sym"
)

// truth is a fixture of bench/truth: the shapes onnxruntime computed for every tensor of a model
// at one binding of its symbols.
type truth struct {
	Model   string           `json:"model"`
	Binding map[string]int64 `json:"binding"`
	Inputs  map[string]struct {
		Shape []int64 `json:"shape"`
	} `json:"inputs"`
	OK          bool               `json:"ok"`
	Shapes      map[string][]int64 `json:"shapes"`
	FailedNodes []struct {
		Name, Op, Path, Error string
	} `json:"failed_nodes"`
	Branches []struct {
		Path   string             `json:"path"`
		Shapes map[string][]int64 `json:"shapes"`
	} `json:"branches"`
}

// truthFixtures returns the truth fixtures of the repository (testdata/truth), by path.
func truthFixtures(t *testing.T) map[string]*truth {
	paths, err := filepath.Glob(filepath.Join("..", "testdata", "truth", "*.json"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]*truth{}
	for _, p := range paths {
		if strings.HasPrefix(filepath.Base(p), "onnx112_") {
			continue
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		var tr truth
		if err := json.Unmarshal(b, &tr); err != nil {
			t.Fatalf("%s: %v", p, err)
		}
		out[p] = &tr
	}
	return out
}

// truthStats counts, over the tensors of a fixture, those whose inferred shape equals the truth,
// those it leaves undetermined, and those it contradicts.
type truthStats struct {
	tensors, equal, undetermined int
	contradicted                 []string
}

// compare checks an inferred shape against the true one: contradicted when some dim cannot be the
// true value (bounds, rank, or an expression that evaluates to another value at the binding).
func compareShape(s sym.Shape, want []int64, binding map[string]int64) (equal, contradicted bool) {
	if s.RankDynamic {
		return false, false
	}
	if len(s.Dims) != len(want) {
		return false, true
	}
	equal = true
	for i, d := range s.Dims {
		lo, hi := d.Bounds()
		if want[i] < lo || want[i] > hi {
			return false, true
		}
		if n, ok := d.Static(); ok {
			if n != want[i] {
				return false, true
			}
			continue
		}
		e, exact := d.Expr()
		if !exact || e.DependsOnAnon() {
			equal = false
			continue
		}
		v, err := e.Eval(func(name string) (int64, bool) { x, ok := binding[name]; return x, ok })
		if err != nil {
			equal = false
			continue
		}
		if v != want[i] {
			return false, true
		}
	}
	return equal, false
}

// TestTruth compares the shapes inferred for the models of the fixtures with the shapes
// onnxruntime computed: symbolically (every expression evaluated at the fixture's binding) and
// with the binding applied (every shape static). No inferred shape may contradict a true one;
// coverage is logged.
func TestTruth(t *testing.T) {
	fixtures := truthFixtures(t)
	if len(fixtures) == 0 {
		t.Skip("no fixtures in testdata/truth")
	}
	paths := make([]string, 0, len(fixtures))
	for p := range fixtures {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	for _, p := range paths {
		t.Run(strings.TrimSuffix(filepath.Base(p), ".json"), func(t *testing.T) {
			tr := fixtures[p]
			g := loadONNX(t, shared.Resolve(t, tr.Model))
			for _, mode := range []string{"symbolic", "bound"} {
				opt := graph.Options{}
				if mode == "bound" {
					opt.Dims = tr.Binding
				}
				res, err := graph.Infer(g, opt)
				if err != nil {
					t.Errorf("%s %s: %v", filepath.Base(p), mode, err)
					continue
				}
				var st truthStats
				check := func(where, name string, info *graph.Info, want []int64) {
					st.tensors++
					eq, bad := compareShape(info.Shape, want, tr.Binding)
					switch {
					case bad:
						st.contradicted = append(st.contradicted, fmt.Sprintf("%s%s: inferred %v, true %v", where, name, info.Shape, want))
					case eq:
						st.equal++
					default:
						st.undetermined++
					}
				}
				for name, want := range tr.Shapes {
					if info := res.Tensor(name); info != nil {
						check("", name, info, want)
					}
				}
				// The tensors of the If branches onnxruntime took, by their paths.
				for _, b := range tr.Branches {
					for name, want := range b.Shapes {
						if info := res.Tensor(b.Path + "/" + name); info != nil {
							check(b.Path+": ", name, info, want)
						}
					}
				}
				slices.Sort(st.contradicted)
				for _, c := range st.contradicted {
					t.Errorf("%s %s: %s", filepath.Base(p), mode, c)
				}
				t.Logf("%-40s %-8s %4d tensors: %4d equal, %4d undetermined, %d contradicted; unsupported %v",
					filepath.Base(p), mode, st.tensors, st.equal, st.undetermined, len(st.contradicted), res.Unsupported)
			}
		})
	}
}
