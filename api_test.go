package reshape_test

import (
	"bytes"
	"flag"
	"fmt"
	"go/ast"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var updateAPI = flag.Bool("update-api", false, "write the exported API of the module's packages to api/ (TestAPI)")

// TestAPI compares the exported API of every package of the module a program may import (all but
// internal/..., cmd/... and bench/...) with its listing in api/PACKAGE.txt, one line per
// identifier, field and method, with its type and a constant's value: the surface a user of the
// library relies on. A change to it fails the test until the listing is updated, so that it is
// seen in review: a line removed or changed breaks the users of the last release (incompatible);
// a line added does not. Write the listing anew, when the change is meant, with
//
//	go test -run '^TestAPI$' . -update-api
//
// The packages are read from their export data (go list -export), as the compiler sees them.
func TestAPI(t *testing.T) {
	pkgs, exports := modulePackages(t)
	fset := token.NewFileSet()
	imp := importer.ForCompiler(fset, "gc", func(path string) (io.ReadCloser, error) {
		file, ok := exports[path]
		if !ok {
			return nil, fmt.Errorf("no export data for %s", path)
		}
		return os.Open(file)
	})
	files := map[string]bool{}
	for _, path := range pkgs {
		pkg, err := imp.Import(path)
		if err != nil {
			t.Fatalf("%s: %v", path, err)
		}
		file := filepath.Join("api", apiFile(path))
		files[filepath.Base(file)] = true
		got := apiListing(pkg)
		if *updateAPI {
			if err := os.MkdirAll("api", 0o777); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(strings.Join(got, "\n")+"\n"), 0o666); err != nil {
				t.Fatal(err)
			}
			continue
		}
		b, err := os.ReadFile(file)
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
		var want []string
		if len(b) > 0 {
			want = strings.Split(strings.TrimSuffix(string(b), "\n"), "\n")
		}
		if removed, added := apiDiff(want, got); len(removed)+len(added) > 0 {
			t.Errorf("the exported API of %s is not its listing %s:%s%s\n"+
				"If the change is meant, write the listing with: go test -run '^TestAPI$' . -update-api",
				path, file, apiLines("incompatible (removed or changed)", removed), apiLines("added", added))
		}
	}
	entries, err := os.ReadDir("api")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !files[e.Name()] {
			if *updateAPI {
				os.Remove(filepath.Join("api", e.Name()))
				continue
			}
			t.Errorf("api/%s lists a package the module no longer has (incompatible); remove it with: go test -run '^TestAPI$' . -update-api", e.Name())
		}
	}
}

// modulePackages returns the import paths of the module's packages that TestAPI lists, in order,
// and the export data file of every package they need.
func modulePackages(t *testing.T) (pkgs []string, exports map[string]string) {
	t.Helper()
	cmd := exec.Command("go", "list", "-export", "-deps", "-f", "{{.ImportPath}}\t{{.Export}}\t{{.Name}}\t{{.Module}}", "./...")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, stderr.Bytes())
	}
	const module = "github.com/reshape-go/reshape"
	exports = map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n") {
		f := strings.Split(line, "\t")
		path, export, name, mod := f[0], f[1], f[2], f[3]
		exports[path] = export
		rel, inModule := strings.CutPrefix(path, module)
		if mod != module || !inModule || name == "main" {
			continue
		}
		rel = strings.TrimPrefix(rel, "/")
		if rel == "internal" || strings.HasPrefix(rel, "internal/") || strings.Contains(rel, "/internal/") ||
			strings.HasPrefix(rel, "cmd/") || strings.HasPrefix(rel, "bench/") {
			continue
		}
		pkgs = append(pkgs, path)
	}
	slices.Sort(pkgs)
	return pkgs, exports
}

// apiFile returns the name of the listing of the package at path: reshape.txt for the module's
// root, else its path in the module with / as -: graph.txt.
func apiFile(path string) string {
	rel := strings.TrimPrefix(strings.TrimPrefix(path, "github.com/reshape-go/reshape"), "/")
	if rel == "" {
		rel = "reshape"
	}
	return strings.ReplaceAll(rel, "/", "-") + ".txt"
}

// apiListing returns the exported API of pkg, sorted: a line per constant, variable, function,
// type, exported or embedded field of a struct type, method or embedded type (a constraint's
// union) of an interface type, and method of a named type (promoted ones included), with types as
// the package itself spells them.
func apiListing(pkg *types.Package) []string {
	qual := func(p *types.Package) string {
		if p == pkg {
			return ""
		}
		return p.Name()
	}
	typ := func(t types.Type) string { return types.TypeString(t, qual) }
	var lines []string
	scope := pkg.Scope()
	for _, name := range scope.Names() {
		obj := scope.Lookup(name)
		if !obj.Exported() {
			continue
		}
		switch obj := obj.(type) {
		case *types.Const:
			lines = append(lines, fmt.Sprintf("const %s %s = %s", name, typ(obj.Type()), obj.Val().ExactString()))
		case *types.Var:
			lines = append(lines, fmt.Sprintf("var %s %s", name, typ(obj.Type())))
		case *types.Func:
			lines = append(lines, "func "+name+apiSignature(obj.Type().(*types.Signature), qual))
		case *types.TypeName:
			lines = append(lines, apiType(obj, qual)...)
		}
	}
	slices.Sort(lines)
	return lines
}

// apiType returns the lines of the type obj: its kind or underlying type, its exported fields or
// interface methods, and its methods.
func apiType(obj *types.TypeName, qual types.Qualifier) []string {
	name := obj.Name()
	head := "type " + name
	if obj.IsAlias() {
		return []string{head + " = " + types.TypeString(types.Unalias(obj.Type()), qual)}
	}
	named := obj.Type().(*types.Named)
	if tp := named.TypeParams(); tp.Len() > 0 {
		head += apiTypeParams(tp, qual)
	}
	var lines []string
	switch u := named.Underlying().(type) {
	case *types.Struct:
		lines = append(lines, head+" struct")
		for i := range u.NumFields() {
			f := u.Field(i)
			switch {
			case f.Embedded():
				lines = append(lines, head+" struct, embedded "+types.TypeString(f.Type(), qual))
			case f.Exported():
				lines = append(lines, head+" struct, "+f.Name()+" "+types.TypeString(f.Type(), qual))
			}
		}
	case *types.Interface:
		lines = append(lines, head+" interface")
		for i := range u.NumEmbeddeds() {
			lines = append(lines, head+" interface, embedded "+types.TypeString(u.EmbeddedType(i), qual))
		}
		for i := range u.NumMethods() {
			if m := u.Method(i); m.Exported() {
				lines = append(lines, head+" interface, "+m.Name()+apiSignature(m.Type().(*types.Signature), qual))
			}
		}
	default:
		lines = append(lines, head+" "+types.TypeString(u, qual))
	}
	if _, isInterface := named.Underlying().(*types.Interface); isInterface {
		return lines
	}
	values := types.NewMethodSet(named)
	ms := types.NewMethodSet(types.NewPointer(named))
	for i := range ms.Len() {
		m := ms.At(i).Obj()
		if !m.Exported() {
			continue
		}
		recv := name
		if values.Lookup(m.Pkg(), m.Name()) == nil {
			recv = "*" + name
		}
		lines = append(lines, "method ("+recv+") "+m.Name()+apiSignature(m.Type().(*types.Signature), qual))
	}
	return lines
}

// apiTypeParams returns a list of type parameters with their constraints: "[T any]".
func apiTypeParams(tp *types.TypeParamList, qual types.Qualifier) string {
	var b strings.Builder
	b.WriteByte('[')
	for i := range tp.Len() {
		if i > 0 {
			b.WriteString(", ")
		}
		p := tp.At(i)
		b.WriteString(p.Obj().Name() + " " + types.TypeString(p.Constraint(), qual))
	}
	b.WriteByte(']')
	return b.String()
}

// apiSignature returns a function's type parameters, parameters and results, without their names
// (which a caller does not see): "[T Number](Tensor) ([]T, error)".
func apiSignature(sig *types.Signature, qual types.Qualifier) string {
	unnamed := func(vars *types.Tuple) *types.Tuple {
		out := make([]*types.Var, vars.Len())
		for i := range out {
			out[i] = types.NewParam(token.NoPos, nil, "", vars.At(i).Type())
		}
		return types.NewTuple(out...)
	}
	var b bytes.Buffer
	if tp := sig.TypeParams(); tp.Len() > 0 {
		b.WriteString(apiTypeParams(tp, qual))
	}
	types.WriteSignature(&b, types.NewSignatureType(nil, nil, nil, unnamed(sig.Params()), unnamed(sig.Results()), sig.Variadic()), qual)
	return b.String()
}

// apiDiff returns the lines of want that got lacks (removed, or changed), and those of got that
// want lacks (added); both are sorted.
func apiDiff(want, got []string) (removed, added []string) {
	have := map[string]bool{}
	for _, l := range got {
		have[l] = true
	}
	listed := map[string]bool{}
	for _, l := range want {
		listed[l] = true
		if !have[l] {
			removed = append(removed, l)
		}
	}
	for _, l := range got {
		if !listed[l] {
			added = append(added, l)
		}
	}
	return removed, added
}

// apiLines returns the lines under a heading, each indented, or "" for none.
func apiLines(heading string, lines []string) string {
	if len(lines) == 0 {
		return ""
	}
	return "\n" + heading + ":\n\t" + strings.Join(lines, "\n\t")
}

// TestAPIListing lists a small package of every kind of declaration, as TestAPI lists the module's.
func TestAPIListing(t *testing.T) {
	const src = `package p

import "io"

const (
	A Kind = iota + 1
	b
	C = "c"
)

var V, w = io.EOF, 1

type Kind uint8

func (k Kind) String() string { return "" }
func (k *Kind) Set(s string) error { return nil }
func (k Kind) hidden() {}

type Number interface{ ~int32 | ~int64 }

type S struct {
	io.Reader
	Name string
	n    int
	F    func(limit int64) error
}

type I interface {
	M(x, y int) (n int, err error)
	hidden()
}

type Alias = S

type Box[T Number] struct{ V T }

func Sum[T Number](xs ...T) (total T) { return }

func f() {}
`
	fset := token.NewFileSet()
	file, err := parser.ParseFile(fset, "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	pkg, err := (&types.Config{Importer: importer.Default()}).Check("p", fset, []*ast.File{file}, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"const A Kind = 1",
		`const C untyped string = "c"`,
		"func Sum[T Number](...T) T",
		"method (*Kind) Set(string) error",
		"method (S) Read([]byte) (int, error)",
		"method (Kind) String() string",
		"type Alias = S",
		"type Box[T Number] struct",
		"type Box[T Number] struct, V T",
		"type I interface",
		"type I interface, M(int, int) (int, error)",
		"type Kind uint8",
		"type Number interface",
		"type Number interface, embedded ~int32 | ~int64",
		"type S struct",
		"type S struct, F func(limit int64) error",
		"type S struct, Name string",
		"type S struct, embedded io.Reader",
		"var V error",
	}
	got := apiListing(pkg)
	if removed, added := apiDiff(want, got); len(removed)+len(added) > 0 {
		t.Errorf("listing:%s%s", apiLines("missing", removed), apiLines("unexpected", added))
	}
}
