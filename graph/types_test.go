package graph

import (
	"cmp"
	"errors"
	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/sym"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
)

// typeErrs infers the model of c and returns the type errors of its nodes, nil when it cannot be
// decoded or inferred.
func typeErrs(t *testing.T, c *nodeTest) []error {
	m, err := onnx.DecodeModel(c.Model)
	if err != nil {
		return nil
	}
	g, err := FromONNX(m, "")
	if err != nil {
		return nil
	}
	res, err := Infer(g, c.options())
	if err != nil {
		return nil
	}
	var errs []error
	for _, n := range res.Nodes {
		if n.TypeErr != nil {
			errs = append(errs, n.TypeErr)
		}
	}
	return errs
}

// TestTypesNodeTests checks the type signatures against models whose verdict is known: ONNX's own
// node tests, valid models, get no data-type error; the onnxruntime cases that onnxruntime runs get
// no type error at all, and those it refuses for want of a kernel ("Could not find an
// implementation for ...") a no-kernel error where the refusal is of an input's type.
func TestTypesNodeTests(t *testing.T) {
	noKernel := regexp.MustCompile(`^Could not find an implementation for (\w+)\((\d+)\)`)
	for _, s := range []nodeSuite{nodeTestsSuite, ortCasesSuite} {
		cases := s.readNodeTests(t)
		checked, flagged, refused, kernels := 0, 0, 0, 0
		for i := range cases {
			c := &cases[i]
			if c.Variant != "static" {
				continue
			}
			checked++
			errs := typeErrs(t, c)
			for _, err := range errs {
				switch {
				case errors.Is(err, errcode.ErrNoKernel) && c.Source != "onnxruntime":
					kernels++
					if testing.Verbose() {
						t.Logf("%s %s: %v", s.what, c.Name, err)
					}
				case errors.Is(err, errcode.ErrDataType):
					t.Errorf("%s %s: %v, and the model is valid", s.what, c.Name, err)
				case c.Source == "onnxruntime":
					t.Errorf("%s %s: %v, and onnxruntime runs it", s.what, c.Name, err)
				}
			}
			if noKernel.MatchString(c.ORTError) {
				refused++
				if len(errs) > 0 {
					flagged++
				} else {
					t.Logf("%s %s: not flagged: %s", s.what, c.Name, c.ORTError)
				}
			}
		}
		t.Logf("%s: %d models, %d no-kernel errors; %d refused by onnxruntime for want of a kernel, %d of them flagged no-kernel",
			s.what, checked, kernels, refused, flagged)
	}
}

// BenchmarkTypeCheck measures what the engine adds to a node to check its input types: the
// signature's lookup (versions.types) and its check, for Add-14 of two f32 inputs.
func BenchmarkTypeCheck(b *testing.B) {
	def, err := lookup("", "Add", 14)
	if err != nil || def == nil {
		b.Fatal("no Add-14", err)
	}
	f32 := &Info{Type: element.F32, Shape: sym.Ints(2, 3)}
	ins, names := []*Info{f32, f32}, []string{"a", "b"}
	b.ReportAllocs()
	for b.Loop() {
		if s := typeSigAt(def.versions.types, 14); s == nil || s.check("Add", ins, names) != nil {
			b.Fatal("Add-14 of f32 refused")
		}
	}
}

// TestTypeTables checks that register attaches each operator's type signatures to its ops, and logs
// the tables' sizes and the ONNX operators that have a rule and no signature.
func TestTypeTables(t *testing.T) {
	type size struct{ ops, versions, checked, kernels int }
	sizes := map[string]*size{}
	for k, sigs := range typeIndex {
		s := sizes[k.domain]
		if s == nil {
			s = &size{}
			sizes[k.domain] = s
		}
		s.ops++
		for _, sig := range sigs {
			s.versions++
			if sig.in != nil {
				s.checked++
			}
			for _, v := range sig.vars {
				if v.ort != 0 {
					s.kernels++
					break
				}
			}
		}
	}
	for _, d := range slices.Sorted(maps.Keys(sizes)) {
		s := sizes[d]
		t.Logf("%q: %d operators, %d versions, %d checked, %d with onnxruntime's kernels", d, s.ops, s.versions, s.checked, s.kernels)
	}
	var unchecked []string
	for k, list := range registry {
		if k.domain != "" && k.domain != DomainOpenVINO {
			continue
		}
		if _, ok := typeIndex[typeKey(k.domain, k.name)]; !ok && k.domain == "" {
			unchecked = append(unchecked, k.name)
		}
		for _, o := range list {
			if want := typeIndex[typeKey(k.domain, k.name)]; len(o.versions.types) != len(want) ||
				len(want) > 0 && &o.versions.types[0] != &want[0] {
				t.Errorf("%s:%s: register did not attach its type signatures", k.domain, k.name)
			}
		}
	}
	slices.Sort(unchecked)
	t.Logf("ONNX operators with a rule and no type signature (not in onnx's schemas): %s", strings.Join(unchecked, ", "))
}

// TestTypeFixtures infers the models of bench/types/fixtures.py, each a node whose input types
// onnxruntime 1.20.1 refuses at load and a twin that loads (testdata/types/truth.tsv holds what
// onnxruntime said), and requires the type error at the node onnxruntime refuses, of the code the
// fixture names, and none on a model that loads.
func TestTypeFixtures(t *testing.T) {
	dir := filepath.Join("testdata", "types")
	data, err := os.ReadFile(filepath.Join(dir, "truth.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	models := 0
	for _, line := range strings.Split(strings.TrimSpace(string(data)), "\n") {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) != 4 {
			t.Fatalf("truth.tsv: %q: want 4 fields", line)
		}
		name, ort, node, code := f[0], f[1], f[2], f[3]
		models++
		t.Run(name, func(t *testing.T) {
			g, err := Open(filepath.Join(dir, name+".onnx"), OpenOptions{})
			if err != nil {
				t.Fatal(err)
			}
			res, err := Infer(g, Options{})
			if err != nil {
				t.Fatal(err)
			}
			loads := ort == "ok"
			if loads != (node == "-") {
				t.Fatalf("onnxruntime says %q, and the fixture's node is %q", ort, node)
			}
			var got []string
			var first error
			for _, r := range res.Nodes {
				if r.TypeErr != nil {
					got = append(got, r.Path+" "+errcode.Code(r.TypeErr)+": "+r.TypeErr.Error())
					first = cmp.Or(first, r.TypeErr)
				}
			}
			switch {
			case loads && len(got) > 0:
				t.Errorf("onnxruntime loads it, and: %s", strings.Join(got, "; "))
			case !loads && (len(got) != 1 || !strings.HasPrefix(got[0], node+" "+code+": ")):
				t.Errorf("onnxruntime refuses it (%s): got %q, want one %s error at %s", ort, got, code, node)
			}
			// The library's verdicts at a binding: the type error, at every binding, or none.
			b := map[string]int64{}
			for _, s := range res.Symbols() {
				b[s.Name] = max(s.Lo, 2)
			}
			_, evalErr := res.Eval(g.Outputs[0], b)
			for what, err := range map[string]error{"Check": res.Check(b), "Eval": evalErr} {
				typed := errors.Is(err, errcode.ErrDataType) || errors.Is(err, errcode.ErrNoKernel)
				switch {
				case loads && typed:
					t.Errorf("onnxruntime loads it, and %s(%v) = %v", what, b, err)
				case !loads && (err != first || errcode.Code(err) != code || !strings.HasPrefix(err.Error(), node+" (")):
					t.Errorf("onnxruntime refuses it (%s): %s(%v) = %v, want the %s error of %s (%v)", ort, what, b, err, code, node, first)
				}
			}
		})
	}
	if models < 60 {
		t.Errorf("%d fixtures: the generator writes 60", models)
	}
}

// TestMLTypesAtVersion5 checks the type tables at ai.onnx.ml 5, which onnx 1.12 does not know
// (bench/types/gen.py probes it with onnxruntime 1.20.1): TreeEnsembleClassifier and
// TreeEnsembleRegressor, deprecated there for TreeEnsemble, have a signature at 4 and none at 5;
// TreeEnsemble has one at 5 only; the other operators keep their version-4 signature.
func TestMLTypesAtVersion5(t *testing.T) {
	for _, tc := range []struct {
		op          string
		at4, at5    bool
		sameAtFour5 bool
	}{
		{"TreeEnsembleClassifier", true, false, false}, {"TreeEnsembleRegressor", true, false, false},
		{"TreeEnsemble", false, true, false}, {"LabelEncoder", true, true, true}, {"Scaler", true, true, true},
	} {
		sigs := typeIndex[typeKey(domainML, tc.op)]
		s4, s5 := typeSigAt(sigs, 4), typeSigAt(sigs, 5)
		if (s4 != nil) != tc.at4 || (s5 != nil) != tc.at5 || tc.sameAtFour5 && s4 != s5 {
			t.Errorf("%s: a signature at 4: %v, at 5: %v (the same: %v); want %v, %v, %v", tc.op, s4 != nil, s5 != nil, s4 == s5,
				tc.at4, tc.at5, tc.sameAtFour5)
		}
	}
}
