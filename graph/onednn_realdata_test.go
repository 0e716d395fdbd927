package graph

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/internal/testenv"
	"github.com/reshape-go/reshape/onednn"
	"github.com/reshape-go/reshape/sym"
)

// oneDNNGolden holds, per benchdnn graph of ../shared/realdata/uxlfoundation__oneDNN (the newest
// files, and the older versions under _history), its ops, those without a rule or whose rule
// fails, and every logical tensor whose declaration differs from the inferred shape.
const oneDNNGolden = "testdata/onednn.golden"

// TestOneDNNRealGraphs infers every benchdnn graph oneDNN ships and compares each logical tensor
// an op outputs with its declaration, and the declarations of one tensor with each other; the
// lines are the golden file's (go test -run TestOneDNNRealGraphs -update rewrites it).
func TestOneDNNRealGraphs(t *testing.T) {
	root := testenv.Shared(t, "realdata/uxlfoundation__oneDNN")
	var lines []string
	var files, ops, ruled, clean int
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		line, n, r, ok := oneDNNFileLine(t, path)
		files, ops, ruled = files+1, ops+n, ruled+r
		if ok {
			clean++
		}
		lines = append(lines, rel+": "+line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	lines = append(lines, fmt.Sprintf("total: %d files, %d ops, %d with a rule, %d files whose every declaration is inferred", files, ops, ruled, clean))
	compareGolden(t, oneDNNGolden, strings.Join(lines, "\n")+"\n")
}

// oneDNNFileLine infers the graph at path and returns its golden line, its ops, those with a rule,
// and whether every op has a rule that holds and every declaration is the inferred shape.
func oneDNNFileLine(t *testing.T, path string) (line string, ops, ruled int, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dg, err := onednn.Decode(f)
	if err != nil {
		return "decode: " + err.Error(), 0, 0, false
	}
	g, err := FromOneDNN(dg)
	if err != nil {
		return "graph: " + err.Error(), len(dg.Ops), 0, false
	}
	res, err := Infer(g, Options{})
	if err != nil {
		return "infer: " + err.Error(), len(dg.Ops), 0, false
	}
	var notes, inferred []string // what differs, and the tensors declared with unknown dims
	lts, _ := dg.LogicalTensors()
	for i := range lts {
		if _, conflict, _ := lts[i].Declared(); conflict != nil {
			notes = append(notes, fmt.Sprintf("tensor %d declared twice: %v %v, %v %v", lts[i].ID,
				conflict[0], conflict[0].Tensor.Shape, conflict[1], conflict[1].Tensor.Shape))
		}
	}
	for i := range res.Nodes {
		r := &res.Nodes[i]
		switch {
		case r.Unsupported:
			notes = append(notes, "no rule: "+r.Path+" ("+r.Node.Op+")")
			continue
		case r.Err != nil:
			notes = append(notes, "error: "+r.Err.Error())
		case r.Blocked != "":
		default:
			for k, name := range r.Node.Outputs {
				d, ok := g.Declared[name]
				if !ok || r.Outputs[k] == nil {
					continue
				}
				if !declStatic(d) {
					inferred = append(inferred, fmt.Sprintf("tensor %s of %s (%s): declared %s, inferred %v", name, r.Path, r.Node.Op, declString(d), r.Outputs[k].Shape))
				}
				if why := declDiffers(d, r.Outputs[k].Shape); why != "" {
					notes = append(notes, fmt.Sprintf("tensor %s of %s (%s): %s", name, r.Path, r.Node.Op, why))
				}
			}
		}
		ruled++
	}
	line = fmt.Sprintf("%d ops", len(res.Nodes))
	if len(notes) == 0 {
		line += ", every declaration inferred"
	}
	for _, n := range append(notes, inferred...) {
		line += "\n\t" + n
	}
	return line, len(res.Nodes), ruled, len(notes) == 0
}

// declDiffers says how the declaration d differs from the inferred shape s: another rank, a known
// dim of another value, or a known dim the rules leave unknown; "" when they agree.
func declDiffers(d Decl, s sym.Shape) string {
	if d.Rank < 0 {
		return ""
	}
	what := fmt.Sprintf("declared %s, inferred %v", declString(d), s)
	if s.RankDynamic {
		return what + ": no rank inferred"
	}
	if len(s.Dims) != d.Rank {
		return what
	}
	for i, x := range d.Dims {
		n, static := s.Dims[i].Static()
		switch {
		case x.Lo != x.Hi:
		case !static:
			return what + ": not determined"
		case n != x.Lo:
			return what
		}
	}
	return ""
}

// compareGolden compares got with the golden file at path, or writes it with -update.
func compareGolden(t *testing.T, path, got string) {
	t.Helper()
	if *update {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if got != string(want) {
		gl, wl := strings.Split(got, "\n"), strings.Split(string(want), "\n")
		for i := range min(len(gl), len(wl)) {
			if gl[i] != wl[i] {
				t.Fatalf("%s differs at line %d:\n got %s\nwant %s\n(go test -run %s -update rewrites it)", path, i+1, gl[i], wl[i], t.Name())
			}
		}
		t.Fatalf("%s: %d lines, want %d", path, len(gl), len(wl))
	}
}

// declStatic reports whether the declaration d has a rank and every dim known.
func declStatic(d Decl) bool {
	if d.Rank < 0 {
		return false
	}
	for _, x := range d.Dims {
		if x.Lo != x.Hi {
			return false
		}
	}
	return true
}

// declString writes the declaration d as oneDNN's numbers do: "?" for an unknown dim, [?...] for
// an unknown rank.
func declString(d Decl) string {
	if d.Rank < 0 {
		return "[?...]"
	}
	dims := make([]string, d.Rank)
	for i, x := range d.Dims {
		dims[i] = "?"
		if x.Lo == x.Hi {
			dims[i] = fmt.Sprint(x.Lo)
		}
	}
	return "[" + strings.Join(dims, ",") + "]"
}

// BenchmarkOneDNNRealGraphs infers all the benchdnn graphs of ../shared/realdata, decoded once: the
// time of one op is the time per run over the ops it reports.
func BenchmarkOneDNNRealGraphs(b *testing.B) {
	root := testenv.Shared(b, "realdata/uxlfoundation__oneDNN")
	var graphs []*Graph
	ops := 0
	filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || filepath.Ext(path) != ".json" {
			return err
		}
		g, err := Open(path, OpenOptions{})
		if err != nil {
			b.Fatal(err)
		}
		graphs, ops = append(graphs, g), ops+len(g.Nodes)
		return nil
	})
	b.ReportAllocs()
	for b.Loop() {
		for _, g := range graphs {
			if _, err := Infer(g, Options{}); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(ops), "ns/op-node")
}
