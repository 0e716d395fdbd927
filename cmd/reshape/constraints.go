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
	who     string // what starts the first line: "FILE " for check, "" for shapes
	symbols []string
	check.Conditions
	valid       check.Validity
	unsupported map[string]int // nodes without a shape rule, whose conditions are not known
}

// print prints the conditions before the summary: the section "runs only when:" with a line per
// constraint (the predicate, the node, its operator and why, the other nodes that impose it, and
// the symbols it fixes), then "valid sizes:" with what they leave each symbol and the smallest
// binding that runs; or "runs at every binding of N, H, W" when there are none, symbols are left
// free and nothing failed. Nodes without a shape rule are named, since what they need is not
// known. With quiet, only the sections of conditions that fix a dim are printed, unless
// allowFixed.
func (c *conditions) print(w io.Writer, quiet, allowFixed bool) {
	fixes := len(c.Fixes) > 0 || slices.ContainsFunc(c.Constraints, func(c check.Constraint) bool { return len(c.Fixes) > 0 })
	rules := ""
	if len(c.unsupported) > 0 {
		rules = "what the nodes without a shape rule need: " + opCounts(c.unsupported)
	}
	switch {
	case len(c.Constraints) == 0 && !quiet && c.valid == check.ValidAlways && len(c.symbols) > 0:
		if rules != "" {
			fmt.Fprintf(w, "%sruns at every binding of %s, but for %s\n", c.who, strings.Join(c.symbols, ", "), rules)
		} else {
			fmt.Fprintf(w, "%sruns at every binding of %s\n", c.who, strings.Join(c.symbols, ", "))
		}
		return
	case len(c.Constraints) == 0, quiet && (!fixes || allowFixed):
		return
	}
	if rules != "" {
		fmt.Fprintf(w, "%sruns only when (besides %s):\n", c.who, rules)
	} else {
		fmt.Fprintf(w, "%sruns only when:\n", c.who)
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, c := range c.Constraints {
		where := c.Node + " (" + c.Op + ")"
		if c.Why != "" {
			where += ": " + c.Why
		}
		if len(c.Nodes) > 1 {
			where += "; also " + strings.Join(c.Nodes[1:], ", ")
		}
		if len(c.Fixes) > 0 {
			where += "; fixes " + strings.Join(c.Fixes, ", ")
		}
		fmt.Fprintf(tw, "  %s\t%s\n", c.Holds, where)
	}
	tw.Flush()
	if len(c.Sizes.Symbols) == 0 {
		return
	}
	fmt.Fprintf(w, "%svalid sizes:\n", c.who)
	for _, line := range c.Sizes.Lines() {
		fmt.Fprintf(w, "  %s\n", line)
	}
	if len(c.Sizes.Smallest) > 0 {
		var parts []string
		for _, name := range c.symbols {
			if v, ok := c.Sizes.Smallest[name]; ok {
				parts = append(parts, fmt.Sprintf("%s=%d", name, v))
			}
		}
		fmt.Fprintf(w, "  smallest binding that runs: %s\n", strings.Join(parts, ", "))
	}
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
// dim", "; 2 constraints, which fix B, T" (the symbols they leave one value together), "" for
// none.
func constraintsNote(n, fixed int, fixes []string) string {
	if n == 0 {
		return ""
	}
	note := "; " + plural(n, "constraint")
	switch {
	case len(fixes) > 0 && n == 1:
		note += ", which fixes " + strings.Join(fixes, ", ")
	case len(fixes) > 0:
		note += ", which fix " + strings.Join(fixes, ", ")
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
