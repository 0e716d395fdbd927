// Package shape implements OpenVINO partial shapes: dimensions that are intervals, shapes of known
// or dynamic rank, and the notation OpenVINO prints them in ("[2,?,1..8]", "[...]").
//
// A dimension is an interval [Lo, Hi] with 0 <= Lo <= Hi <= Inf. A static dimension has Lo == Hi.
//
// # Notation
//
// Dimensions are written as OpenVINO's ov::Dimension prints them:
//
//	3      static            [3, 3]
//	?      fully dynamic     [0, Inf]  (parsers also accept -1, as IR files write it)
//	2..5   interval          [2, 5]
//	2..    lower bound only  [2, Inf]
//	..5    upper bound only  [0, 5]
//
// A shape is written "[d0,d1,...]", as ov::PartialShape prints it; "[]" is a scalar (rank 0) and
// "[...]" a shape of dynamic rank. The OpenVINO IR writes the same dimensions in its <dim> elements
// ("-1" or "?" dynamic, "1..8" an interval in IR v11).
//
// Static shapes are plain []int64 slices of non-negative dimensions; their volume is the product
// of the dimensions, computed by [Volume] without ever wrapping around.
package shape
