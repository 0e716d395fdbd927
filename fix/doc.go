// Package fix rewrites the sizes that exporters bake into Reshape patterns of ONNX models and
// OpenVINO IR networks, so that a model runs at the input sizes its symbols declare: the 1 of
// [1,3,85,52,52] becomes a 0 copying the batch.
//
// A tracing exporter records a size it read as a Python int as a constant: YOLO's
// view(bs, na, no, ny, nx) at a batch of 1 and a grid of 52x52 gives the pattern [1,3,85,52,52],
// and the model runs at that batch and grid only ("The input tensor cannot be reshaped to the
// requested shape. Input shape:{8,255,52,52}, requested shape:{1,3,85,52,52}"). Graph inference
// (package graph) states what such a Reshape needs of the model's symbols, with the node:
// N*((H+1)//2)*((W+1)//2) == 64. Find turns what it can prove into rewrites; WriteTo writes the
// fixed model; Verify proves the file written.
//
// # Which binding a constant came from
//
// A Reshape forces the symbols when its pattern has no -1: its volume must be the input's, an
// equation (N*255*H*W == 3*85*52*52) with many solutions. The export binding is the one where each
// baked value equals the input dims it stands for. Find aligns the pattern with its input as the
// view rule groups dims: static dims beside static values of equal product, a literal
// value beside one or more symbolic dims (a pair: the baked value, [N] beside [1], [(H+1)//2]
// beside [52]), a computed value beside dims whose product it is, the -1 beside any dims. The
// input's shape is taken where neither the Reshape's own condition nor one downstream of it
// applies (a probe infers the part of the graph upstream of it), since a condition that fixes a
// symbol (N == 1) would show the dim as the constant.
//
// The equations of the pairs (N == 1, (H+1)//2 == 52) must hold together with the model's other
// constraints and the equations of the rewrites before: a binding that satisfies them all is
// searched for (Fix.Binding), and without one the values are sizes of no run of the model. A
// pattern may align in several ways ([N,3] beside [1,1,3]: either 1 may be the batch; [N,H,W,8]
// beside [1,64,8]: 64 may be H*W, or W with N*H == 1): a literal value that can stand for input dims
// is read as standing for them rather than as a unit axis, and when ways remain that Options.Export
// (the export's values, when known) does not tell apart, the Reshape is left as it is, with the
// ways. A pattern with a -1 adapts to the volume: what it needs, that the other values divide the
// volume (B*L % 16 == 0), is the model's own structure (a window, a group) as often as a size of
// the export, and is left as it is.
//
// # The rewrite
//
// Each baked value becomes, in this order of preference: a 0, which copies the input dim at its
// index where the pair is that one dim and zeros copy (ONNX allowzero=0, the default); a -1 when
// the pattern has none (one per pattern); else the dims read from the input's shape,
// Shape → Gather (→ ReduceProd for several) → Concat, the subgraph exporters emit for dynamic
// code, with Constant nodes for the constant runs and a Gather of the old pattern for its computed
// values. The operators exist with this meaning at every opset from 5, where Reshape reads its
// pattern from an input; Reshape-1 (an attribute) and Reshapes in subgraphs are left as they are.
// New nodes go just before their Reshape, so that the graph stays sorted, with names no tensor or
// node of the model has; an old pattern constant that nothing reads any more (a Constant node, or
// an initializer that is not a graph input) is left out; a value_info or graph output that
// declares a static dim the fixed model no longer gives is written with the inferred dim (a
// dim_param of its expression). A Reshape downstream whose pattern copied, as a literal, a dim that
// the rewrites free (channel_shuffle's [1,-1,H,W] after the batch was fixed at 1) follows: its
// pairs' equations are implied by the export equations, and it is rewritten the same way, so that
// the fixed model gives [N,8,H,W], not [1,8*N,H,W].
//
// # The proof
//
// The fixed model is inferred again (Fix.After): a rewritten Reshape imposes no condition, and its
// old condition must not come back from another node (a rewrite that only moves it, as copying
// swin_window's 16 would move B*L % 16 == 0 to the window partition downstream, is undone and the
// Reshape left, with the node that would impose it). A rewrite that would multiply the batch into
// an axis a node downstream mixes across (check.FindAbsorbed: [8] for [N,H] becoming [-1] before a
// Softmax over that axis, where samples would mix at a batch above 1, as OpenVINO PR #37127's
// SwinIR does) is undone too. At Fix.Binding the model and the fixed model
// are inferred with the binding: their outputs have the same shapes, with no node error, and since
// a reshape moves no element the data is the same, element for element. Verify makes the same
// checks on the model as WriteTo wrote it, decoded again; bench/fix/verify.py runs both models in
// onnxruntime at every binding of the grids of testdata/grid and compares the outputs bit for bit
// (testdata/fix holds what it found, and TestVerified holds fix to it).
//
// # OpenVINO IR
//
// FindIR makes the same analysis, choices and proof on an IR network, whose Reshape-1 reads its
// pattern from an input, with the batch dim of each input exported static made the symbol N
// (graph.Graph.FreeBatch: an IR holds the batch of its export as a number, which a baked 1 ties
// to). A 0 copies under special_zero="true", which a rewrite sets on a Reshape whose pattern has
// no 0 (where it means the same); the dims read from the input's shape are ShapeOf-3 → Gather-8
// (→ ReduceProd-1) → Concat-1 with Const layers, in the pattern's element type. WriteTo writes the
// .xml with ir.WriteEdit (the Reshape's <data> and pattern edge edited, the old pattern's Const
// left out when nothing else reads it, the new layers and edges added: every other byte as it
// was), WriteWeights the .bin (the model's, streamed, with the new constants after it), and
// VerifyIR proves them as written.
//
// Fix.Remaining lists what the fixed model still needs that fix is for: a Reshape's condition, or
// one that fixes a symbol to one value (flat_matmul's N == 1, which its MatMul imposes: a rewrite
// of its [1,-1] would change what the model computes, not a baked size).
package fix
