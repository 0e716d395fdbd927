package graph

import (
	"strings"

	"github.com/reshape-go/reshape/sym"
)

// The engine's record of where inference lost precision (Result.Lost): the places where a rule
// could not state what it needs, so that the conditions may be incomplete.
//
// Each tensor carries a taint: taintLost when what is not known of it (a dim that is no expression
// in the symbols, a dynamic rank, values not known exactly) comes from a loss recorded upstream,
// taintData when its values depend on the model's data. After each rule the engine compares the
// node's outputs with its inputs: an output whose shape is not known exactly, from inputs none of
// which carries taintLost, is a new loss, recorded at the node (its origin); downstream of it the
// taint travels with the tensors that stay inexact, and nothing more is recorded. A rule records
// what the outputs do not show through ctx: Lost for a condition it could not state, RunTime for
// a size that only a run decides. So every shape that is not known exactly has its loss recorded,
// and a Result without losses states every condition its rules need (Result.Complete).

// Loss is a place where inference lost precision: a rule could not state what it needs there, so
// that the conditions of the model (Result.Constraints) may be incomplete.
type Loss struct {
	// Node is the path of the node (NodeResult.Path), or for a graph input whose shape is not
	// in symbols, the input's name; Op is the node's operator, "input" for a graph input.
	Node, Op string
	// Tensor is the path of the tensor whose shape or values the rules could not express (the
	// node's output, or the input the node reads), "" when the rule could not state a condition
	// on tensors it expressed.
	Tensor string
	// Why says what was lost, in a few words: "output 0 is [N,?]: dim 1 is no expression in the
	// symbols"; for a node without a shape rule "no shape rule for " and the operator, as
	// Result.Unsupported names it ("com.example:Foo").
	Why string
	// RunTime reports a size that only a run decides, because it depends on the values of the
	// model's data (the count of NonZero, the boxes NonMaxSuppression keeps, the branch an If on
	// data takes), not on its symbols: no condition on the symbols can state it.
	RunTime bool
}

// String returns "NODE (OP): WHY", and " (only a run decides)" for a RunTime loss.
func (l Loss) String() string {
	s := l.Node + " (" + l.Op + "): " + l.Why
	if l.RunTime {
		s += " (only a run decides)"
	}
	return s
}

// taint says where what is not known of a tensor comes from (see the file's comment).
type taint uint8

const (
	// taintLost: the tensor's shape or values are not known exactly because of a loss recorded
	// upstream.
	taintLost taint = 1 << iota
	// taintData: the tensor's values depend on the values of the model's data.
	taintData
)

// exactValues reports whether the values of in are known exactly: each an integer or an expression
// in the model's symbols.
func exactValues(in *Info) bool { return in.Value != nil && sym.ShapeOf(in.Value...).Determined() }

// Lost records that the rule could not state a condition the node needs, why saying which and
// why ("the kernel's reach: the dilation is no expression in the symbols"): the model's
// conditions may be incomplete there (Result.Lost). A rule calls it where it leaves a condition
// out; an output whose shape the rule cannot express the engine records itself.
func (c *ctx) Lost(why string) {
	if c.lost == "" {
		c.lost = why
	}
}

// RunTime records that the size of an output depends on the values of the model's data, why
// saying which ("the count of non-zero elements of input 0"): a condition on it is one only a run
// decides (Loss.RunTime). The rule gives the output an anonymous dim, or unknown, as for any size
// it cannot express.
func (c *ctx) RunTime(why string) {
	if c.lost == "" {
		c.lost, c.runTime = why, true
	}
}

// lose records a loss at the node of c, unless one of the same node and why is recorded already
// (a subgraph inferred again), and not for a subgraph the model does not run at this binding.
func (e *engine) lose(c *ctx, tensor, why string, runTime bool) {
	if c.s.notTaken {
		return
	}
	e.addLoss(Loss{Node: c.path, Op: c.n.Op, Tensor: tensor, Why: why, RunTime: runTime})
}

// addLoss appends l to the losses, unless one of the same node and why is there.
func (e *engine) addLoss(l Loss) {
	for _, o := range e.lost {
		if o.Node == l.Node && o.Why == l.Why {
			return
		}
	}
	e.lost = append(e.lost, l)
}

// account records the node's losses and sets its outputs' taints, after its rule ran without
// error: a node without a rule (unsupported names its operator as Result.Unsupported counts it, ""
// for a node with one), a loss its rule recorded (ctx.Lost, ctx.RunTime), or an output whose shape
// is not known exactly from inputs that carry no loss.
func (e *engine) account(c *ctx, def *opDef, unsupported string) {
	var in taint
	for _, x := range c.in {
		if x != nil {
			in |= x.taint
		}
	}
	out := in & taintData
	if def != nil && readsShapeOnly(def.name) {
		out = 0 // its values are the input's dims, not its values
	}
	inexact := -1 // the first output whose shape is not known exactly
	for k, o := range c.out {
		if o == nil || o.FailedAt != "" { // unknown by an error, not a loss (a subgraph's output)
			continue
		}
		if inexact < 0 && !o.determined() {
			inexact = k
		}
		// An output the rule took from a subgraph (an If's branch, a Loop's body) carries the
		// taint the subgraph's own nodes gave it, from outer tensors they read that are not
		// inputs of this node: a loss recorded upstream.
		in |= o.taint & taintLost
	}
	lost := false
	switch {
	case unsupported != "":
		lost = true
		e.lose(c, c.outName(max(inexact, 0)), noRule+unsupported, false)
	case c.lost != "":
		lost = true
		e.lose(c, c.outName(max(inexact, 0)), c.lost, c.runTime)
	case inexact >= 0 && in&taintLost == 0:
		lost = true
		why, tensor, runTime := e.inexact(c, def, inexact)
		e.lose(c, tensor, why, runTime)
	}
	for _, o := range c.out {
		if o == nil {
			continue
		}
		o.taint |= out
		if (lost || in&taintLost != 0) && (!o.determined() || isIntegral(o.Type) && !exactValues(o)) {
			o.taint |= taintLost
		}
	}
}

// noRule begins the why of a loss at a node without a shape rule, which its operator ends ("no
// shape rule for com.example:Foo", as Result.Unsupported names it).
const noRule = "no shape rule for "

// shapeOfShapes holds the operators whose output shapes follow from their inputs' shapes alone:
// the values they read only move into their outputs (Concat's, an elementwise operator's,
// Gather's indices), so an output not known exactly is one whose size the rule could not express
// (a sum over the expression size bound), never one only a run decides, whatever those values are.
var shapeOfShapes = map[string]bool{
	"Concat": true, "Gather": true, "Where": true, "Cast": true, "CastLike": true, "Identity": true,
	"Transpose": true, "Flatten": true, "CumSum": true, "Add": true, "Sub": true, "Mul": true, "Div": true,
	"Mod": true, "Min": true, "Max": true, "Sum": true, "Neg": true, "Abs": true, "Ceil": true, "Floor": true,
	"Round": true, "Sqrt": true, "Reciprocal": true, "Relu": true, "Not": true, "And": true, "Or": true,
	"Xor": true, "Equal": true, "Less": true, "LessOrEqual": true, "Greater": true, "GreaterOrEqual": true,
}

// readsShapeOnly reports whether the operator op gives values that are its input's dims, not its
// values: ONNX's Shape and Size, OpenVINO's ShapeOf.
func readsShapeOnly(op string) bool { return op == "Shape" || op == "Size" || op == "ShapeOf" }

// outName returns the path of output k of the node, "" for none.
func (c *ctx) outName(k int) string {
	if k >= len(c.n.Outputs) || c.n.Outputs[k] == "" {
		return ""
	}
	return c.s.path + c.n.Outputs[k]
}

// inexact says why output k of the node has a shape not known exactly, from inputs that carry no
// loss: an input whose values the rule reads and that are not known exactly (of the model's data,
// or lost), else the output's shape itself.
func (e *engine) inexact(c *ctx, def *opDef, k int) (why, tensor string, runTime bool) {
	if def != nil && !shapeOfShapes[def.name] {
		// The last input whose values the rule reads and that are not known exactly: the one that
		// decides the output's shape (a Slice's ends, a Reshape's pattern), where input 0 may be
		// data whose values only move (Slice's, Gather's).
		for i := len(c.in) - 1; i >= 0; i-- {
			x := c.in[i]
			if x == nil || !def.values.has(i) || !isIntegral(x.Type) || exactValues(x) {
				continue
			}
			name := c.s.path + c.n.Inputs[i]
			if x.Value == nil {
				why = "the values of input " + itoa(i) + " (" + c.n.Inputs[i] + ") are not known"
			} else {
				why = "the values of input " + itoa(i) + " (" + c.n.Inputs[i] + ") are " + sym.ShapeOf(x.Value...).String()
			}
			return why, name, x.taint&taintData != 0
		}
	}
	o := c.out[k]
	why = "output " + itoa(k) + " is " + o.describe()
	if !o.IsTensor() {
		return why + ": its length or a dim of its elements is no expression in the symbols", c.outName(k), false
	}
	if o.Shape.RankDynamic {
		return why + ": its rank is not known", c.outName(k), false
	}
	var axes []string
	for i, d := range o.Shape.Dims {
		if !d.Determined() {
			axes = append(axes, itoa(i))
		}
	}
	what := "dim " + axes[0] + " is"
	if len(axes) > 1 {
		what = "dims " + strings.Join(axes, ", ") + " are"
	}
	return why + ": " + what + " no expression in the symbols", c.outName(k), false
}
