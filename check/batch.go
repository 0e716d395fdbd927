package check

import (
	"github.com/reshape-go/reshape/graph"
)

// BatchSymbol is the symbol a batch study (BatchStudy) gives the batch of an IR network exported
// at a static one, as graph.Graph.FreeBatch names it.
const BatchSymbol = "N"

// BatchStudy answers "can this IR network run at batch N?" before OpenVINO's model.reshape or
// set_batch is tried: the network inferred again with the static batch dim of each Parameter that
// has one (graph.Input.BatchAxis: the dim the layout marks N, else the leading dim, the dim
// set_batch changes) the one symbol BatchSymbol, every other dim as declared. Its conditions are
// apart from the model's own (Report.Conditions, those of the shapes it declares): a network that
// runs as declared and cannot change its batch is not a failing model (check's exit status does not
// count them; --batch-size asks for a batch).
type BatchStudy struct {
	// Symbol is the batch's symbol, BatchSymbol; Inputs names the Parameters whose batch dim it
	// stands for, in the model's order.
	Symbol string
	Inputs []string
	// Symbols lists the symbols the study leaves free: the batch's, and the network's own.
	Symbols []string
	// Conditions are what the network needs of the batch (and of its other symbols) to run, each
	// constraint with the blocker that causes it where it is one of OpenVINO's known ones
	// (Constraint.Blocker).
	Conditions
	// Failed lists the nodes that fail at every batch although they run as declared ("NODE (OP):
	// message"): Valid is then ValidNever.
	Failed []string
	// Complete reports whether the conditions are all the network needs of the batch; Lost lists
	// where inference lost precision when it is not.
	Complete bool
	Lost     []Loss
}

// Valid says at which batches the network runs: ValidNever when a node fails at every batch,
// ValidWhen when the study states constraints (N == 1: only at its own), else ValidAlways.
func (b *BatchStudy) Valid() Validity {
	return validity(len(b.Failed) > 0, b.Stated())
}

// batchStudy returns the study of the IR network g inferred as res with the batch of the inputs
// freed the symbol BatchSymbol (freeBatch); declared is the result of inference as declared,
// whose failed nodes are not the batch's.
func batchStudy(g *graph.Graph, declared, res *graph.Result, freed []string, file string) *BatchStudy {
	b := &BatchStudy{Symbol: BatchSymbol, Inputs: freed, Symbols: res.Table().Names(), Conditions: conditionsOf(res, file),
		Complete: res.Complete(), Lost: lossesOf(res, file)}
	for i := range res.Nodes {
		r := &res.Nodes[i]
		if r.Err == nil || r.Avoidable {
			continue
		}
		if k, ok := declared.NodeIndex(r.Path); ok && declared.Nodes[k].Err != nil {
			continue
		}
		b.Failed = append(b.Failed, r.Err.Error()) // the error names the node
	}
	nameBlockers(g, res, b.Constraints)
	return b
}
