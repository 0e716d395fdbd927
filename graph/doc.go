// Package graph infers the element type and shape of every tensor of an ONNX or OpenVINO IR model,
// subgraphs included, in symbolic dims that a program evaluates at a binding of the model's symbols.
//
// Open reads a model file into a Graph, the format-neutral form of a model (FromONNX and FromIR
// build one from a decoded model). Infer returns a Result that gives every tensor's element type
// and shape by path (Result.Tensor, and all of them in order: Result.Tensors), the model's symbols
// with their bounds (Result.Symbols) and the conditions its nodes impose on them
// (Result.Constraints), and whether those are all it needs or where precision was lost
// (Result.Complete, Result.Lost); a program evaluates a tensor's shape at a binding without
// inferring again (Result.Eval, which checks the binding against the conditions first; Result.Check
// and sym.Shape.Eval apart), as a runtime that allocates a request's outputs does, and a Reshape's
// pattern the model computes at a binding (Result.EvalValue) with the node's options as its rule
// reads them (Result.Reshape: the dialect, allowzero or special_zero, the version).
//
// Infer runs the graph node by node in topological order: each node's rule computes the Info of
// its outputs (element type, shape in symbolic dims of package sym, and the values of small integer
// tensors) from the Infos of its inputs. Shape subgraphs (Shape → Gather → Concat → Reshape) run
// through the same rules as the rest, so a Reshape whose pattern the model computes gets exact
// values: [N,3,224,224] reshaped by Concat(Gather(Shape(x), 0), [-1]) is [N,150528].
//
// # Rules
//
// Each operator has one rule, declared once with its signature: the versions at which the
// operator's definition changes (ONNX's since-versions, OpenVINO's opsetN), its input and output
// counts, and the inputs whose values it reads. The engine checks a node against it before the rule
// runs, as go/types checks a builtin's argument count: a node of too many or too few inputs or
// outputs, or of a version at which the operator does not exist, is an error wrapping
// errcode.ErrSyntax. It then checks the element types of the node's inputs against the operator's
// type signature at its version, ONNX's type constraints (which onnx.checker applies) or OpenVINO's
// operation specification: an input of a type the operator does not take, or two inputs of one
// type constraint of two types, is NodeResult.TypeErr, wrapping errcode.ErrDataType; an ONNX node
// of a type its schema allows and onnxruntime has no CPU kernel for, one wrapping
// errcode.ErrNoKernel. After an ONNX node's rule, an output of a type an attribute sets (Cast's
// to, ConstantOfShape's value) is checked alike, and an output of another element type than the
// graph declares for it is a TypeErr wrapping errcode.ErrDataType too. A rule follows the
// operator's specification at every version of its domain (Supported says which operators have
// one).
//
// A rule never guesses:
//   - a dim it cannot determine is unknown or an interval (sym.Unknown, sym.Interval), never an
//     assumed value; an output whose rank is not known has a dynamic rank (sym.DynamicRank);
//   - dims the operator requires to be equal (MatMul's inner dims, Concat's other dims) unify:
//     they become one, and the equality is recorded as a constraint of the node;
//   - any other condition the operator needs of the symbols (H >= 11 for a window of 11, T % 4 == 0
//     for an exact quotient) is recorded as a constraint of the node: never assumed silently, and
//     an error at the node when it can never hold. Result.Constraints lists them, and
//     Result.Check evaluates them at a binding;
//   - a value whose run-time data decides it (NonZero, TopK's k from an input) is unknown, or a new
//     anonymous dim when the same unknown appears twice: it prints as its interval;
//   - what a rule could not state is a recorded loss of precision at its node (Result.Lost): an
//     output whose shape is no expression in the symbols, a node without a rule, an If whose
//     branches give other shapes, a condition the rule leaves out; a size that only a run decides
//     is one too, marked so (Loss.RunTime). A result without losses is Complete: its conditions
//     are all the model needs;
//   - a relation the operator's spec implies and onnxruntime does not check (a LinearClassifier's
//     feature count, which it reads at another stride and runs) is a warning of the node
//     (Result.Warnings), never a condition: the outputs are the runtime's.
//
// Inputs that break the operator's rule (dims that do not broadcast, an axis out of range, a
// pooled size below 1) are an error wrapping errcode.ErrInvalidShape; a malformed node (a missing
// required input or attribute, an attribute of the wrong type) one wrapping errcode.ErrSyntax. The
// engine records the error on the node, with its path, and goes on with its outputs unknown. A node
// without a rule gets its outputs from the model's declarations, or unknown, and is counted in
// Result.Unsupported, so that a report can say which operators stopped inference.
//
// Values are kept for integer and boolean tensors of static shape up to MaxValue elements: the
// operators that move or compute shapes (Shape, Gather, Concat, Slice, Squeeze, Unsqueeze, Cast,
// integer arithmetic, comparisons, Where, Range, ReduceProd, ...) compute them, each element a
// sym.Dim.
//
// # Symbols
//
// A named dimension of the model (an ONNX dim_param) is a symbol of that name; an unnamed dynamic
// dim of a graph input is the symbol INPUT:AXIS ("x:0"). Symbols stand for positive sizes (see
// sym.Table.Symbol). Options.Dims binds symbols to integers and Options.Inputs sets input shapes;
// with every symbol bound, every inferred shape is static, and a node that the binding makes invalid
// reports its error.
//
// # Subgraphs
//
// If infers both branches (or the one a constant condition takes, and the other for the shapes of
// its tensors only: NodeResult.NotTaken) and joins their outputs; Loop
// infers its body until the shapes of its loop-carried values settle; Scan infers its body on one
// slice of each scanned input. Names a subgraph does not define resolve to the enclosing graphs'
// tensors. Every node of a subgraph is reported, its path naming the nodes and attributes that
// hold it ("If_3/then_branch/Reshape_1"), and so is every tensor: Result.Tensor("If_3/then_branch/x").
package graph

// Writing a rule (for this package's authors: rules are not part of the API).
//
// To add an operator:
//
//  1. Write its rule, func(c *ctx) error, in the file of its family (onnx_movement.go,
//     onnx_scatter.go, openvino_nn.go), with the kernels the dialects share (gather.go, slice.go,
//     window.go, elementwise.go, reduce.go, movement.go, matmul.go, broadcast.go, helpers.go).
//     Document it with the operator and the versions it implements ("Unsqueeze-1, -11 (axes
//     attribute), -13, -21 (axes input)"), and follow the specification at every version the
//     domain has (ctx.Version).
//  2. Add one line to that file's table: name, versions, input and output counts, the inputs
//     whose values the rule reads, the rule. A version of other counts (Reshape-1's one input) or
//     of another rule (ONNX's Concat-1, whose axis is 1 by default) gets a line of its own. ONNX's
//     Gather:
//
//	{"Gather", since(1, 11, 13), fixed(2), fixed(1), reads(0, 1), gather},
//
//     The engine checks the node's input element types before the rule runs, from the type
//     signatures of types_onnx.go (generated from onnx's and onnxruntime's schemas by
//     bench/types/gen.py) and types_openvino.go (a line per OpenVINO operation): a rule does not
//     check them.
//  3. Test it in the family's _test.go, table-driven, with real shapes and the errors it gives.
//     An ONNX operator that ONNX's node tests or the onnxruntime cases exercise changes their
//     counts: go test ./graph -run 'TestNodeTests|TestORTCases' -update rewrites
//     testdata/nodetests.golden and testdata/ortcases.golden, whose diff (more cases equal, none
//     worse) goes in the same commit.
//
// A rule talks to ctx only, never to the engine (TestRulesTalkToCtx fails on a c.e in a rule
// file); what it needs of the engine is a ctx method:
//   - inputs: In for an optional one, Input and Inputs for required ones, Ranked for one whose
//     rank the rule needs (when that rank is not known, the outputs follow the dialect's policy:
//     ONNX's get a dynamic rank, OpenVINO's their declaration); NumIn, NumOut, Version, Node;
//   - values: Value and IntsIn (Info.Value, of the inputs the table's reads names), ConstInfo for
//     a tensor attribute;
//   - attributes: Int, Ints, Float, Floats, String, Tensor, Graph (each checks the attribute's
//     type), and IntsArg for what is an attribute in early opsets and an input later;
//   - limits: MaxRank (Options.MaxRank, which the Reshape rules pass on), and MaxValue;
//   - outputs: Out, Set, SameAs;
//   - conditions: Unify for dims the operator requires equal, Broadcast for numpy broadcasting,
//     Require for any other condition on the symbols (each recorded with the node), Fresh for a
//     new anonymous dim, RequireRank, NormAxis and NormAxes; errors from Errorf, with a code of
//     package errcode;
//   - losses: Lost where the rule leaves out a condition it cannot state (a dim that is no
//     expression in the symbols), RunTime where an output's size depends on the values of the data
//     (NonZero's count). An output whose shape the rule cannot express the engine records itself
//     (lost.go), so a rule calls them only for what its outputs do not show; Warn for a relation
//     the spec implies that the runtime does not check;
//   - subgraphs: Subgraph runs a subgraph with given inputs; Branches infers the two branches of
//     a node that runs one of them (an If: the branch taken when the condition is known, else
//     both, joined, the errors of a branch a run can avoid marked so), each an ifBranch that maps
//     the subgraph's outputs to the node's; Iterate infers a loopBody until its loop-carried
//     values (carry: a body output that is a body input at the next iteration, OpenVINO's back
//     edges) settle. The rule maps its dialect's ports to these and computes what only its
//     operator knows (a trip count, the axes it slices and stacks).
//
// What a rule holds from ctx is current: when Unify, Require, Broadcast or a subgraph run
// substitutes a symbol, the Infos of the node's inputs and outputs, its subgraphs' outputs and the
// dims that ctx.dims and ctx.clone gave the rule take the substitution in place; an output takes
// what was found since the rule started when it is read. A dim the rule copied into a variable or
// a slice of its own before a unification stays as it was: cut working dims with ctx.dims or
// ctx.clone (as dimsOf does), or read them from the Infos after the unification.
//
// A domain is added by its dialect in registry.go's dialects (how it writes its opsets and
// matches names, its policy for an input of unknown rank) and the tables of its rules in
// registry.go's init, never by a case in a kernel.
