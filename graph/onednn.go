package graph

import (
	"fmt"
	"slices"
	"strconv"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onednn"
)

// DomainOneDNN is the Domain of the nodes FromOneDNN builds: oneDNN Graph's operations, each at
// version 1 (StaticReshape-1, MatMul-1).
const DomainOneDNN = "onednn"

// FromOneDNN returns the graph of a oneDNN Graph, as benchdnn writes it in JSON:
//
//   - each op is a node, Nodes[i] of g.Ops[i]: Op is the op's kind as the file spells it
//     (SoftMax, or Softmax as the documentation does), Domain DomainOneDNN, Version 1, and its
//     attributes typed: s64 and bool (0 or 1) as AttrInt, s64[] as AttrInts, f32 as AttrFloat,
//     f32[] as AttrFloats, string as AttrString. The node's name is the op's, or NAME#ID when
//     another op of the graph has the same name (or none), so that paths name one op each;
//   - each logical tensor is named by its id in decimal ("4257"); those no op outputs are the
//     graph's inputs, in the order the ops first read them, each unknown dim of one
//     (-1 or DNNL_GRAPH_UNKNOWN_DIM) the symbol ltID:AXIS ("lt0:1"); the tensors that an op
//     outputs and no op but End reads are its outputs;
//   - a tensor's declaration (Graph.Declared, or its Input's) is the most precise of the shapes the
//     ops that name it declare (onednn.LogicalTensor.Declared), its element type the dtype of the
//     op that outputs it (of the first op that reads an input). Where two ops declare shapes no
//     tensor has both of, it is the declaration of the op that outputs the tensor; package check
//     reports the conflict.
//
// Errors wrap errcode.ErrSyntax and name the op: a tensor two ops output, an attribute whose
// value is not of its type, a negative dim other than oneDNN's unknown ones. An integer beyond
// int64 in an attribute wraps errcode.ErrOverflow.
func FromOneDNN(dg *onednn.Graph) (*Graph, error) {
	lts, err := dg.LogicalTensors()
	if err != nil {
		return nil, err
	}
	g := &Graph{Nodes: make([]Node, len(dg.Ops)), Consts: map[string]*Const{}, Declared: make(map[string]Decl, len(lts))}
	names := map[string]int{}
	for i := range dg.Ops {
		names[dg.Ops[i].Name]++
	}
	for i := range dg.Ops {
		op := &dg.Ops[i]
		n := &g.Nodes[i]
		n.Name, n.Op, n.Domain, n.Version = op.Name, op.Kind, DomainOneDNN, 1
		if op.Name == "" || names[op.Name] > 1 {
			n.Name = op.Name + "#" + strconv.FormatInt(op.ID, 10)
		}
		n.Inputs = make([]string, len(op.Inputs))
		for k := range op.Inputs {
			n.Inputs[k] = OneDNNTensor(op.Inputs[k].ID)
		}
		n.Outputs = make([]string, len(op.Outputs))
		for k := range op.Outputs {
			n.Outputs[k] = OneDNNTensor(op.Outputs[k].ID)
		}
		if n.Attrs, err = oneDNNAttrs(op); err != nil {
			return nil, err
		}
	}
	ended := map[int64]bool{} // tensors an op other than End reads
	for i := range dg.Ops {
		if dg.Ops[i].Kind != "End" {
			for _, t := range dg.Ops[i].Inputs {
				ended[t.ID] = true
			}
		}
	}
	for i := range lts {
		t := &lts[i]
		s, _, err := t.Declared()
		if err != nil {
			return nil, errcode.Errorf(errcode.ErrSyntax, "%v: %v", t.Uses[0].Op, err)
		}
		dtype, _ := element.Parse(t.Uses[0].Tensor.DType)
		d := shapeDecl(s, dtype)
		name := OneDNNTensor(t.ID)
		if !t.Produced() {
			for k := range d.Dims {
				if d.Dims[k].Lo != d.Dims[k].Hi {
					d.Dims[k].Name = "lt" + name + ":" + strconv.Itoa(k)
				}
			}
			g.Inputs = append(g.Inputs, Input{Name: name, Decl: d})
			continue
		}
		g.Declared[name] = d
		if !ended[t.ID] {
			g.Outputs = append(g.Outputs, name)
		}
	}
	return g, nil
}

// OneDNNTensor returns the name of the logical tensor id in a graph FromOneDNN builds: the id in
// decimal.
func OneDNNTensor(id int64) string { return strconv.FormatInt(id, 10) }

// oneDNNAttrs returns the attributes of op as a node holds them, in the order of their names.
func oneDNNAttrs(op *onednn.Op) ([]Attr, error) {
	keys := make([]string, 0, len(op.Attrs))
	for k := range op.Attrs {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	attrs := make([]Attr, len(keys))
	for i, k := range keys {
		a := op.Attrs[k]
		out := &attrs[i]
		out.Name = k
		var err error
		switch a.Type {
		case "s64":
			out.Kind = AttrInt
			out.Int, err = a.Int()
		case "bool":
			var b bool
			b, err = a.Bool()
			out.Kind = AttrInt
			if b {
				out.Int = 1
			}
		case "s64[]":
			out.Kind = AttrInts
			out.Ints, err = a.Ints()
		case "f32":
			out.Kind = AttrFloat
			out.Float, err = a.Float()
		case "f32[]":
			out.Kind = AttrFloats
			out.Floats, err = a.Floats()
		case "string":
			out.Kind = AttrString
			out.String, err = a.Text()
		default:
			out.Kind = AttrOther
		}
		if err != nil {
			return nil, fmt.Errorf("%v: %s: %w", op, k, err)
		}
	}
	return attrs, nil
}
