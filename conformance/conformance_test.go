package conformance_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/conformance"
	"github.com/reshape-go/reshape/errcode"
)

func TestRead(t *testing.T) {
	in := `{"name": "a", "dialect": "onnx", "input": "[2,3]", "pattern": "0,-1"}

{"name": "b", "input": "[2,3]", "pattern": null, "pattern_shape": "[2]", "special_zero": false, "extra": 1}
{"name": "c", "input": "[2,3]", "pattern": "6", "allowzero": 1, "dialect": "onnx"}
{"name": "d", "input": "[2,3]", "pattern": "6"}
{"name": "e", "input": "[2,3]", "pattern": "6", "special_zero": true, "allowzero": 0}
{"name": "f", "input": "[2,3]", "pattern": "6", "special_zero": true, "allowzero": 0, "dialect": "openvino"}
{"name": "g", "input": "[2,3]", "pattern": null, "special_zero": true}
{"name": "h", "input": "[2,3]", "pattern": "6", "special_zero": true, "element_type": "f99"}
{"name": "i", "input": "[2,3]", "pattern": "6", "special_zero": true} trailing
not json
`
	want := []struct {
		name, output, code string
	}{
		{"a", "[2,3]", ""},
		{"", "", "syntax"},
		{"b", "[?,?]", ""},
		{"c", "[6]", ""},
		{"d", "", "syntax"},
		{"e", "", "syntax"},
		{"f", "", "syntax"},
		{"g", "", "syntax"},
		{"h", "", "syntax"},
		{"", "", "syntax"},
		{"", "", "syntax"},
	}
	var got []conformance.Result
	var lines []int
	err := conformance.Read(strings.NewReader(in), func(line int, c *conformance.Case, err error) error {
		lines = append(lines, line)
		if err != nil {
			got = append(got, conformance.Result{Name: c.Name, Error: errcode.Code(err), Message: err.Error()})
			return nil
		}
		got = append(got, c.Run())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(want) {
		t.Fatalf("%d results: %+v", len(got), got)
	}
	for i, w := range want {
		if got[i].Output != w.output || got[i].Error != w.code || (w.name != "" && got[i].Name != w.name) {
			t.Errorf("line %d: %+v, want %+v", lines[i], got[i], w)
		}
	}
	for i, l := range lines {
		if l != i+1 {
			t.Errorf("answer %d is for line %d", i, l)
		}
	}
	stop := errors.New("stop")
	if err := conformance.Read(strings.NewReader(in), func(int, *conformance.Case, error) error { return stop }); err != stop {
		t.Errorf("Read does not stop at fn's error: %v", err)
	}
}

// TestReadLongLines answers a line over MaxLine with a limit error and reads on.
func TestReadLongLines(t *testing.T) {
	long := `{"name": "` + strings.Repeat("x", conformance.MaxLine) + `"}`
	short := `{"name": "a", "input": "[2,3]", "pattern": "6", "special_zero": true}`
	edge := `{"name": "` + strings.Repeat("y", conformance.MaxLine-12) + `"}`
	for _, in := range []string{long + "\n" + short + "\n" + edge, long + "\r\n" + short + "\r\n" + edge + "\n"} {
		var codes, names []string
		err := conformance.Read(strings.NewReader(in), func(_ int, c *conformance.Case, err error) error {
			codes, names = append(codes, errcode.Code(err)), append(names, c.Name)
			return nil
		})
		if err != nil || len(codes) != 3 || codes[0] != "limit" || codes[1] != "" || names[1] != "a" || codes[2] != "" || len(names[2]) != conformance.MaxLine-12 {
			t.Errorf("Read: %v; codes %q", err, codes)
		}
	}
}
