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
const allowFixedHelp = `  --allow-fixed-dims   exit 0 on a constraint that fixes a dim the model
                       declares dynamic (N == 1: the model runs at one batch
                       size only), which is exit status 1 without it`

// conditions is what a model needs of its symbols to run, as check and shapes print it.
type conditions struct {
	who     string // what starts the first line: "FILE " for check, "" for shapes
	symbols []string
	check.Conditions
	valid check.Validity
	// complete says whether the conditions are all the model needs; lost where inference lost
	// precision when they may not be (check.Report.Complete, Lost).
	complete bool
	lost     []check.Loss
	// names writes the sizes computed in floating point by their names, each defined before the
	// section that first uses it (floatNames); nil writes them whole.
	names *floatNames
}

// print prints the conditions before the summary: the section "runs only when:" with a line per
// constraint (the predicate, the node, its operator and why, the other nodes that impose it, the
// symbols it fixes, and the OpenVINO blocker that causes it), the limits in the same columns under
// "and, at sizes of 2^31 or more, only when:" (printConditions), then "valid sizes:" with what
// they leave each symbol and the smallest binding that runs; or "runs at every binding of N, H, W"
// when there are neither constraints nor limits, symbols are left free and nothing failed
// ("states no condition on N, H, W" when they may be incomplete). When a node fails at every
// binding (valid ValidNever), "runs at no binding of N, H, W" instead of "runs only when", each
// symbol's sizes "none" and no binding that runs. Then, when they may be incomplete, the places
// where precision is lost and the sizes only a run decides (printLost), and a line "warning: ..."
// per warning (check.Warning). With quiet, only the sections of conditions that fix a dim are
// printed, unless allowFixed.
func (c *conditions) print(w io.Writer, quiet, allowFixed bool) {
	c.printConditions(w, quiet, allowFixed)
	if !quiet {
		printLost(w, c.who, c.lost, c.names)
		for _, x := range c.Warnings {
			line := c.names.rename(x.String())
			c.names.flush(w)
			fmt.Fprintf(w, "%swarning: %s\n", c.who, line)
		}
	}
}

// printConditions prints the sections of print before what makes them incomplete. The limits
// (check.Conditions.Limits) follow the constraints under their own heading, "and, at sizes of
// 2^31 or more, only when:", in the same columns; of a model that states only limits, "runs at
// every binding of N, H below 2^31, and at sizes of 2^31 or more only when:".
func (c *conditions) printConditions(w io.Writer, quiet, allowFixed bool) {
	fixes := len(c.Fixes) > 0 || slices.ContainsFunc(c.Constraints, func(c check.Constraint) bool { return len(c.Fixes) > 0 })
	none := !c.Stated()
	switch {
	case none && !quiet && c.valid == check.ValidAlways && len(c.symbols) > 0:
		if c.complete {
			fmt.Fprintf(w, "%sruns at every binding of %s\n", c.who, strings.Join(c.symbols, ", "))
		} else {
			fmt.Fprintf(w, "%sstates no condition on %s\n", c.who, strings.Join(c.symbols, ", "))
		}
		return
	case none && !quiet && c.valid == check.ValidNever && len(c.symbols) > 0:
		fmt.Fprintf(w, "%sruns at no binding of %s: a node above fails at every one\n", c.who, strings.Join(c.symbols, ", "))
		return
	case none, quiet && (!fixes || allowFixed):
		return
	}
	lines, limits := c.rows(c.Constraints), c.rows(c.Limits)
	c.names.flush(w)
	switch {
	case c.valid == check.ValidNever:
		fmt.Fprintf(w, "%sruns at no binding of %s: a node above fails at every one; the other nodes need:\n", c.who, strings.Join(c.symbols, ", "))
	case len(lines) > 0:
		fmt.Fprintf(w, "%sruns only when:\n", c.who)
	}
	printColumns(w, lines)
	if len(limits) > 0 {
		if len(lines) > 0 || c.valid == check.ValidNever {
			fmt.Fprintf(w, "%sand, at sizes of 2^31 or more, only when:\n", c.who)
		} else {
			fmt.Fprintf(w, "%sruns at every binding of %s below 2^31, and at sizes of 2^31 or more only when:\n", c.who, strings.Join(c.symbols, ", "))
		}
		printColumns(w, limits)
	}
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

// rows returns a line per constraint of cs, with the sizes computed in floating point by their
// names (floatNames): the predicate, and the node, its operator and why, the other nodes that
// impose it, the symbols it fixes, and the OpenVINO blocker that causes it.
func (c *conditions) rows(cs []check.Constraint) [][2]string {
	lines := make([][2]string, len(cs))
	for i, x := range cs {
		where := x.Node + " (" + x.Op + ")"
		if x.Why != "" {
			where += ": " + x.Why
		}
		if len(x.Nodes) > 1 {
			where += "; also " + strings.Join(x.Nodes[1:], ", ")
		}
		if len(x.Fixes) > 0 {
			where += "; fixes " + strings.Join(x.Fixes, ", ")
		}
		if x.Blocker != "" {
			where += "; blocker " + x.Blocker
			if x.BlockerNode != "" {
				where += " at " + x.BlockerNode
			}
		}
		lines[i] = [2]string{c.names.rename(x.Holds.String()), c.names.rename(where)}
	}
	return lines
}

// printColumns prints lines in two aligned columns, each indented by two spaces.
func printColumns(w io.Writer, lines [][2]string) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	for _, l := range lines {
		fmt.Fprintf(tw, "  %s\t%s\n", l[0], l[1])
	}
	tw.Flush()
}

// printLost prints what makes a model's conditions incomplete, after them: "these conditions may
// be incomplete:", then "precision is lost at" and a line per loss ("NODE (OP): WHY"), and "sizes
// that only a run decides, at" and a line per such size; at most maxLost lines of each, then how
// many more (JSON lists them all); one line for one loss of precision. Nothing when lost is empty.
func printLost(w io.Writer, who string, lost []check.Loss, names *floatNames) {
	texts := make([]string, len(lost))
	for i, l := range lost {
		texts[i] = names.rename(l.String())
	}
	names.flush(w)
	switch {
	case len(lost) == 0:
		return
	case len(lost) == 1 && !lost[0].RunTime:
		fmt.Fprintf(w, "%sthese conditions may be incomplete: precision is lost at %s\n", who, texts[0])
		return
	}
	fmt.Fprintf(w, "%sthese conditions may be incomplete:\n", who)
	for _, runTime := range []bool{false, true} {
		head := "precision is lost at"
		if runTime {
			head = "sizes that only a run decides, at"
		}
		n := 0
		for i, l := range lost {
			if l.RunTime != runTime {
				continue
			}
			switch n++; {
			case n == 1:
				fmt.Fprintf(w, "  %s\n", head)
				fallthrough
			case n <= maxLost:
				fmt.Fprintf(w, "    %s\n", texts[i])
			}
		}
		if n > maxLost {
			fmt.Fprintf(w, "    ... and %d more\n", n-maxLost)
		}
	}
}

// maxLost bounds the losses of each kind printLost lists.
const maxLost = 8

// opCounts lists operators with their counts, in order: "Conv (3), LSTM (1)".
func opCounts(counts map[string]int) string {
	ops := slices.Sorted(maps.Keys(counts))
	for i, op := range ops {
		ops[i] = fmt.Sprintf("%s (%d)", op, counts[op])
	}
	return strings.Join(ops, ", ")
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
