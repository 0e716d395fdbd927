package graph

import (
	"math/bits"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
)

// The element types each operator accepts, checked before its rule runs as go/types checks a
// builtin's argument types: ONNX's type constraints (types_onnx.go, which bench/types/gen.py
// generates from onnx's schemas and onnxruntime's), with the types onnxruntime has CPU kernels
// for, and OpenVINO's operation specifications (types_openvino.go).
//
// A typeOp holds one operator's signatures, one per version at which its types change; a
// typeSig binds each input and output (a typeParam) to a type variable (a typeVar, ONNX's "T")
// that says which types it takes. Inputs bound to one variable take one type (Add's A and B),
// except those of a heterogeneous variadic list (Loop's carried values), each of its own. Where
// onnxruntime has kernels for some combinations of the variables' types only, the signature lists
// them (kernelTypes).

// typeSet is a set of element types: bit t for element.Type t.
type typeSet uint32

// ortNone is the kernel set of a type variable for which onnxruntime has no kernel at all: no
// element type's bit, and not zero (zero is a set that was not probed).
const ortNone typeSet = 1 << 31

// has reports whether s holds t.
func (s typeSet) has(t element.Type) bool { return t < 31 && s&(1<<t) != 0 }

// String lists the types of s in the order of package element's constants: "f16, f32 or f64".
func (s typeSet) String() string { return s.list("or") }

// list lists the types of s in the order of package element's constants, the last two joined by
// conj: "f16, f32 and f64".
func (s typeSet) list(conj string) string {
	var names []string
	for _, t := range element.Types() {
		if s.has(t) {
			names = append(names, t.String())
		}
	}
	switch len(names) {
	case 0:
		return "no type"
	case 1:
		return names[0]
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}

// paramOption says how many tensors a formal input or output stands for.
type paramOption uint8

const (
	single        paramOption = iota // exactly one
	optionalIn                       // one, or none
	variadicIn                       // any number, all of one type
	heterogeneous                    // any number, each of its own type
)

// A typeParam is a formal input or output of an operator: its name in the specification and the
// index of its type variable in typeSig.vars. Only the last one may be variadic.
type typeParam struct {
	name string
	v    uint8
	opt  paramOption
}

// A typeVar is a type variable of an operator's signature (ONNX's type constraint "T"; an input
// of a fixed type, as Reshape's shape of int64, is a variable of its own, without a name): the
// element types a tensor bound to it may have, and those of the other kinds of values ONNX has
// (seq(tensor(T)), optional(tensor(T)), optional(seq(tensor(T))), and maps, as ONNX writes them:
// "map(int64, float)"), which the check does not read yet. ort is the subset of tensor that
// onnxruntime 1.20.1's CPU provider has kernels for (0 when not known, ortNone for no type).
type typeVar struct {
	name                       string
	tensor, ort                typeSet
	seq, optional, optionalSeq typeSet
	maps                       []string
}

// A typeSig is an operator's signature from opset since on, where the operator is at version
// (ONNX's since-version, which messages name): its inputs, its outputs and their type variables.
// since is the version, or a later opset where what onnxruntime runs changes though the operator
// does not (it expands the function of an operator without a kernel into operators of the
// model's opset: Relu-14 of i64 loads at opset 18 and not at 14). A signature without inputs is
// not checked (an operator whose types were not read, at that version).
type typeSig struct {
	since, version int64
	in, out        []typeParam
	vars           []typeVar
	// kernels lists the combinations of the variables' types that onnxruntime has CPU kernels
	// for, where it registers them for some combinations of the types of each variable's ort only
	// (MatMulInteger of u8 and i8, not of i8 and u8); nil when it has one for every combination.
	kernels []kernelTypes
}

// kernelTypes is a combination of element types of a signature's variables, by index, that
// onnxruntime has a kernel for: element.Undefined for a variable the combination leaves free.
type kernelTypes [maxTypeVars]element.Type

// A typeOp holds the signatures of one operator of a domain, ascending by version.
type typeOp struct {
	domain, name string
	sigs         []typeSig
}

// maxTypeVars bounds the type variables of a signature (ONNX's have at most 4; QLinearMatMul's).
const maxTypeVars = 8

// typeIndex holds the signatures of every operator of typeTables, by domain and name ("" for
// ONNX's default domain; OpenVINO's names in lower case, since IR layer types match ignoring
// case).
var typeIndex = indexTypes(onnxTypes, openvinoTypes)

// indexTypes returns the signatures of tables by operator. An operator listed twice, versions
// out of order and a signature of more than maxTypeVars variables or of a parameter bound to no
// variable are programming errors.
func indexTypes(tables ...[]typeOp) map[opKey][]typeSig {
	idx := map[opKey][]typeSig{}
	for _, t := range tables {
		for _, op := range t {
			k := typeKey(op.domain, op.name)
			if _, ok := idx[k]; ok {
				panic("graph: two type signatures of " + op.domain + ":" + op.name)
			}
			for i, s := range op.sigs {
				if i > 0 && s.since <= op.sigs[i-1].since || len(s.vars) > maxTypeVars {
					panic("graph: the type signatures of " + op.domain + ":" + op.name + " are out of order or too wide")
				}
				for _, p := range append(s.in[:len(s.in):len(s.in)], s.out...) {
					if int(p.v) >= len(s.vars) {
						panic("graph: " + op.domain + ":" + op.name + "'s " + p.name + " has no type variable")
					}
				}
			}
			idx[k] = op.sigs
		}
	}
	return idx
}

// typeKey is the key of the operator name of domain in typeIndex.
func typeKey(domain, name string) opKey {
	if d := dialects[domain]; d != nil && d.foldCase {
		name = strings.ToLower(name)
	}
	return opKey{domain, name}
}

// typeSigAt returns the signature of sigs at version, nil when there is none: a version before
// the first, or 0 (a node without an opset).
func typeSigAt(sigs []typeSig, version int64) *typeSig {
	var s *typeSig
	for i := range sigs {
		if sigs[i].since > version {
			break
		}
		s = &sigs[i]
	}
	if version <= 0 || s == nil || s.in == nil {
		return nil
	}
	return s
}

// param returns the formal input that input k of a node is: the k-th, or the last when it is
// variadic; ok is false for an input beyond them.
func (s *typeSig) param(k int) (typeParam, bool) { return paramAt(s.in, k) }

// paramAt returns the formal parameter of ps that tensor k is: the k-th, or the last when it is
// variadic; ok is false for one beyond them.
func paramAt(ps []typeParam, k int) (typeParam, bool) {
	switch {
	case k < len(ps) && (k < len(ps)-1 || ps[k].opt < variadicIn):
		return ps[k], true
	case len(ps) > 0 && ps[len(ps)-1].opt >= variadicIn:
		return ps[len(ps)-1], true
	}
	return typeParam{}, false
}

// outType returns the element type of output k of a node of the signature whose inputs are ins,
// as its type variable says it whatever the shapes: the type of an input bound to the same
// variable (Add's C is A's), or the one type the variable takes (Shape's int64); element.Undefined
// when neither tells it.
func (s *typeSig) outType(k int, ins []*Info) element.Type {
	p, ok := paramAt(s.out, k)
	if !ok || p.opt == heterogeneous {
		return element.Undefined
	}
	for j, in := range ins {
		if in == nil || in.Type == element.Undefined || in.Optional {
			continue
		}
		if q, ok := s.param(j); ok && q.v == p.v && q.opt != heterogeneous {
			return in.Type
		}
	}
	if t := s.vars[p.v].tensor; t != 0 && t&(t-1) == 0 {
		return element.Type(bits.TrailingZeros32(uint32(t)))
	}
	return element.Undefined
}

// check returns an error when the element types of the inputs ins (named names; nil for one left
// out) break the signature of the operator op: an input of a type its variable does not take, or
// two inputs of one variable of two types, wrapping errcode.ErrDataType and naming the inputs,
// their types and the types allowed; or, when the signature allows them, an input of a type for
// which onnxruntime has no CPU kernel, wrapping errcode.ErrNoKernel. An input whose type is not
// known (element.Undefined), an optional value and a variable that takes no tensor are not
// checked. It allocates only for an error.
func (s *typeSig) check(op string, ins []*Info, names []string) error {
	var bound [maxTypeVars]int // 1 + the first input of each variable, 0 for none yet
	kernel := -1
	for k, in := range ins {
		if in == nil || in.Type == element.Undefined || in.Optional {
			continue
		}
		p, ok := s.param(k)
		if !ok {
			break
		}
		v := &s.vars[p.v]
		switch {
		case v.tensor == 0:
			continue
		case !v.tensor.has(in.Type):
			return errcode.Errorf(errcode.ErrDataType, "%s is %s: %s-%d takes %s for %s%s", inputName(k, names), in.Type,
				op, s.version, v.tensor, p.name, v.named())
		case p.opt == heterogeneous:
		case bound[p.v] == 0:
			bound[p.v] = k + 1
		case ins[bound[p.v]-1].Type != in.Type:
			j := bound[p.v] - 1
			q, _ := s.param(j)
			which := q.name + " and " + p.name
			if q.name == p.name {
				which = "every one of " + p.name
			}
			return errcode.Errorf(errcode.ErrDataType, "%s is %s and %s is %s: %s-%d takes one type%s for %s",
				inputName(j, names), ins[j].Type, inputName(k, names), in.Type, op, s.version, v.named(), which)
		}
		if kernel < 0 && v.ort != 0 && !v.ort.has(in.Type) {
			kernel = k
		}
	}
	if kernel < 0 {
		return s.checkKernels(op, ins, names, &bound)
	}
	p, _ := s.param(kernel)
	v := &s.vars[p.v]
	if v.ort == ortNone {
		return errcode.Errorf(errcode.ErrNoKernel, "onnxruntime 1.20.1 has no CPU kernel for %s-%d at any type: onnxruntime refuses to load the model",
			op, s.version)
	}
	return errcode.Errorf(errcode.ErrNoKernel, "%s is %s, which %s-%d allows for %s, and onnxruntime 1.20.1 has no CPU kernel for it (it has them for %s): onnxruntime refuses to load the model",
		inputName(kernel, names), ins[kernel].Type, op, s.version, p.name, v.ort.list("and"))
}

// checkOutputs returns an error when the element type of an output outs[k] (named names[k]) of a
// variable that no input binds, whose type an attribute sets (Cast's to, ConstantOfShape's value),
// is not one the signature allows, wrapping errcode.ErrDataType, or one onnxruntime has no CPU
// kernel for, wrapping errcode.ErrNoKernel: "output 0 ("y") is i4, which Cast-21 allows for output,
// and onnxruntime 1.20.1 has no CPU kernel for it". An output of a type not known, or whose Info is
// the declaration, is not checked.
func (s *typeSig) checkOutputs(op string, outs []*Info, names []string) error {
	for k, out := range outs {
		if out == nil || out.Type == element.Undefined || out.FromDecl || k >= len(s.out) || s.bound(s.out[k].v) {
			continue
		}
		p := s.out[k]
		v := &s.vars[p.v]
		switch {
		case v.tensor == 0:
		case !v.tensor.has(out.Type):
			return errcode.Errorf(errcode.ErrDataType, "%s is %s: %s-%d takes %s for %s%s", portName("output", k, names), out.Type,
				op, s.version, v.tensor, p.name, v.named())
		case v.ort != 0 && !v.ort.has(out.Type):
			return errcode.Errorf(errcode.ErrNoKernel, "%s is %s, which %s-%d allows for %s, and onnxruntime 1.20.1 has no CPU kernel for it (it has them for %s): onnxruntime refuses to load the model",
				portName("output", k, names), out.Type, op, s.version, p.name, v.ort.list("and"))
		}
	}
	return nil
}

// bound reports whether an input of the signature is of the type variable v.
func (s *typeSig) bound(v uint8) bool {
	for _, p := range s.in {
		if p.v == v {
			return true
		}
	}
	return false
}

// named returns " (type constraint T)" for a variable of a name, "" for one of a fixed type.
func (v *typeVar) named() string {
	if v.name == "" {
		return ""
	}
	return " (type constraint " + v.name + ")"
}

// inputName names input k of a node for messages: `input 1 ("n")`.
func inputName(k int, names []string) string { return portName("input", k, names) }

// portName names input or output (kind) k of a node for messages: `output 0 ("y")`.
func portName(kind string, k int, names []string) string {
	s := kind + " " + strconv.Itoa(k)
	if k < len(names) && names[k] != "" {
		s += " (" + strconv.Quote(names[k]) + ")"
	}
	return s
}

// declaredTypes returns an error when the element type inferred for an output of an ONNX node
// (outs, named names) is not the one graph g declares for it (a value_info or a graph output),
// wrapping errcode.ErrDataType and naming the output and both types: onnxruntime refuses such a
// model at load ("Type Error: Type (tensor(int64)) of output arg (y) of node (relu) does not match
// expected type (tensor(float))"). An output whose type is not known or not declared is not
// compared, nor one whose Info is the declaration (a node a rule leaves without a result).
func declaredTypes(g *Graph, names []string, outs []*Info) error {
	for k, name := range names {
		out := outs[k]
		if name == "" || out == nil || out.Type == element.Undefined || out.FromDecl {
			continue
		}
		if d, ok := g.Declared[name]; ok && d.Type != element.Undefined && d.Type != out.Type {
			return errcode.Errorf(errcode.ErrDataType, "output %d (%q) is %s, and the model declares it %s", k, name, out.Type, d.Type)
		}
	}
	return nil
}

// maxKernelsNamed bounds the combinations of kernels an error names.
const maxKernelsNamed = 6

// checkKernels returns an error wrapping errcode.ErrNoKernel when the types of the variables that
// inputs ins bind (bound: 1 + the first input of each, 0 for none) are a combination onnxruntime
// has no kernel for (typeSig.kernels), naming the inputs and the combinations it has; nil when it
// has one, or a variable a combination fixes is not bound.
func (s *typeSig) checkKernels(op string, ins []*Info, names []string, bound *[maxTypeVars]int) error {
	if s.kernels == nil {
		return nil
	}
	var got kernelTypes
	for v, k := range bound {
		if k > 0 {
			got[v] = ins[k-1].Type
		}
	}
	for _, kt := range s.kernels {
		for v, t := range kt {
			if t != element.Undefined && got[v] == element.Undefined {
				return nil
			}
		}
	}
	if slices.Contains(s.kernels, got) {
		return nil
	}
	var which, vars []string
	for v, t := range s.kernels[0] {
		if t != element.Undefined {
			which = append(which, inputName(bound[v]-1, names)+" is "+got[v].String())
			vars = append(vars, s.vars[v].name)
		}
	}
	var has []string
	for i, kt := range s.kernels {
		if i == maxKernelsNamed {
			has = append(has, "and "+strconv.Itoa(len(s.kernels)-i)+" more")
			break
		}
		var ts []string
		for _, t := range kt {
			if t != element.Undefined {
				ts = append(ts, t.String())
			}
		}
		has = append(has, strings.Join(ts, " and "))
	}
	return errcode.Errorf(errcode.ErrNoKernel, "%s, which %s-%d allows, and onnxruntime 1.20.1 has no CPU kernel for %s of these types (it has them for %s): onnxruntime refuses to load the model",
		strings.Join(which, " and "), op, s.version, strings.Join(vars, " and "), strings.Join(has, "; "))
}
