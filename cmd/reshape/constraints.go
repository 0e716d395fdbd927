package main

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/reshape-go/reshape/check"
)

// allowFixedHelp is the help of --allow-fixed-dims, which check and shapes share.
const allowFixedHelp = `  --allow-fixed-dims   exit 0 on a constraint that fixes a dim the model declares dynamic
                       (N == 1: the model runs at one batch size only), which is exit status 1
                       without it`

// conditions is what a model needs of its symbols to run, as check and shapes print it.
type conditions struct {
	who         string // what starts the first line: "FILE " for check, "" for shapes
	symbols     []string
	constraints []check.Constraint
	valid       check.Validity
	unsupported map[string]int // nodes without a shape rule, whose conditions are not known
}

// print prints the conditions before the summary: the section "runs only when:" with a line per
// constraint (the predicate, the node, its operator and why, and the symbols it fixes), or "runs
// at every binding of N, H, W" when there are none, symbols are left free and nothing failed.
// Nodes without a shape rule are named, since what they need is not known. With quiet, only a
// section with a constraint that fixes a dim is printed, unless allowFixed.
func (c *conditions) print(w io.Writer, quiet, allowFixed bool) {
	fixes := slices.ContainsFunc(c.constraints, func(c check.Constraint) bool { return len(c.Fixes) > 0 })
	rules := ""
	if len(c.unsupported) > 0 {
		rules = "what the nodes without a shape rule need: " + opCounts(c.unsupported)
	}
	switch {
	case len(c.constraints) == 0 && !quiet && c.valid == check.ValidAlways && len(c.symbols) > 0:
		if rules != "" {
			fmt.Fprintf(w, "%sruns at every binding of %s, but for %s\n", c.who, strings.Join(c.symbols, ", "), rules)
		} else {
			fmt.Fprintf(w, "%sruns at every binding of %s\n", c.who, strings.Join(c.symbols, ", "))
		}
		return
	case len(c.constraints) == 0, quiet && (!fixes || allowFixed):
		return
	}
	if rules != "" {
		fmt.Fprintf(w, "%sruns only when (besides %s):\n", c.who, rules)
	} else {
		fmt.Fprintf(w, "%sruns only when:\n", c.who)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range c.constraints {
		where := c.Node + " (" + c.Op + ")"
		if c.Why != "" {
			where += ": " + c.Why
		}
		if len(c.Fixes) > 0 {
			where += "; fixes " + strings.Join(c.Fixes, ", ")
		}
		fmt.Fprintf(tw, "  %s\t%s\n", c.Holds, where)
	}
	tw.Flush()
}

// opCounts lists operators with their counts, in order: "Conv (3), LSTM (1)".
func opCounts(counts map[string]int) string {
	ops := slices.Sorted(maps.Keys(counts))
	for i, op := range ops {
		ops[i] = fmt.Sprintf("%s (%d)", op, counts[op])
	}
	return strings.Join(ops, ", ")
}

// constraintsNote is the summary's part on constraints: "; 3 constraints, of which 1 fixes a
// dim", "" for none.
func constraintsNote(n, fixed int) string {
	if n == 0 {
		return ""
	}
	note := "; " + plural(n, "constraint")
	switch {
	case fixed == 1:
		note += ", of which 1 fixes a dim"
	case fixed > 1:
		note += fmt.Sprintf(", of which %d fix a dim", fixed)
	}
	return note
}

// fixedCount returns the number of constraints that fix a symbol.
func fixedCount(cs []check.Constraint) int {
	n := 0
	for _, c := range cs {
		if len(c.Fixes) > 0 {
			n++
		}
	}
	return n
}
