package graph

import (
	"slices"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/sym"
)

// onnxText holds the rules of ONNX's operators on strings (element.String): text normalization,
// n-gram counts, splitting, and those of element-wise shapes, concatenation (binary: the strings
// broadcast) and regular expressions (unaryBool: a boolean of each string).
var onnxText = table{"", []opDef{
	{"TfIdfVectorizer", since(9), fixed(1), fixed(1), 0, tfIdfVectorizer},
	{"StringNormalizer", since(10), fixed(1), fixed(1), 0, stringNormalizer},
	{"StringConcat", since(20), fixed(2), fixed(1), 0, binary},
	{"StringSplit", since(20), fixed(1), fixed(2), 0, stringSplit},
	{"RegexFullMatch", since(20), fixed(1), fixed(1), 0, unaryBool},
}}

// tfIdfVectorizer: TfIdfVectorizer-9: X, [C] or [N, C] (strings or integers), gives float
// counts [max(ngram_indexes)+1] or [N, max(ngram_indexes)+1]. ngram_indexes is required, of
// values 0 or more; another rank of X is an error wrapping errcode.ErrInvalidShape.
func tfIdfVectorizer(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	idx, ok, err := c.Ints("ngram_indexes")
	if err != nil {
		return err
	}
	if !ok || len(idx) == 0 {
		return c.Errorf(errcode.ErrSyntax, "attribute ngram_indexes is missing or empty: TfIdfVectorizer takes it")
	}
	top := slices.Max(idx)
	if least := slices.Min(idx); least < 0 {
		return c.Errorf(errcode.ErrInvalidShape, "ngram_indexes holds %d: want indexes of 0 or more", least)
	}
	size := sym.Const(top + 1)
	r, ok, err := c.RequireRank(x, 0, 1, 2)
	switch {
	case err != nil:
		return err
	case !ok:
		c.Out(0, element.F32, sym.DynamicRank())
	case r == 1:
		c.Out(0, element.F32, sym.ShapeOf(size))
	default:
		c.Out(0, element.F32, sym.ShapeOf(x.Shape.Dims[0], size))
	}
	return nil
}

// stringNormalizer: StringNormalizer-10: X, strings [C] or [1, C], gives strings of X's shape
// without stopwords; with stopwords the count C' is the data's: 1 to C (a removal of every string
// leaves one empty string), 0 when C is. A rank-2 X whose first dim is not known to be 1, or
// another rank, is an error wrapping errcode.ErrInvalidShape: onnx's shape inference, which
// onnxruntime runs when it loads a model, refuses a first dim it does not know to be 1, a
// symbol too, so a graph input's must be declared 1 (a binding of its symbol to 1 is refused as
// well).
func stringNormalizer(c *ctx) error {
	x, r, ok, err := stringInput(c)
	if err != nil || !ok {
		return err
	}
	dims := append([]sym.Dim(nil), x.Shape.Dims...)
	if r == 2 {
		v, ok := dims[0].Static()
		if decl, declared := c.Declared(0); declared && decl.Rank == 2 {
			d := decl.Dims[0]
			v, ok = d.Lo, d.Lo == d.Hi
		}
		if !ok || v != 1 {
			return c.Errorf(errcode.ErrInvalidShape, "input 0 is [%v,%v]: want [C] or [1,C], a first dim known to be 1 (onnx's shape inference)", dims[0], dims[1])
		}
	}
	if a, ok := c.n.Attr("stopwords"); ok && len(a.Strings) > 0 {
		lo, hi := dims[r-1].Bounds()
		dims[r-1] = sym.Interval(min(lo, 1), hi)
		c.RunTime("the count of strings that are not stopwords")
	}
	c.Out(0, element.String, sym.ShapeOf(dims...))
	return nil
}

// stringInput returns input 0 of an operator of strings [C] or [N,C] and its rank r; for an input
// of unknown rank it sets output 0 to strings of unknown rank and returns ok false. Another rank is
// an error wrapping errcode.ErrInvalidShape.
func stringInput(c *ctx) (x *Info, r int, ok bool, err error) {
	if x, err = c.Input(0); err != nil {
		return nil, 0, false, err
	}
	if r, ok, err = c.RequireRank(x, 0, 1, 2); err == nil && !ok {
		c.Out(0, element.String, sym.DynamicRank())
	}
	return x, r, ok, err
}

// stringSplit: StringSplit-20: X, strings of any shape, gives Y, strings [X's dims..., M], and Z,
// the int64 counts of substrings of X's shape. M, the most substrings of one element, is the
// data's: at most maxsplit+1 when maxsplit is given, and unknown otherwise.
func stringSplit(c *ctx) error {
	x, err := c.Input(0)
	if err != nil {
		return err
	}
	m := sym.Unknown()
	if _, ok := c.n.Attr("maxsplit"); ok {
		k, err := c.Int("maxsplit", 0)
		if err != nil {
			return err
		}
		if k < 0 {
			return c.Errorf(errcode.ErrInvalidShape, "maxsplit %d: want 0 or more", k)
		}
		m = sym.Interval(0, k+1)
	}
	c.RunTime("the count of substrings of the longest split")
	c.Out(1, element.I64, x.Shape)
	if x.Shape.RankDynamic {
		c.Out(0, element.String, sym.DynamicRank())
		return nil
	}
	c.Out(0, element.String, sym.ShapeOf(append(append([]sym.Dim(nil), x.Shape.Dims...), m)...))
	return nil
}
