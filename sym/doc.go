// Package sym implements symbolic dimensions (integers, intervals, expressions over named symbols
// in one canonical form) and the conditions a model imposes on them: predicates and their Solver.
//
// Graph shape inference meets dimensions that no single number describes: the batch size N of an
// exported model, the sequence length T. Intervals (package shape) lose what an exact answer needs:
// a Reshape of [N,3,224,224] by a pattern [N,-1] computed from the same tensor's shape divides
// N·150528 by N, which intervals cannot do. A symbol keeps it: the answer is [N,150528].
//
// # Notation
//
// A dim prints as an integer, an expression, or its interval when no expression in the model's
// symbols is known:
//
//	3            an integer
//	N            a symbol, printed as the model names it ("batch_size", "x:0")
//	"batch size" a symbol whose name is not a letter or _ followed by letters, digits, _, . and :
//	B*T          a product
//	N*T/2        an exact quotient: the model divides exactly wherever it runs
//	(H-1)/2+T    terms that need not be integers, over their common denominator, so that
//	             each / divides wherever the whole is an integer (not H/2-1/2+T)
//	(H+1)//2     a floor division, Python's //
//	T % 4        a remainder, Python's %
//	max(A,B)     the greater of two, min(A,B) the lesser (a broadcast of A and B is max(A,B))
//	H-1          sums and differences
//	?  2..5  2..  ..5   intervals, as in package shape
//	int(floor(f32(H)*f32(0.5)))   a size computed in floating point (Float), truncated
//
// Inside int(...), f32(E) and f64(E) convert an integer expression E (or a float of the other
// type) to float32 or float64, rounded to nearest, ties to even; f32(320) and f32(0.1) are
// constants of the type; + - * / (left associative, a true division), min, max, floor, ceil,
// round (half to even) and sqrt of floats compute in their type, each result rounded; int(F)
// truncates toward zero. A Cast of a size to float32, a Reciprocal, a Mul and a Floor print so,
// and evaluate bit for bit as onnxruntime computes them (numpy.float32 arithmetic in Python).
// Their bounds (Expr.Bounds) hold whatever the rounding: each result widened by more than its
// rounding, a quotient f32(X)/f32(D) of an integer D at least X >= 0 (max(X,W), X+1) at most 1,
// and a product by a min or max spread over its operands, so that torchvision's
// int(floor(f32(H)*min(f32(1)/f32(min(H,W))*f32(320),f32(1)/f32(max(H,W))*f32(640)))) is
// within 0..640 whatever H and W.
//
// The operators are + - * // / % with Python's precedence and left associativity, and
// parentheses; a name in double quotes escapes a backslash and a double quote within by a
// backslash. ParseExpr, ParseDim and ParseShape read this notation back.
//
// # Canonical form
//
// An Expr is a sum of terms, each a rational coefficient times a product of atoms raised to
// non-zero powers; an atom is a symbol, a floor division, a remainder, an exact quotient by a sum,
// the max or min of expressions, or a value computed in floating point (int(F)). Terms are ordered by degree, then by their atoms; symbols are
// ordered as their Table first met them. So N·150528/N is 150528, B·T + T·B is 2*B*T, and equal
// expressions are equal Go values by Equal.
// Floor divisions by an integer are normalized: whole multiples leave the division, the
// remainder's coefficients are reduced modulo the divisor, and nested floors merge:
//
//	(2*H+3)//2        = H+1
//	(H-1)//2+1        = (H+1)//2
//	((H+1)//2+1)//2   = (H+3)//4
//
// so that the output sizes of a chain of strided convolutions print alike however they were
// computed. Remainders by an integer are normalized likewise ((4*T) % 16 = 4*(T % 4), (T % 8) % 4
// = T % 4), and maxima and minima flatten, drop the arguments that others bound (max(A,1) = A for
// a size A), keep their arguments in order (max(B,A) = max(A,B)), take out a common
// denominator of their arguments (max(A/2,B/3) = max(3*A,2*B)/6) and a minus sign of every
// argument (min(-A,-B) = -max(A,B)). Negative powers arise only from exact quotients by
// products (a Reshape's -1), whose values are integers wherever the model runs.
//
// An expression is kept only up to a size bound (64 terms, factors and atoms, a power counting as
// its repeated factors, an atom that occurs several times counting once; and 256 counting every
// occurrence) and with coefficients in int64; an operation whose result would pass
// either fails, and the Dim it computes keeps only its interval bounds. A chain of operations
// therefore never grows an expression without bound.
//
// # Bounds and bindings
//
// Every symbol has interval bounds ([1, Inf) for a model's named dimension, a size, unless bound),
// and a Dim carries the interval of its values beside its expression. Bindings turn expressions
// into integers: Dim.Eval and Shape.Eval evaluate at a map of symbol values, naming a symbol it
// leaves out (*UnboundError), Expr.Subst substitutes expressions for symbols (unification of two
// symbols that must be equal), and the evaluation of a symbolic answer at a binding equals the
// answer computed with the binding from the start.
//
// # Predicates
//
// A Pred is a condition on the symbols, in the notation of ParsePred: comparisons (== != < <= >
// >=) of two expressions, ! before a comparison, && (which binds tighter than ||), || and
// parentheses: N == 1, T % 4 == 0, H >= 11, A == B || A == 1 || B == 1. Predicates are kept in one
// canonical form too (see Pred): 12*N == 12 is N == 1, H-10 >= 1 is H >= 11, and a conjunction
// merges what says the same and drops what is implied. Pred.Eval evaluates one at a binding.
//
// # Constraints
//
// A Solver records what the nodes of a model need of its symbols: the equalities that unification
// finds, substituted from then on (B replaced by A where A == B), and the other conditions, each
// with the node that imposes it (Origin). It refuses a condition that can never hold, says what a
// condition comes to under those recorded (Solver.When: always, never, or only when), lists them
// in canonical order, less those implied by the ones recorded before them (Solver.Constraints), and
// checks a binding against them in the order of recording (Solver.Check: "N == 1 does not hold at
// N=2"): the first listed condition a binding breaks is at the node of the first Check finds.
package sym
