package graph

import (
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
)

// An opDef declares one operator's rule and the signature the engine checks before the rule runs,
// as go/types checks a builtin's argument count before its rule: the versions at which the
// operator exists, how many inputs and outputs a node of it names, and the inputs whose values the
// rule reads. The tables of ops are in the files of their rules (onnx_core.go's onnxCore, ...);
// register adds them.
type opDef struct {
	name     string
	versions versions
	in, out  arity
	values   valueMask
	rule     ruleFunc
}

// versions are the opset versions at which an operator's definition changes, ascending: ONNX's
// since-versions (Reshape: 1, 5, 13, 14, 19, 21), OpenVINO's opsetN of each operation version
// (Gather: 1, 7, 8). A node bound to an opset before the first has no such operator; each
// version holds until the next, and the last one on, up to last when the operator is deprecated
// there (last 0: no end).
type versions struct {
	since []int64
	last  int64
	// types are the operator's type signatures, by version (typeIndex), which the engine checks a
	// node's input element types against before the rule runs; register sets them.
	types []typeSig
}

// since returns the versions of an operator whose definition changes at the opset versions vs,
// ascending.
func since(vs ...int64) versions { return versions{since: vs} }

// until returns v with the operator's last version, the one before the opset that deprecates it.
func (v versions) until(last int64) versions { v.last = last; return v }

// arity bounds a count of inputs or outputs: min to max, max many for no bound.
type arity struct{ min, max int }

// many is the max of an arity without bound (Concat's inputs, Split's outputs).
const many = -1

// fixed returns the arity of exactly k.
func fixed(k int) arity { return arity{k, k} }

// span returns the arity of lo to hi (many: any number from lo).
func span(lo, hi int) arity { return arity{lo, hi} }

// valueMask holds a bit per input whose values (Info.Value) a rule reads: the engine reads, and
// counts against the value budget, only those; the rule sees the others without. The Floats of an
// input (a model's small floating-point constants, at most 64 elements, which the budget does not
// count) every rule sees; a rule that reads them names the input too (Resize's scales).
type valueMask uint64

// allValues is the mask of a rule that reads the values of every input, however many (Concat,
// Loop).
const allValues = ^valueMask(0)

// reads returns the mask of the inputs at indices is.
func reads(is ...int) valueMask {
	var m valueMask
	for _, i := range is {
		m |= 1 << i
	}
	return m
}

// has reports whether the mask holds input i.
func (m valueMask) has(i int) bool { return m == allValues || i < 64 && m&(1<<i) != 0 }

// opKey names an operator of a domain in the registry.
type opKey struct{ domain, name string }

// registry holds, by domain ("" for ONNX's default domain, DomainOpenVINO) and operator, the ops
// of each span of versions, ascending by their first version.
var registry = map[opKey][]*opDef{}

// A table is the opDefs of one domain that a file of rules declares.
type table struct {
	domain string
	ops    []opDef
}

func init() {
	for _, t := range []table{
		onnxCore, onnxSlice, onnxElementwise, onnxMovement, onnxScatter, onnxReduce, onnxNN, onnxNorm,
		onnxMatMul, onnxRNN, onnxMisc, onnxControl, onnxTraining, onnxLoss, onnxSignal, onnxText, onnxOptional, onnxSequence,
		onnxML,
		openvinoCore, openvinoElementwise, openvinoMovement, openvinoSlice, openvinoReduce, openvinoNN,
		openvinoSpace, openvinoConv, openvinoIndex, openvinoNorm,
		openvinoDetection, openvinoRNN, openvinoNMS, openvinoSignal, openvinoMisc, openvinoControl,
		microsoftAttention, microsoft, microsoftQuant, microsoftMisc,
		onednnCore, onednnElementwise, onednnQuant, onednnNN, onednnNorm,
	} {
		register(t)
	}
}

// A dialect is what the operators of one domain share beyond their tables: how the domain writes
// its operator sets and matches its operator names, and what a rule gives when it cannot read an
// input's rank. dialects holds one per domain that has rules; adding a domain is adding its dialect
// there and the tables of its rules, never a case in a kernel.
type dialect struct {
	// opset is what the domain writes before the number of an operator set's version: "opset "
	// for ONNX ("opset 13"), "opset" for OpenVINO ("opset8").
	opset string
	// foldCase matches operator names ignoring case, as OpenVINO matches layer types (IR v10
	// writes ReLU and SoftMax, newer IR Relu and Softmax); names then maps the lower-case name of
	// each operator registered to its spelling there.
	foldCase bool
	names    map[string]string
	// unknownRank is what a rule gives its outputs when an input whose rank it needs has none
	// (ctx.Ranked).
	unknownRank rankPolicy
	// fileTypes gives an output whose element type a rule leaves undefined the type the model
	// declares: oneDNN lets a file choose an op's output type among those its table allows.
	fileTypes bool
	// qualify names the domain's operators with their domain in Result.Unsupported
	// ("com.microsoft:Attention"); ONNX's and OpenVINO's go by their name alone.
	qualify bool
}

// A rankPolicy is what a dialect's rules give their outputs when an input whose rank they need has
// none.
type rankPolicy uint8

const (
	// rankDynamic gives each output a dynamic rank and the input's element type, as ONNX's shape
	// inference does.
	rankDynamic rankPolicy = iota
	// rankDeclared leaves the outputs to the model's declaration: an OpenVINO IR file declares the
	// shape of every output port, a oneDNN Graph file that of every logical tensor.
	rankDeclared
)

// dialects holds the dialect of each domain that has rules: "" for ONNX's default domain, ONNX's
// training operators, its traditional machine-learning operators (ai.onnx.ml), onnxruntime's
// contrib operators (com.microsoft), DomainOpenVINO for IR layers, and DomainOneDNN for oneDNN
// Graph's operations (version 1 each, "StaticReshape-1"), whose files declare every logical
// tensor, as IR files declare every port.
var dialects = map[string]*dialect{
	"":              {opset: "opset ", unknownRank: rankDynamic},
	domainTraining:  {opset: "opset ", unknownRank: rankDynamic, qualify: true},
	domainML:        {opset: "opset ", unknownRank: rankDynamic, qualify: true},
	domainMicrosoft: {opset: "opset ", unknownRank: rankDynamic, qualify: true},
	DomainOpenVINO:  {opset: "opset", foldCase: true, names: map[string]string{}, unknownRank: rankDeclared},
	DomainOneDNN:    {opset: "version ", unknownRank: rankDeclared, fileTypes: true},
}

// dialectOf returns the dialect of domain ("" or "ai.onnx" for ONNX's default domain), nil for a
// domain without rules.
func dialectOf(domain string) *dialect {
	if domain == "ai.onnx" {
		domain = ""
	}
	return dialects[domain]
}

// typesDeclared reports whether the outputs of the domain's rules take the declared element type
// where the rule leaves it undefined (dialect.fileTypes); false for a domain without rules.
func (d *dialect) typesDeclared() bool { return d != nil && d.fileTypes }

// declaresRun reports whether the domain's files declare the shape of every output for the one set
// of input shapes they were written for (OpenVINO IR ports, oneDNN logical tensors: rankDeclared),
// shapes that other input shapes leave stale.
func (d *dialect) declaresRun() bool { return d != nil && d.unknownRank == rankDeclared }

// name returns the registered spelling of the operator op of the domain: op itself, or for a
// domain that folds case the spelling registered for it, matched ignoring case (op when none is).
func (d *dialect) name(op string) string {
	if d == nil || !d.foldCase {
		return op
	}
	if name, ok := d.names[strings.ToLower(op)]; ok {
		return name
	}
	return op
}

// register adds the ops of t. An op of several spans of versions (Reshape-1 takes one input,
// Reshape-5 two) is registered once per span; two registrations of one operator whose spans meet
// are a programming error, and so are a table of a domain without a dialect, a declaration
// without versions and two names that differ only in case in a domain that folds case.
func register(t table) {
	d, ok := dialects[t.domain]
	if !ok {
		panic("graph: the domain " + strconv.Quote(t.domain) + " has no dialect")
	}
	for i := range t.ops {
		o := &t.ops[i]
		k := opKey{t.domain, o.name}
		o.versions.types = typeIndex[typeKey(t.domain, o.name)]
		if d.foldCase {
			lower := strings.ToLower(o.name)
			if other, ok := d.names[lower]; ok && other != o.name {
				panic("graph: " + t.domain + "'s " + other + " and " + o.name + " differ only in case")
			}
			d.names[lower] = o.name
		}
		if len(o.versions.since) == 0 || !slices.IsSorted(o.versions.since) {
			panic("graph: " + t.domain + ":" + o.name + " declares no ascending versions")
		}
		list := append(registry[k], o)
		slices.SortFunc(list, func(a, b *opDef) int { return int(a.versions.since[0] - b.versions.since[0]) })
		for j := 1; j < len(list); j++ {
			if prev := list[j-1].versions; prev.since[len(prev.since)-1] >= list[j].versions.since[0] || prev.last > 0 {
				panic("graph: two registrations of " + t.domain + ":" + o.name + " overlap")
			}
		}
		registry[k] = list
	}
}

// lookup returns the op of the operator name of domain ("" for ONNX's default domain) at version,
// nil when the domain has no such operator. A name of a domain that folds case (OpenVINO's)
// matches ignoring case (dialect.name). The error, wrapping errcode.ErrSyntax, is for a version at
// which the operator does not exist. Version 0, that of a node built without an opset
// (Node.Version unset), takes the operator's first span, as the rules read it at its first version.
func lookup(domain, name string, version int64) (*opDef, error) {
	list, ok := registry[opKey{domain, name}]
	if !ok {
		if d := dialects[domain]; d != nil && d.foldCase {
			name = d.name(name)
			list, ok = registry[opKey{domain, name}]
		}
		if !ok {
			return nil, nil
		}
	}
	first, last := list[0].versions.since[0], list[len(list)-1].versions.last
	switch {
	case version <= 0:
		return list[0], nil
	case version < first:
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s is not in %s: it is defined from %s", name, opset(domain, version), opset(domain, first))
	case last > 0 && version > last:
		return nil, errcode.Errorf(errcode.ErrSyntax, "%s is not in %s: it is defined from %s to %s, and deprecated after", name,
			opset(domain, version), opset(domain, first), opset(domain, last))
	}
	o := list[0]
	for _, p := range list[1:] {
		if p.versions.since[0] <= version {
			o = p
		}
	}
	return o, nil
}

// opset names version of a domain's operator set as the domain writes it (dialect.opset): "opset
// 13" for ONNX, "opset8" for OpenVINO.
func opset(domain string, version int64) string {
	return dialects[domain].opset + strconv.FormatInt(version, 10)
}

// check returns an error wrapping errcode.ErrSyntax, naming the counts, when a node of nIn inputs
// and nOut outputs (left-out optional ones included) is outside the op's signature. An operator
// of a fixed list of inputs names the first one missing; one of a variadic list counts them.
func (o *opDef) check(nIn, nOut int) error {
	switch {
	case o.in.max != many && nIn > o.in.max:
		return errcode.Errorf(errcode.ErrSyntax, "%s, and %s takes at most %d", count(nIn, "input"), o.name, o.in.max)
	case nIn < o.in.min && o.in.max == many:
		return errcode.Errorf(errcode.ErrSyntax, "%s has %s, and takes at least %d", o.name, count(nIn, "input"), o.in.min)
	case nIn < o.in.min:
		return errcode.Errorf(errcode.ErrSyntax, "input %d is missing: %s takes %s", nIn, o.name, o.in.count("input"))
	case o.out.max != many && nOut > o.out.max:
		return errcode.Errorf(errcode.ErrSyntax, "%s, and %s has at most %d", count(nOut, "output"), o.name, o.out.max)
	case nOut < o.out.min:
		return errcode.Errorf(errcode.ErrSyntax, "%s has %s, and at least %d", o.name, count(nOut, "output"), o.out.min)
	}
	return nil
}

// count returns the arity as a count of what: "1 input", "2 inputs", "3 to 5 inputs".
func (a arity) count(what string) string {
	if a.min == a.max {
		return count(a.min, what)
	}
	return strconv.Itoa(a.min) + " to " + strconv.Itoa(a.max) + " " + what + "s"
}

// count returns "no inputs", "1 input", "3 inputs".
func count(k int, what string) string {
	switch k {
	case 0:
		return "no " + what + "s"
	case 1:
		return "1 " + what
	}
	return strconv.Itoa(k) + " " + what + "s"
}

// Supported reports whether Infer has a shape rule for the operator op of domain ("" or "ai.onnx"
// for ONNX's default domain, "com.microsoft" for onnxruntime's contrib operators, DomainOpenVINO
// for IR layers, whose types match ignoring case), at some version.
func Supported(domain, op string) bool {
	if domain == "ai.onnx" {
		domain = ""
	}
	_, ok := registry[opKey{domain, dialectOf(domain).name(op)}]
	return ok
}
