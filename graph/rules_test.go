package graph

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// engineFiles are the files of the engine's side of ctx, the only ones that may read the engine
// through a ctx (c.e): every other file of the package holds rules or the kernels they share,
// which talk to ctx only.
var engineFiles = []string{"ctx.go", "engine.go", "fork.go", "lost.go", "subgraph.go"}

// ctxEngineReads returns file:line of each read of the engine through a ctx (the selector e of a
// variable of type *ctx, or of one named c) in the package's non-test file path.
func ctxEngineReads(t *testing.T, fset *token.FileSet, path string) []string {
	t.Helper()
	f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
	if err != nil {
		t.Fatal(err)
	}
	ctxNames := map[string]bool{"c": true}
	isCtx := func(e ast.Expr) bool {
		if s, ok := e.(*ast.StarExpr); ok {
			e = s.X
		}
		id, ok := e.(*ast.Ident)
		return ok && id.Name == "ctx"
	}
	var found []string
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.Field:
			if isCtx(n.Type) {
				for _, name := range n.Names {
					ctxNames[name.Name] = true
				}
			}
		case *ast.ValueSpec:
			if n.Type != nil && isCtx(n.Type) {
				for _, name := range n.Names {
					ctxNames[name.Name] = true
				}
			}
		case *ast.SelectorExpr:
			if id, ok := n.X.(*ast.Ident); ok && ctxNames[id.Name] && n.Sel.Name == "e" {
				p := fset.Position(n.Pos())
				found = append(found, fmt.Sprintf("%s:%d", filepath.Base(p.Filename), p.Line))
			}
		}
		return true
	})
	return found
}

// TestRulesTalkToCtx keeps the rules and the kernels they share on their side of ctx: no file but
// the engine's reads the engine through a ctx (c.e.solver, c.e.res, c.e.opt, ...). What a rule
// needs of the engine is a ctx method (Unify, Require, Subgraph, Branches, Iterate, MaxRank,
// ConstInfo, ...).
func TestRulesTalkToCtx(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	rules := 0
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		found := ctxEngineReads(t, fset, path)
		if slices.Contains(engineFiles, path) {
			if path == "ctx.go" && len(found) == 0 {
				t.Errorf("ctx.go reads the engine nowhere through c.e: the check finds nothing")
			}
			continue
		}
		rules++
		for _, at := range found {
			t.Errorf("%s: a rule reads the engine through its ctx (c.e): give it a ctx method", at)
		}
	}
	if rules < 20 {
		t.Errorf("%d files of rules checked: want the package's files", rules)
	}
}
