package report

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/reshape-go/reshape/check"
)

// maxVerdictConditions is the number of conditions the verdict sentence names; past it, it counts
// the rest.
const maxVerdictConditions = 3

// verdict says in one sentence where the model runs: "runs at every binding of N, H, W" ("states
// no condition on N, H, W" where the conditions may be incomplete), "runs only when N == 1 and
// H % 32 == 0", each with " at sizes below 2^31 (1 limit past them)" where the model has limits
// (limitsNote), "does not run: /MatMul (MatMul) fails: invalid-shape", with the declarations that
// disagree and, where the conditions may be incomplete, where precision is lost (Lost).
func (m *Model) verdict() Verdict {
	var v Verdict
	var symbols []string
	for _, s := range m.Symbols {
		symbols = append(symbols, s.Name)
	}
	if len(symbols) == 0 {
		for _, c := range m.Conditions {
			symbols = append(symbols, c.Holds.SymbolNames()...)
		}
	}
	failed := slices.IndexFunc(m.Rows, func(r check.Row) bool { return r.Verdict.IsError() })
	switch {
	case failed >= 0:
		r := m.Rows[failed]
		v = Verdict{fmt.Sprintf("%s does not run: %s (%s) fails with %s", m.Name, r.Name, r.Op, r.Verdict), "never"}
		if n := m.Summary.Error; n > 1 {
			v.Text += fmt.Sprintf(", and %d other nodes fail", n-1)
		}
	case len(m.Conditions) > 0:
		var parts []string
		for _, c := range m.Conditions[:min(len(m.Conditions), maxVerdictConditions)] {
			p := c.Holds.String()
			if strings.Contains(p, "||") {
				p = "(" + p + ")"
			}
			parts = append(parts, p)
		}
		v = Verdict{fmt.Sprintf("%s runs only when %s", m.Name, strings.Join(parts, " and ")), "when"}
		if n := len(m.Conditions) - maxVerdictConditions; n > 0 {
			v.Text += fmt.Sprintf(", and %d more %s", n, plural(n, "condition", "conditions"))
		}
		if fixed := m.Summary.Fixes; len(fixed) > 0 { // by the conditions together (check's "fixes")
			v.Text += "; that fixes " + strings.Join(fixed, ", ") + " to one value"
		}
		v.Text += m.limitsNote()
	case len(symbols) > 0 && len(m.Lost) > 0:
		// No condition stated, but some may be missing: check's words, and no green verdict.
		v = Verdict{fmt.Sprintf("%s states no condition on %s", m.Name, strings.Join(symbols, ", ")), "when"}
	case len(symbols) > 0:
		v = Verdict{fmt.Sprintf("%s runs at every binding of %s", m.Name, strings.Join(symbols, ", ")) + m.limitsNote(), "runs"}
	default:
		v = Verdict{m.Name + " runs: every shape is static", "runs"}
	}
	if n := m.Summary.Mismatch; n > 0 && v.Kind != "never" {
		v.Kind = "disagrees"
		v.Text += fmt.Sprintf("; %d declared %s with the rules", n, plural(n, "shape disagrees", "shapes disagree"))
	}
	if len(m.Lost) > 0 {
		v.Text += "; the conditions may be incomplete: " + lostText(m.Lost)
	}
	return v
}

// lostText says where precision is lost, in a few words: the operators without a shape rule, with
// their counts ("no shape rule for Foo (2)"), the first other node ("precision is lost at
// If_3 (If)", with the count of the others), and apart, as check counts them, the sizes only a run
// decides ("2 sizes only a run decides").
func lostText(lost []check.Loss) string {
	unsupported := map[string]int{}
	var others []check.Loss
	runTime := 0
	for _, l := range lost {
		if op, ok := strings.CutPrefix(l.Why, "no shape rule for "); ok {
			unsupported[op]++
		} else if l.RunTime {
			runTime++
		} else {
			others = append(others, l)
		}
	}
	var parts []string
	if len(unsupported) > 0 {
		var ops []string
		for _, op := range slices.Sorted(maps.Keys(unsupported)) {
			ops = append(ops, fmt.Sprintf("%s (%d)", op, unsupported[op]))
		}
		parts = append(parts, "no shape rule for "+strings.Join(ops, ", "))
	}
	if len(others) > 0 {
		p := "precision is lost at " + others[0].Node + " (" + others[0].Op + ")"
		if n := len(others) - 1; n > 0 {
			p += fmt.Sprintf(" and %d other %s", n, plural(n, "node", "nodes"))
		}
		parts = append(parts, p)
	}
	if runTime > 0 {
		parts = append(parts, fmt.Sprintf("%d %s only a run decides", runTime, plural(runTime, "size", "sizes")))
	}
	return strings.Join(parts, "; ")
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// limitsNote is what the verdict says of the model's limits (Limits): " at sizes below 2^31 (1
// limit past them)", "" for none.
func (m *Model) limitsNote() string {
	n := len(m.Limits)
	if n == 0 {
		return ""
	}
	return fmt.Sprintf(" at sizes below 2^31 (%d %s past them)", n, plural(n, "limit", "limits"))
}
