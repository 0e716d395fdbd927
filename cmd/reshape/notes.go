package main

import (
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/check"
)

// note says that a flag that binds (--dim, --input, --batch-size) does less in a model than it
// asks, or what a runtime refuses, or that an IR network was read without the weights --bin names:
// a flag never does nothing in silence. In check --json it is a
// record {"record":"note", file, flag, name, message}; in shapes --json, the summary's notes.
type note struct {
	Record  string `json:"record,omitempty"` // "note" in check --json
	File    string `json:"file,omitempty"`
	Flag    string `json:"flag"`
	Name    string `json:"name,omitempty"` // the dim's or the input's name
	Message string `json:"message"`
}

// bindingNotes returns the notes of the bindings b of one model, whose free symbols are symbols,
// that --batch-size batch set; and of an IR network read without its .bin.
func bindingNotes(b check.Bindings, symbols []string, batch int64) []note {
	var notes []note
	if b.NoWeights {
		notes = append(notes, note{Flag: "--bin", Message: "read without its .bin (none beside the .xml): the values of its constants " +
			"are unknown, and so is every shape and pattern they decide; --bin names the weights"})
	}
	for _, name := range b.UnusedDims {
		notes = append(notes, note{Flag: "--dim", Name: name, Message: fmt.Sprintf("--dim %s binds nothing: the model has no dim of that name (symbols left free: %s)",
			name, strings.Join(orNone(symbols), ", "))})
	}
	for _, name := range b.UnusedInputs {
		notes = append(notes, note{Flag: "--input", Name: name, Message: fmt.Sprintf("--input %s binds nothing: the model has no input of that name", name)})
	}
	if len(b.NoBatch) > 0 {
		notes = append(notes, note{Flag: "--batch-size", Message: fmt.Sprintf("--batch-size %d leaves %s as declared: no batch dim "+
			"(a scalar, an unknown rank, or a static leading dim the model does not mark as its batch)", batch, strings.Join(b.NoBatch, ", "))})
	}
	for _, o := range b.Overrides {
		what := fmt.Sprintf("gives %s the rank %d, where the model declares %s", o.Input, strings.Count(o.Given, ",")+1, o.Declared)
		refusal := "Invalid rank for input"
		if len(o.Axes) > 0 {
			axes := make([]string, len(o.Axes))
			for i, a := range o.Axes {
				axes[i] = strconv.Itoa(a)
			}
			dims := "dim " + axes[0]
			if len(axes) > 1 {
				dims = "dims " + strings.Join(axes, ", ")
			}
			what = fmt.Sprintf("changes the static %s of %s, which the model declares %s", dims, o.Input, o.Declared)
			refusal = "Got invalid dimensions for input"
		}
		notes = append(notes, note{Flag: "--input", Name: o.Input, Message: fmt.Sprintf("--input %s=%s %s: onnxruntime refuses such an input (%q), "+
			"where OpenVINO's reshape accepts it and infers the model again, as here", o.Input, o.Given, what, refusal)})
	}
	return notes
}

// orNone returns names, or "none" when there are none.
func orNone(names []string) []string {
	if len(names) == 0 {
		return []string{"none"}
	}
	return names
}

// printNotes prints the notes as lines "PREFIXnote: MESSAGE".
func printNotes(w io.Writer, prefix string, notes []note) {
	for _, n := range notes {
		fmt.Fprintf(w, "%snote: %s\n", prefix, n.Message)
	}
}
