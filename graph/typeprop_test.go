package graph

import (
	"bufio"
	"bytes"
	"cmp"
	bin "encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"html"
	"maps"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/x448/float16"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// typepropDir holds OpenVINO's own shape tests (src/core/tests/type_prop/*.cpp of
// openvinotoolkit/openvino) as facts: one JSON Lines file per source file, one tpCase a line
// (see testdata/openvino_typeprop/README.md for the schema).
var (
	typepropDir    = filepath.Join("testdata", "openvino_typeprop")
	typepropGolden = filepath.Join("testdata", "typeprop.golden")
)

// tpCase is one case of OpenVINO's type_prop tests: a layer of operator Op at version Version
// (IR version="opsetVERSION") with its <data> attributes, fed by its inputs, and what OpenVINO
// infers of its outputs, or the error it raises.
type tpCase struct {
	Name    string            `json:"name"`
	Op      string            `json:"op"`
	Version int               `json:"version"`
	Attrs   map[string]string `json:"attrs"`
	Inputs  []tpTensor        `json:"inputs"`
	Outputs []tpTensor        `json:"outputs"`
	// Ports is the number of output ports of an error case (1 when 0).
	Ports int      `json:"ports"`
	Error *tpError `json:"error"`
	// NotExpressible says why the case cannot be run as an IR layer; it is then not run.
	NotExpressible string `json:"not_expressible"`
	// Note says what a reader of the case should know: where OpenVINO's test departs from its
	// specification, what part of the test is left out.
	Note string `json:"note"`
	// Loose says that OpenVINO's outputs are wider than its specification's formula gives (Note
	// says why), so that a narrower answer is not wrong.
	Loose bool `json:"loose"`
	// Refusable says that OpenVINO infers outputs for inputs its specification refuses (Note says
	// why), so that an error is not wrong.
	Refusable bool `json:"refusable"`
	// SpecOutputs are the outputs the specification of that opset version gives where OpenVINO's
	// answer (Outputs) departs from it (Note says how): the engine's outputs are judged against
	// them.
	SpecOutputs []tpTensor `json:"spec_outputs"`

	file string // the JSON Lines file, without directory and extension
}

// tpTensor is an input or output of a case: its element type (OpenVINO's name, "dynamic" for
// element::dynamic), partial shape ("[1..8,?,3]", "[...]"), the values of a constant input, or
// for an input whose values are the dims of another tensor, ShapeOf, that tensor's partial shape
// (the input is ShapeOf-3 of a Parameter of that shape, its shape is [rank]); and for an output
// the symbols its dims share with the inputs' ("I:A" is the symbol of dim A of input I, or of the
// tensor of input I's ShapeOf; "" none).
type tpTensor struct {
	Type    string   `json:"type"`
	Shape   string   `json:"shape"`
	Values  []any    `json:"values"` // numbers, or "inf", "-inf", "nan" of a floating-point constant
	ShapeOf string   `json:"shape_of"`
	Symbols []string `json:"symbols"`
}

// tpError is the error OpenVINO raises: the code of this module it stands for, and key words of
// its message.
type tpError struct {
	Code    string `json:"code"`
	Message string `json:"message"`
}

// key names a case in the golden file: FILE/NAME.
func (c *tpCase) key() string { return c.file + "/" + c.Name }

// A tpOutcome is what the engine made of a case, from the best to the worst.
type tpOutcome int

const (
	tpEqual          tpOutcome = iota // the outputs' types and shapes, or the error's code, are OpenVINO's
	tpMorePrecise                     // every dim lies within OpenVINO's, some strictly
	tpLessPrecise                     // a sound superset: an unknown type, rank, dim or symbol, or a wider interval
	tpOtherCode                       // an error at the layer as OpenVINO expects, of another code
	tpNotExpressible                  // the case cannot be built as an IR layer (tpCase.NotExpressible)
	tpNoRule                          // the operator has no rule at that version
	tpWrong                           // a type, rank or dim that contradicts OpenVINO's, or an error where it infers, or none where it refuses
)

var tpOutcomeNames = [...]string{"equal", "more-precise", "less-precise", "other-code", "not-expressible", "no-rule", "wrong"}

func (o tpOutcome) String() string { return tpOutcomeNames[o] }

// readTypeprop returns the cases of every file of typepropDir, in file and line order.
func readTypeprop(t testing.TB) []tpCase {
	files, err := filepath.Glob(filepath.Join(typepropDir, "*.jsonl"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no cases in %s: %v", typepropDir, err)
	}
	var cases []tpCase
	seen := map[string]bool{}
	for _, path := range files {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		file := strings.TrimSuffix(filepath.Base(path), ".jsonl")
		sc := bufio.NewScanner(bytes.NewReader(b))
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			var c tpCase
			dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
			dec.DisallowUnknownFields()
			dec.UseNumber()
			if err := dec.Decode(&c); err != nil {
				t.Fatalf("%s:%d: %v", path, line, err)
			}
			c.file = file
			if c.Name == "" || c.Op == "" || c.Version <= 0 || (c.Error == nil) == (len(c.Outputs) == 0) && c.NotExpressible == "" {
				t.Fatalf("%s:%d: a case needs a name, an op, a version, and outputs or an error", path, line)
			}
			if seen[c.key()] {
				t.Fatalf("%s:%d: two cases named %q", path, line, c.Name)
			}
			seen[c.key()] = true
			cases = append(cases, c)
		}
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	return cases
}

// tpType returns the element type of an OpenVINO element type name, Undefined for "dynamic".
func tpType(name string) (element.Type, error) {
	if name == "dynamic" || name == "undefined" {
		return element.Undefined, nil
	}
	return element.Parse(name)
}

// tpConstBytes returns the little-endian bytes of a constant of type t holding values: numbers
// (json.Number), or for a floating-point type "inf", "-inf" or "nan".
func tpConstBytes(t element.Type, values []any) ([]byte, error) {
	var b []byte
	for _, v := range values {
		var f float64
		var n int64
		switch v := v.(type) {
		case json.Number:
			var err error
			if f, err = v.Float64(); err != nil {
				return nil, err
			}
			if n, err = strconv.ParseInt(v.String(), 10, 64); err != nil {
				u, uerr := strconv.ParseUint(v.String(), 10, 64)
				if uerr != nil && (t.IsInteger() || t == element.Boolean) {
					return nil, err
				}
				n = int64(u)
			}
		case string:
			switch v {
			case "inf":
				f = math.Inf(1)
			case "-inf":
				f = math.Inf(-1)
			case "nan":
				f = math.NaN()
			default:
				return nil, fmt.Errorf("value %q", v)
			}
			if !t.IsFloat() {
				return nil, fmt.Errorf("value %q of a %v constant", v, t)
			}
		default:
			return nil, fmt.Errorf("value %v", v)
		}
		switch t {
		case element.Boolean:
			b = append(b, byte(min(n, 1)))
		case element.F32:
			b = bin.LittleEndian.AppendUint32(b, math.Float32bits(float32(f)))
		case element.F64:
			b = bin.LittleEndian.AppendUint64(b, math.Float64bits(f))
		case element.F16:
			b = bin.LittleEndian.AppendUint16(b, float16.Fromfloat32(float32(f)).Bits())
		case element.BF16:
			b = bin.LittleEndian.AppendUint16(b, uint16(math.Float32bits(float32(f))>>16))
		default:
			if !t.IsInteger() {
				return nil, fmt.Errorf("no constants of %v", t)
			}
			var w [8]byte
			bin.LittleEndian.PutUint64(w[:], uint64(n))
			b = append(b, w[:t.Bits()/8]...)
		}
	}
	return b, nil
}

// tpPortDims returns the <dim> elements of a ranked partial shape.
func tpPortDims(s shape.Shape) string {
	var b strings.Builder
	for _, d := range s.Dims {
		text := d.String()
		if d.IsDynamic() {
			text = "-1"
		}
		b.WriteString("<dim>" + text + "</dim>")
	}
	return b.String()
}

// tpNet returns the IR network of a case, and its weights: a Parameter "inI" (or a Const, for
// an input with values, or a Parameter "inI" and a ShapeOf, for an input with ShapeOf) per input, the layer (id N, N the number of inputs), and a Result per
// output. The layer's output ports have no dims: runTypeprop drops their declarations, so that
// what no rule gives is unknown.
func tpNet(c *tpCase) (string, []byte, error) {
	var layers, edges strings.Builder
	var w []byte
	n := len(c.Inputs)
	for i, in := range c.Inputs {
		t, err := tpType(in.Type)
		if err != nil {
			return "", nil, fmt.Errorf("input %d: %w", i, err)
		}
		out := "0" // the output port that feeds the layer
		s, err := shape.Parse(in.Shape)
		if err != nil {
			return "", nil, fmt.Errorf("input %d: %w", i, err)
		}
		attr := strings.TrimSuffix(strings.TrimPrefix(s.String(), "["), "]")
		if in.Values != nil {
			b, err := tpConstBytes(t, in.Values)
			if err != nil {
				return "", nil, fmt.Errorf("input %d: %w", i, err)
			}
			fmt.Fprintf(&layers, `<layer id="%d" name="in%d" type="Const" version="opset1"><data element_type="%s" shape="%s" offset="%d" size="%d"/><output><port id="0">%s</port></output></layer>`,
				i, i, t, attr, len(w), len(b), tpPortDims(s))
			w = append(w, b...)
		} else if in.ShapeOf != "" {
			src, err := shape.Parse(in.ShapeOf)
			if err != nil {
				return "", nil, fmt.Errorf("input %d: %w", i, err)
			}
			fmt.Fprintf(&layers, `<layer id="p%d" name="in%d" type="Parameter" version="opset1"><data shape="%s" element_type="f32"/><output><port id="0">%s</port></output></layer>`+
				`<layer id="%d" name="shape%d" type="ShapeOf" version="opset3"><data output_type="%s"/><input><port id="0"/></input><output><port id="1">%s</port></output></layer>`,
				i, i, strings.TrimSuffix(strings.TrimPrefix(src.String(), "["), "]"), tpPortDims(src), i, i, t, tpPortDims(s))
			fmt.Fprintf(&edges, `<edge from-layer="p%d" from-port="0" to-layer="%d" to-port="0"/>`, i, i)
			out = "1"
		} else {
			et := in.Type
			if t == element.Undefined {
				et = "undefined"
			}
			fmt.Fprintf(&layers, `<layer id="%d" name="in%d" type="Parameter" version="opset1"><data shape="%s" element_type="%s"/><output><port id="0">%s</port></output></layer>`,
				i, i, attr, et, tpPortDims(s))
		}
		fmt.Fprintf(&edges, `<edge from-layer="%d" from-port="%s" to-layer="%d" to-port="%d"/>`, i, out, n, i)
	}
	// A byte past the constants: the .bin reader refuses to read an empty constant at the end of
	// the file (io.ReaderAt's EOF at its size).
	w = append(w, 0)
	fmt.Fprintf(&layers, `<layer id="%d" name="op" type="%s" version="opset%d"><data`, n, html.EscapeString(c.Op), c.Version)
	for _, k := range slices.Sorted(maps.Keys(c.Attrs)) {
		fmt.Fprintf(&layers, ` %s="%s"`, k, html.EscapeString(c.Attrs[k]))
	}
	layers.WriteString("/><input>")
	for i := range c.Inputs {
		fmt.Fprintf(&layers, `<port id="%d"/>`, i)
	}
	layers.WriteString("</input><output>")
	ports := max(len(c.Outputs), c.Ports, 1)
	for k := range ports {
		fmt.Fprintf(&layers, `<port id="%d"/>`, n+k)
	}
	layers.WriteString("</output></layer>")
	for k := range ports {
		fmt.Fprintf(&layers, `<layer id="%d" name="out%d" type="Result" version="opset1"><input><port id="0"/></input></layer>`, n+1+k, k)
		fmt.Fprintf(&edges, `<edge from-layer="%d" from-port="%d" to-layer="%d" to-port="0"/>`, n, n+k, n+1+k)
	}
	return `<?xml version="1.0"?><net name="typeprop" version="11"><layers>` + layers.String() + `</layers><edges>` + edges.String() + `</edges></net>`, w, nil
}

// tpResult is what the engine made of a case: its outcome and why it is not equal; narrower
// reports a rank or dim narrower than OpenVINO's.
type tpResult struct {
	outcome  tpOutcome
	why      []string
	narrower bool
}

func (r *tpResult) note(o tpOutcome, format string, args ...any) {
	r.outcome = max(r.outcome, o)
	r.why = append(r.why, fmt.Sprintf(format, args...))
}

// runTypeprop builds the IR network of a case, infers it and compares the layer's outputs, or
// its error, with OpenVINO's. A panic is caught and is wrong.
//
// The engine makes the dynamic dims of an IR Parameter symbols of positive sizes, where OpenVINO's
// start at 0; so an output that is narrower than OpenVINO's is inferred again from the inputs'
// partial shapes as plain intervals (Options.Inputs): narrower there too, it is wrong, unless the
// case says OpenVINO's answer is loose.
func runTypeprop(c *tpCase) (r tpResult) {
	if c.NotExpressible != "" {
		return tpResult{outcome: tpNotExpressible, why: []string{c.NotExpressible}}
	}
	defer func() {
		if p := recover(); p != nil {
			r = tpResult{outcome: tpWrong, why: []string{fmt.Sprintf("panic: %v at %s", p, panicSite())}}
		}
	}()
	node, params, err := inferTypeprop(c, Options{})
	if err != nil {
		return tpResult{outcome: tpWrong, why: []string{err.Error()}}
	}
	r = judgeTypeprop(c, node, params, true)
	if !r.narrower || r.outcome != tpMorePrecise || node.Err != nil || node.TypeErr != nil {
		return r
	}
	intervals := map[string]string{}
	for i, in := range c.Inputs {
		if in.Values == nil {
			intervals["in"+strconv.Itoa(i)] = cmp.Or(in.ShapeOf, in.Shape)
		}
	}
	node, params, err = inferTypeprop(c, Options{Inputs: intervals})
	if err != nil {
		return tpResult{outcome: tpWrong, why: []string{"with intervals: " + err.Error()}}
	}
	plain := judgeTypeprop(c, node, params, false)
	switch {
	case !plain.narrower || plain.outcome > tpMorePrecise:
		r.why = append(r.why, "(with intervals for inputs: "+plain.outcome.String()+")")
	case c.Loose:
		r.why = append(r.why, "(OpenVINO's answer is loose: "+c.Note+")")
	default:
		r.outcome = tpWrong
		r.why = append(r.why, "(narrower than OpenVINO's with intervals for inputs too: "+strings.Join(plain.why, "; ")+")")
	}
	return r
}

// inferTypeprop builds and infers the IR network of a case and returns the result of its layer
// and the Infos of its Parameters "inI" (nil for a constant input).
func inferTypeprop(c *tpCase, opt Options) (*NodeResult, []*Info, error) {
	xml, w, err := tpNet(c)
	if err != nil {
		return nil, nil, fmt.Errorf("the case: %w", err)
	}
	net, err := ir.Decode(strings.NewReader(xml))
	if err != nil {
		return nil, nil, fmt.Errorf("Decode: %w", err)
	}
	g, err := FromIR(net, ir.NewWeights(bytes.NewReader(w), int64(len(w)), "typeprop.bin"))
	if err != nil {
		return nil, nil, fmt.Errorf("FromIR: %w", err)
	}
	for k := range max(len(c.Outputs), c.Ports, 1) {
		delete(g.Declared, IRTensor(strconv.Itoa(len(c.Inputs)), strconv.Itoa(len(c.Inputs)+k)))
	}
	res, err := Infer(g, opt)
	if err != nil {
		return nil, nil, fmt.Errorf("Infer: %w", err)
	}
	params := make([]*Info, len(c.Inputs))
	for i := range params {
		params[i] = res.Tensor("in" + strconv.Itoa(i))
	}
	for i := range res.Nodes {
		if res.Nodes[i].Node.Name == "op" {
			return &res.Nodes[i], params, nil
		}
	}
	return nil, nil, errors.New("the layer was not inferred")
}

// judgeTypeprop compares the result of a case's layer with OpenVINO's outputs or error; params
// are the Infos of the Parameters "inI", whose symbols the outputs' are compared with when
// symbols is set.
func judgeTypeprop(c *tpCase, node *NodeResult, params []*Info, symbols bool) (r tpResult) {
	err := node.Err // the error OpenVINO's validation would raise first: of the input types, else of the rule
	if node.TypeErr != nil {
		err = node.TypeErr
	}
	switch {
	case node.Unsupported && node.TypeErr == nil:
		return tpResult{outcome: tpNoRule, why: []string{fmt.Sprintf("no rule for %s-%d", c.Op, c.Version)}}
	case c.Error != nil && err == nil:
		return tpResult{outcome: tpWrong, why: []string{fmt.Sprintf("no error, OpenVINO refuses (%s: %s)", c.Error.Code, c.Error.Message)}}
	case c.Error != nil && errcode.Code(err) != c.Error.Code:
		return tpResult{outcome: tpOtherCode, why: []string{fmt.Sprintf("error %s, OpenVINO's is %s: %v", errcode.Code(err), c.Error.Code, err)}}
	case c.Error != nil:
		return tpResult{}
	case err != nil && c.Refusable:
		return tpResult{outcome: tpMorePrecise, why: []string{"an error where OpenVINO infers and its specification refuses: " + err.Error()}}
	case err != nil:
		return tpResult{outcome: tpWrong, why: []string{"error where OpenVINO infers: " + err.Error()}}
	case len(node.Outputs) != len(c.Outputs):
		return tpResult{outcome: tpWrong, why: []string{fmt.Sprintf("%d outputs, OpenVINO's %d", len(node.Outputs), len(c.Outputs))}}
	}
	outputs := c.Outputs
	if c.SpecOutputs != nil {
		outputs = c.SpecOutputs
		r.why = append(r.why, "judged by the specification, where OpenVINO departs from it")
	}
	for k, want := range outputs {
		if !symbols {
			want.Symbols = nil
		}
		if err := compareTypeprop(&r, fmt.Sprintf("output %d", k), node.Outputs[k], &want, params); err != nil {
			return tpResult{outcome: tpWrong, why: []string{"the case: " + err.Error()}}
		}
	}
	return r
}

// compareTypeprop compares what the engine inferred of one output with OpenVINO's answer, and
// notes in r what differs. An OpenVINO dim whose lower bound is 0 matches a lower bound of 1: the
// engine's symbols for the dynamic dims of inputs are positive sizes.
func compareTypeprop(r *tpResult, what string, got *Info, want *tpTensor, params []*Info) error {
	wt, err := tpType(want.Type)
	if err != nil {
		return err
	}
	ws, err := shape.Parse(want.Shape)
	if err != nil {
		return err
	}
	if got == nil {
		r.note(tpLessPrecise, "%s: nothing inferred", what)
		return nil
	}
	switch {
	case got.Type == wt:
	case got.Type == element.Undefined:
		r.note(tpLessPrecise, "%s: element type unknown, OpenVINO's %v", what, wt)
	case wt == element.Undefined: // the type of the specification, where OpenVINO does not infer one
		r.note(tpMorePrecise, "%s: element type %v, OpenVINO's dynamic", what, got.Type)
	default:
		r.note(tpWrong, "%s: element type %v, OpenVINO's %v", what, got.Type, wt)
	}
	switch {
	case got.Shape.RankDynamic && ws.RankDynamic:
		return nil
	case got.Shape.RankDynamic:
		r.note(tpLessPrecise, "%s: rank unknown, OpenVINO's %s", what, ws)
		return nil
	case ws.RankDynamic:
		r.note(tpMorePrecise, "%s: %s, OpenVINO's [...]", what, got.Shape)
		r.narrower = true
		return nil
	case len(got.Shape.Dims) != len(ws.Dims):
		r.note(tpWrong, "%s: %s, OpenVINO's %s", what, got.Shape, ws)
		return nil
	}
	for i, d := range got.Shape.Dims {
		lo, hi := d.Bounds()
		w := ws.Dims[i]
		if w.Lo == 0 && lo == 1 {
			lo = 0
		}
		switch {
		case lo == w.Lo && hi == w.Hi:
		case lo <= w.Lo && hi >= w.Hi:
			r.note(tpLessPrecise, "%s: %s, OpenVINO's %s (dim %d)", what, got.Shape, ws, i)
		case lo >= w.Lo && hi <= w.Hi:
			r.note(tpMorePrecise, "%s: %s, OpenVINO's %s (dim %d)", what, got.Shape, ws, i)
			r.narrower = true
		default: // disjoint, or values of OpenVINO's left out beside others added
			r.note(tpWrong, "%s: %s, OpenVINO's %s (dim %d)", what, got.Shape, ws, i)
			return nil
		}
	}
	for i, ref := range want.Symbols {
		if ref == "" || i >= len(got.Shape.Dims) {
			continue
		}
		in, axis, err := tpSymbolRef(ref, params)
		if err != nil {
			return err
		}
		src := in.Shape.Dims[axis]
		if _, static := src.Static(); static {
			continue // the engine has no symbols on static dims
		}
		if !got.Shape.Dims[i].Equal(src) {
			r.note(tpLessPrecise, "%s: dim %d is %s, OpenVINO's is the symbol of input dim %s (%s)", what, i, got.Shape.Dims[i], ref, src)
		}
	}
	return nil
}

// tpSymbolRef returns the Parameter and axis a symbol reference "I:A" names.
func tpSymbolRef(ref string, params []*Info) (*Info, int, error) {
	a, b, ok := strings.Cut(ref, ":")
	i, err1 := strconv.Atoi(a)
	axis, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || i < 0 || i >= len(params) || params[i] == nil ||
		params[i].Shape.RankDynamic || axis < 0 || axis >= len(params[i].Shape.Dims) {
		return nil, 0, fmt.Errorf("symbol %q names no dim of an input", ref)
	}
	return params[i], axis, nil
}

// tpGolden is the content of the golden file: the outcome of every case that is not equal, by key.
type tpGolden map[string]tpOutcome

func readTypepropGolden(t *testing.T) tpGolden {
	g := tpGolden{}
	b, err := os.ReadFile(typepropGolden)
	if errors.Is(err, os.ErrNotExist) && *update {
		return g
	}
	if err != nil {
		t.Fatalf("%v (go test ./graph -run TestTypeprop -update writes it)", err)
	}
	for i, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		if strings.HasPrefix(line, "#") || strings.HasPrefix(line, "count ") {
			continue
		}
		f := strings.Fields(line)
		o := slices.Index(tpOutcomeNames[:], f[0])
		if len(f) < 2 || o < 0 {
			t.Fatalf("%s:%d: %q: want \"OUTCOME FILE/NAME: WHY\"", typepropGolden, i+1, line)
		}
		g[strings.TrimSuffix(f[1], ":")] = tpOutcome(o)
	}
	return g
}

// writeTypepropGolden writes the golden file: per operator and version the count of cases by
// outcome, then a line "OUTCOME FILE/NAME: WHY" for every case that is not equal.
func writeTypepropGolden(t *testing.T, cases []tpCase, results []tpResult) {
	var b strings.Builder
	b.WriteString("# TestTypeprop (typeprop_test.go): OpenVINO's type_prop tests (testdata/openvino_typeprop), by\n" +
		"# operator and version: the count of cases by outcome, then every case that is not equal with\n" +
		"# why. The test fails on a wrong case not listed wrong here and on a case that got worse;\n" +
		"# go test ./graph -run TestTypeprop -update writes this file again.\n")
	counts := map[string]*[len(tpOutcomeNames)]int{}
	for i, c := range cases {
		k := c.Op + "-" + strconv.Itoa(c.Version)
		if counts[k] == nil {
			counts[k] = new([len(tpOutcomeNames)]int)
		}
		counts[k][results[i].outcome]++
	}
	fmt.Fprintf(&b, "# count OP-VERSION %s\n", strings.Join(tpOutcomeNames[:], " "))
	for _, k := range slices.Sorted(maps.Keys(counts)) {
		fmt.Fprintf(&b, "count %s", k)
		for _, n := range counts[k] {
			fmt.Fprintf(&b, " %d", n)
		}
		b.WriteString("\n")
	}
	for i, c := range cases {
		if r := results[i]; r.outcome != tpEqual {
			fmt.Fprintf(&b, "%s %s: %s\n", r.outcome, c.key(), strings.ReplaceAll(strings.Join(r.why, "; "), "\n", " "))
		}
	}
	if err := os.WriteFile(typepropGolden, []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTypeprop runs OpenVINO's own type_prop cases (testdata/openvino_typeprop) as one-layer IR
// networks and compares each layer's outputs, or error, with OpenVINO's. It fails on a case that
// is wrong and not listed wrong in testdata/typeprop.golden, and on a case whose outcome is worse
// than the golden file's; a case that got better is logged, for -update to record.
func TestTypeprop(t *testing.T) {
	cases := readTypeprop(t)
	golden := readTypepropGolden(t)
	results := make([]tpResult, len(cases))
	total := [len(tpOutcomeNames)]int{}
	better := 0
	for i := range cases {
		c := &cases[i]
		r := runTypeprop(c)
		results[i] = r
		total[r.outcome]++
		want, listed := golden[c.key()]
		delete(golden, c.key())
		switch {
		case *update:
		case r.outcome == tpWrong && want != tpWrong:
			t.Errorf("%s: wrong: %s", c.key(), strings.Join(r.why, "; "))
		case r.outcome > want:
			t.Errorf("%s: %s, %s says %s: %s", c.key(), r.outcome, typepropGolden, want, strings.Join(r.why, "; "))
		case r.outcome < want || !listed && r.outcome != tpEqual:
			better++
		}
	}
	var summary strings.Builder
	fmt.Fprintf(&summary, "%d cases:", len(cases))
	for o, n := range total {
		fmt.Fprintf(&summary, " %s %d", tpOutcome(o), n)
	}
	t.Log(summary.String())
	if *update {
		writeTypepropGolden(t, cases, results)
		return
	}
	for _, k := range slices.Sorted(maps.Keys(golden)) {
		t.Errorf("%s lists %s, which no case has", typepropGolden, k)
	}
	if better > 0 {
		t.Logf("%d cases got better than %s says: go test ./graph -run TestTypeprop -update records it", better, typepropGolden)
	}
}

// TestCompareTypeprop pins the comparison of an inferred output with OpenVINO's.
func TestCompareTypeprop(t *testing.T) {
	tab := sym.NewTable()
	x := sym.Of(tab.Symbol("in0:0", 1, sym.Inf))
	in := []*Info{{Type: element.F32, Shape: sym.ShapeOf(x, sym.Const(3))}}
	f32 := func(dims ...sym.Dim) *Info { return &Info{Type: element.F32, Shape: sym.ShapeOf(dims...)} }
	for _, tc := range []struct {
		name string
		got  *Info
		want tpTensor
		out  tpOutcome
	}{
		{"static", f32(sym.Const(2), sym.Const(3)), tpTensor{Type: "f32", Shape: "[2,3]"}, tpEqual},
		{"symbol for ?", f32(x), tpTensor{Type: "f32", Shape: "[?]", Symbols: []string{"0:0"}}, tpEqual},
		{"symbol lost", f32(sym.Interval(1, sym.Inf)), tpTensor{Type: "f32", Shape: "[?]", Symbols: []string{"0:0"}}, tpLessPrecise},
		{"static symbol source", f32(sym.Const(3)), tpTensor{Type: "f32", Shape: "[3]", Symbols: []string{"0:1"}}, tpEqual},
		{"interval", f32(sym.Interval(2, 5)), tpTensor{Type: "f32", Shape: "[2..5]"}, tpEqual},
		{"wider", f32(sym.Interval(1, 9)), tpTensor{Type: "f32", Shape: "[2..5]"}, tpLessPrecise},
		{"narrower", f32(sym.Interval(3, 4)), tpTensor{Type: "f32", Shape: "[2..5]"}, tpMorePrecise},
		{"overlapping", f32(sym.Interval(3, 9)), tpTensor{Type: "f32", Shape: "[2..5]"}, tpWrong},
		{"disjoint", f32(sym.Const(6)), tpTensor{Type: "f32", Shape: "[2..5]"}, tpWrong},
		{"other rank", f32(sym.Const(6)), tpTensor{Type: "f32", Shape: "[6,1]"}, tpWrong},
		{"rank unknown", &Info{Type: element.F32, Shape: sym.DynamicRank()}, tpTensor{Type: "f32", Shape: "[6,1]"}, tpLessPrecise},
		{"rank known", f32(sym.Const(6)), tpTensor{Type: "f32", Shape: "[...]"}, tpMorePrecise},
		{"other type", f32(sym.Const(6)), tpTensor{Type: "i32", Shape: "[6]"}, tpWrong},
		{"type unknown", &Info{Shape: sym.ShapeOf(sym.Const(6))}, tpTensor{Type: "i32", Shape: "[6]"}, tpLessPrecise},
		{"dynamic type", &Info{Shape: sym.ShapeOf(sym.Const(6))}, tpTensor{Type: "dynamic", Shape: "[6]"}, tpEqual},
	} {
		var r tpResult
		if err := compareTypeprop(&r, "output 0", tc.got, &tc.want, in); err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		if r.outcome != tc.out {
			t.Errorf("%s: %s (%s), want %s", tc.name, r.outcome, strings.Join(r.why, "; "), tc.out)
		}
	}
}
