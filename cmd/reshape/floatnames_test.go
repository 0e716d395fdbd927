package main

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/sym"
)

// TestFloatNamesRename: each atom int(...) a name, given in the order met, the atoms it holds
// first; a quoted symbol name copied as it is; a name that is a symbol of a model skipped, and an
// atom named by a symbol of the model being written left whole; JSON strings renamed in place.
func TestFloatNamesRename(t *testing.T) {
	n := newFloatNames()
	n.model([]string{"H", "W", "s2"})
	for _, tc := range []struct{ in, want string }{
		{"[3,int(floor(f32(H)*f32(0.5))),W]", "[3,s1,W]"},
		{"int(floor(f32(H)*f32(0.5)))+int(f32(W))", "s1+s3"},
		{"print(2) + \"int(f32(H))\" == int(f32(int(f32(W))*f32(2)))", "print(2) + \"int(f32(H))\" == s4"},
		{"N >= 1", "N >= 1"},
	} {
		if got := n.rename(tc.in); got != tc.want {
			t.Errorf("rename(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
	var b strings.Builder
	n.flush(&b)
	want := "s1 = int(floor(f32(H)*f32(0.5)))\ns3 = int(f32(W))\ns4 = int(f32(s3*f32(2)))\n"
	if b.String() != want {
		t.Errorf("flush wrote %q, want %q", b.String(), want)
	}
	b.Reset()
	if n.flush(&b); b.Len() != 0 {
		t.Errorf("second flush wrote %q, want nothing", b.String())
	}
	if got, want := n.definitions()["s4"], "int(f32(int(f32(W))*f32(2)))"; got != want {
		t.Errorf("definition of s4 %q, want %q", got, want)
	}
	// A later model whose symbol s1 is: the atom written whole there.
	n.model([]string{"s1", "H"})
	if got, want := n.rename("int(floor(f32(H)*f32(0.5)))-s1"), "int(floor(f32(H)*f32(0.5)))-s1"; got != want {
		t.Errorf("rename in a model of symbol s1: %q, want %q", got, want)
	}
	got := string(n.renameJSON([]byte(`{"a":"x \"q\" int(f32(W))","b":["int(f32(W))",1],"c":"int("}` + "\n")))
	if want := `{"a":"x \"q\" s3","b":["s3",1],"c":"int("}` + "\n"; got != want {
		t.Errorf("renameJSON: %s, want %s", got, want)
	}
	var nilNames *floatNames
	if got := nilNames.rename("int(f32(W))"); got != "int(f32(W))" {
		t.Errorf("a nil floatNames renames: %q", got)
	}
}

// TestFloatNamesOutput: shapes and check of torchvision's detection transform name each size
// computed in floating point once, defined before its first use; in JSON the summary's
// definitions give each, and the conditions, each name written as its definition again, are the
// library's.
func TestFloatNamesOutput(t *testing.T) {
	const model = "../../testdata/models/rcnn_transform.onnx"
	def := regexp.MustCompile(`^(s[0-9]+) = (int\(.*\))$`)
	use := regexp.MustCompile(`\bs[0-9]+\b`)
	for _, cmd := range []string{"shapes", "check"} {
		_, stdout, _ := cli("", cmd, model)
		defined := map[string]bool{}
		for _, line := range strings.Split(stdout, "\n") {
			if m := def.FindStringSubmatch(line); m != nil {
				if defined[m[1]] {
					t.Errorf("%s: %s defined twice", cmd, m[1])
				}
				defined[m[1]] = true
				continue
			}
			if strings.Contains(line, "int(") {
				t.Errorf("%s: a size written whole: %q", cmd, line)
			}
			for _, name := range use.FindAllString(line, -1) {
				if !defined[name] {
					t.Errorf("%s: %s used before its definition: %q", cmd, name, line)
				}
			}
		}
		if len(defined) != 2 {
			t.Errorf("%s: %d names defined, want 2:\n%s", cmd, len(defined), stdout)
		}
	}
	_, stdout, _ := cli("", "check", "--json", model)
	lines := strings.Split(strings.TrimSpace(stdout), "\n")
	var summ struct {
		Constraints []struct{ Holds string } `json:"constraints"`
		Definitions map[string]string        `json:"definitions"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &summ); err != nil {
		t.Fatal(err)
	}
	rep, err := check.File(model, check.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got, want []string
	for _, c := range summ.Constraints {
		got = append(got, use.ReplaceAllStringFunc(c.Holds, func(name string) string { return "(" + summ.Definitions[name] + ")" }))
	}
	tab := sym.NewTable()
	for _, name := range rep.Symbols {
		tab.Symbol(name, 1, sym.Inf)
	}
	for i, c := range rep.Constraints {
		want = append(want, c.Holds.String())
		if i < len(got) {
			p, err := sym.ParsePred(got[i], tab)
			if err != nil {
				t.Fatalf("%s: %v", got[i], err)
			}
			got[i] = p.String()
		}
	}
	if len(want) == 0 || !slices.Equal(got, want) {
		t.Errorf("conditions of the JSON, names written as their definitions: %q, want the library's %q", got, want)
	}
}
