package graph

import (
	"errors"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// registered returns the registry's keys, sorted by domain and operator.
func registered() []opKey {
	return slices.SortedFunc(maps.Keys(registry), func(a, b opKey) int {
		return strings.Compare(a.domain+":"+a.name, b.domain+":"+b.name)
	})
}

// TestRegistryDeclarations checks every declaration: versions given and ascending (the ONNX ones
// at most 21, onnxruntime 1.20.1's last opset, but for the operators defined after it), spans of
// one operator that do not meet and only the last deprecated, arities with min <= max, and no
// value read of an input past the last the operator takes.
func TestRegistryDeclarations(t *testing.T) {
	after21 := map[string]bool{"RMSNormalization": true, "Swish": true}
	n := 0
	for _, k := range registered() {
		list := registry[k]
		for i, o := range list {
			n++
			v := o.versions.since
			where := fmt.Sprintf("%s:%s-%v", k.domain, k.name, v)
			switch {
			case len(v) == 0:
				t.Errorf("%s: no versions", where)
				continue
			case !slices.IsSorted(v) || len(slices.Compact(slices.Clone(v))) != len(v):
				t.Errorf("%s: versions not strictly ascending", where)
			case v[0] < 1:
				t.Errorf("%s: a version below 1", where)
			case k.domain == "" && v[len(v)-1] > 21 && !after21[k.name]:
				t.Errorf("%s: a version past opset 21", where)
			}
			if i > 0 {
				prev := list[i-1].versions
				if prev.since[len(prev.since)-1] >= v[0] || prev.last != 0 {
					t.Errorf("%s: overlaps the span before it, %v (last %d)", where, prev.since, prev.last)
				}
			}
			if o.versions.last != 0 && o.versions.last < v[len(v)-1] {
				t.Errorf("%s: deprecated after %d, before its last version", where, o.versions.last)
			}
			for _, a := range []arity{o.in, o.out} {
				if a.min < 0 || a.max != many && a.max < a.min {
					t.Errorf("%s: arity %d..%d", where, a.min, a.max)
				}
			}
			if o.values != allValues && o.in.max != many && o.values>>o.in.max != 0 {
				t.Errorf("%s: reads the values of input %d, past its %d inputs", where, 63-countLeadingZeros(o.values), o.in.max)
			}
			if o.values == allValues && o.in.max != many {
				t.Errorf("%s: reads every input's values, of a bounded list (name them)", where)
			}
			if o.rule == nil {
				t.Errorf("%s: no rule", where)
			}
		}
	}
	if n < 200 {
		t.Errorf("%d declarations, want the 200 and more of the ONNX and OpenVINO tables", n)
	}
}

func countLeadingZeros(m valueMask) int {
	k := 0
	for i := 63; i >= 0 && m&(1<<i) == 0; i-- {
		k++
	}
	return k
}

// signatureNode returns a graph of one node of op at version, of nIn inputs (each a graph input of
// shape [2,3]) and nOut outputs.
func signatureNode(domain, op string, version int64, nIn, nOut int) *Graph {
	g := &Graph{Consts: map[string]*Const{}, Declared: map[string]Decl{}}
	n := Node{Name: "n", Op: op, Domain: domain, Version: version}
	for i := range nIn {
		name := fmt.Sprintf("x%d", i)
		g.Inputs = append(g.Inputs, Input{Name: name, Decl: Decl{Type: element.F32, Rank: 2, Dims: []DeclDim{StaticDim(2), StaticDim(3)}}})
		n.Inputs = append(n.Inputs, name)
	}
	for i := range nOut {
		n.Outputs = append(n.Outputs, fmt.Sprintf("y%d", i))
	}
	g.Nodes = []Node{n}
	return g
}

// TestSignatureRefused builds, for every registered operator and span of versions, nodes one
// output past the most it has, one input past the most it takes and one below the least, one
// output below the least, and nodes at a version before the operator exists and after it is
// deprecated: each is refused with an error wrapping errcode.ErrSyntax that names the counts (or
// the opsets), before its rule runs.
func TestSignatureRefused(t *testing.T) {
	type refusal struct {
		what      string
		version   int64
		nIn, nOut int
		want      string
	}
	checked := 0
	for _, k := range registered() {
		for _, o := range registry[k] {
			v := o.versions.since[0]
			in := max(o.in.min, 1)
			if o.in.max == 0 {
				in = 0
			}
			out := max(o.out.min, 1)
			var cases []refusal
			if o.out.max != many {
				cases = append(cases, refusal{"one output too many", v, in, o.out.max + 1, count(o.out.max+1, "output") + ", and " + k.name + " has at most"})
			}
			if o.in.max != many {
				cases = append(cases, refusal{"one input too many", v, o.in.max + 1, out, count(o.in.max+1, "input") + ", and " + k.name + " takes at most"})
			}
			if o.in.min > 0 {
				want := fmt.Sprintf("input %d is missing: %s takes", o.in.min-1, k.name)
				if o.in.max == many {
					want = k.name + " has " + count(o.in.min-1, "input") + ", and takes at least"
				}
				cases = append(cases, refusal{"one input too few", v, o.in.min - 1, out, want})
			}
			if o.out.min > 0 {
				cases = append(cases, refusal{"one output too few", v, in, o.out.min - 1, k.name + " has " + count(o.out.min-1, "output")})
			}
			if first := registry[k][0].versions.since[0]; o == registry[k][0] && first > 1 {
				cases = append(cases, refusal{"before it exists", first - 1, in, out, k.name + " is not in " + opset(k.domain, first-1)})
			}
			if last := o.versions.last; last > 0 {
				cases = append(cases, refusal{"after it is deprecated", last + 1, in, out, k.name + " is not in " + opset(k.domain, last+1)})
			}
			for _, tc := range cases {
				checked++
				res, err := Infer(signatureNode(k.domain, k.name, tc.version, tc.nIn, tc.nOut), Options{})
				if err != nil {
					t.Fatalf("%s:%s-%d %s: Infer: %v", k.domain, k.name, tc.version, tc.what, err)
				}
				r := res.Nodes[0]
				if !errors.Is(r.Err, errcode.ErrSyntax) || !strings.Contains(r.Err.Error(), tc.want) {
					t.Errorf("%s:%s-%d %s (%d inputs, %d outputs): error %v, want one wrapping ErrSyntax with %q",
						k.domain, k.name, tc.version, tc.what, tc.nIn, tc.nOut, r.Err, tc.want)
				}
				if r.Unsupported {
					t.Errorf("%s:%s-%d %s: reported unsupported", k.domain, k.name, tc.version, tc.what)
				}
			}
		}
	}
	if checked < 600 {
		t.Errorf("%d nodes refused, want more than 600", checked)
	}
}

// TestSignatureAccepted checks that the counts at the bounds of each signature pass the check, and
// what a node of a version past the last since-version (a later opset) takes: the last span's.
func TestSignatureAccepted(t *testing.T) {
	for _, k := range registered() {
		list := registry[k]
		for _, o := range list {
			for _, nIn := range []int{o.in.min, max(o.in.max, o.in.min)} {
				for _, nOut := range []int{o.out.min, max(o.out.max, o.out.min)} {
					if err := o.check(nIn, nOut); err != nil {
						t.Errorf("%s:%s-%v, %d inputs, %d outputs: %v", k.domain, k.name, o.versions.since, nIn, nOut, err)
					}
				}
			}
		}
		last := list[len(list)-1]
		if last.versions.last != 0 {
			continue
		}
		got, err := lookup(k.domain, k.name, 99)
		if err != nil || got != last {
			t.Errorf("%s:%s at version 99: %v, %v; want its last span %v", k.domain, k.name, got, err, last.versions.since)
		}
	}
}

// TestValueMask runs the models of testdata/models twice, with
// each rule's mask and with every rule reading every input's values, and checks that the
// inferred types, shapes and values are the same: no rule reads the values of an input its
// declaration leaves out.
func TestValueMask(t *testing.T) {
	paths, _ := filepath.Glob(filepath.Join("..", "testdata", "models", "*.onnx"))
	if len(paths) < 10 {
		t.Fatalf("%d models in testdata/models", len(paths))
	}
	infer := func(g *Graph) string {
		res, err := Infer(g, Options{})
		if err != nil {
			return "error: " + err.Error()
		}
		var b strings.Builder
		for _, r := range res.Nodes {
			fmt.Fprintf(&b, "%s %v", r.Path, r.Err)
			for _, o := range r.Outputs {
				fmt.Fprintf(&b, " | %v%v %v %v", o.Type, o.Shape, sym.ShapeOf(o.Value...), o.Floats)
			}
			b.WriteByte('\n')
		}
		return b.String()
	}
	for _, path := range paths {
		data, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		g := decodeGraph(t, data)
		masked := infer(g)
		saved := map[*opDef]valueMask{}
		for _, list := range registry {
			for _, o := range list {
				saved[o] = o.values
				o.values = allValues
			}
		}
		all := infer(g)
		for o, m := range saved {
			o.values = m
		}
		if masked != all {
			t.Errorf("%s: the masks change the result", filepath.Base(path))
		}
	}
}

// TestSignaturesAgainstOnnxruntime compares the ONNX registrations with what onnxruntime 1.20.1's
// schemas say of each operator at opsets 1 to 21 (testdata/ort_signatures.tsv, written by
// bench/signatures): whether the opset has it, and the least and most inputs and outputs of a node.
func TestSignaturesAgainstOnnxruntime(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "ort_signatures.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	parse := func(s string) (arity, bool) {
		lo, hi, ok := strings.Cut(s, "..")
		if !ok {
			return arity{}, false
		}
		var a arity
		fmt.Sscan(lo, &a.min)
		if a.max = many; hi != "*" {
			fmt.Sscan(hi, &a.max)
		}
		return a, true
	}
	rows := 0
	for line := range strings.Lines(string(data)) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		var version int64
		fmt.Sscan(f[1], &version)
		o, err := lookup("", f[0], version)
		rows++
		if f[2] == "-" {
			if err == nil {
				t.Errorf("%s at opset %d: registered %v, and onnxruntime has no such operator", f[0], version, o.versions.since)
			}
			continue
		}
		if err != nil || o == nil {
			t.Errorf("%s at opset %d: %v, and onnxruntime has it", f[0], version, err)
			continue
		}
		for k, want := range map[string]string{"inputs": f[2], "outputs": f[3]} {
			got := o.in
			if k == "outputs" {
				got = o.out
			}
			if a, ok := parse(want); ok && a != got {
				t.Errorf("%s at opset %d: %s %d..%d, onnxruntime's %s", f[0], version, k, got.min, got.max, want)
			}
		}
	}
	if rows < 3000 {
		t.Errorf("%d rows in testdata/ort_signatures.tsv", rows)
	}
}

// TestEveryONNX112Operator checks that every operator onnx 1.12's schemas define in the default
// domain, ai.onnx.ml and ai.onnx.preview.training has a rule at each version of its domain
// (testdata/onnx112_schemas.tsv, written by bench/signatures/schemas.py): none of them is "no shape
// rule" (issue 26).
func TestEveryONNX112Operator(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "onnx112_schemas.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]int{}
	for line := range strings.Lines(string(data)) {
		if strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		var version int64
		if len(f) != 3 {
			t.Fatalf("%q: want DOMAIN OP VERSION", line)
		}
		fmt.Sscan(f[2], &version)
		domain := f[0]
		if domain == "ai.onnx" {
			domain = ""
		}
		rows[f[0]]++
		if o, err := lookup(domain, f[1], version); o == nil || err != nil {
			t.Errorf("%s:%s at version %d: no rule (%v)", f[0], f[1], version, err)
		}
	}
	// onnx 1.12: 17 versions of the default domain, 3 of ai.onnx.ml (18 operators), 1 of training.
	if rows["ai.onnx"] < 2000 || rows["ai.onnx.ml"] != 54 || rows[domainTraining] != 4 {
		t.Errorf("rows by domain %v", rows)
	}
}

// TestMLOperatorsAfterONNX112 checks the versions of ai.onnx.ml that onnx 1.12 does not know (4 and
// 5, TestEveryONNX112Operator has 1 to 3): every operator the ONNX-ML specification defines there has
// a rule, and TreeEnsembleClassifier and TreeEnsembleRegressor, deprecated at 5 for TreeEnsemble,
// have none at 5.
func TestMLOperatorsAfterONNX112(t *testing.T) {
	const ml = "ai.onnx.ml"
	for _, tc := range []struct {
		op       string
		from, to int64 // the versions of the domain, from 4, that define it
	}{
		{"ArrayFeatureExtractor", 4, 5}, {"Binarizer", 4, 5}, {"CastMap", 4, 5}, {"CategoryMapper", 4, 5},
		{"DictVectorizer", 4, 5}, {"FeatureVectorizer", 4, 5}, {"Imputer", 4, 5}, {"LabelEncoder", 4, 5},
		{"LinearClassifier", 4, 5}, {"LinearRegressor", 4, 5}, {"Normalizer", 4, 5}, {"OneHotEncoder", 4, 5},
		{"SVMClassifier", 4, 5}, {"SVMRegressor", 4, 5}, {"Scaler", 4, 5}, {"TreeEnsembleClassifier", 4, 4},
		{"TreeEnsembleRegressor", 4, 4}, {"TreeEnsemble", 5, 5}, {"ZipMap", 4, 5},
	} {
		for v := int64(4); v <= 5; v++ {
			o, err := lookup(ml, tc.op, v)
			if want := v >= tc.from && v <= tc.to; (o != nil && err == nil) != want {
				t.Errorf("%s:%s-%d: rule %v (%v), want one: %v", ml, tc.op, v, o != nil, err, want)
			}
		}
	}
}
