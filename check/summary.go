package check

import (
	"fmt"
	"maps"
	"slices"
	"strings"
)

// Summary counts rows by verdict, and the rows run on constant data by their Run verdict, and
// gathers the models' constraints. Files counts the model files read; Unreadable, which Summarize
// leaves at 0, those that could not be.
type Summary struct {
	Total int `json:"reshapes"` // Reshape rows
	Nodes int `json:"nodes"`    // rows of other nodes, whose inputs break their rule (not Avoidable)
	// Declared counts the rows of other nodes' declared outputs that the rules do not give
	// (Row.Tensor); left out of JSON when 0.
	Declared int `json:"declared,omitempty"`
	// The verdicts of every row: OK, Mismatch, Inferred, and errors of any code, also counted by
	// code in Codes.
	OK       int            `json:"ok"`
	Mismatch int            `json:"mismatch"`
	Inferred int            `json:"inferred"`
	Error    int            `json:"error"`
	Codes    map[string]int `json:"codes,omitempty"`
	// Unknown counts the rows downstream of a node whose inputs break its rule, not inferred;
	// Stale the rows whose declaration is the shape for input shapes the bindings changed.
	Unknown int `json:"unknown"`
	Stale   int `json:"stale"`
	// Avoidable counts the rows of nodes that break their rule in a branch of an If whose other
	// branch runs (the verdict Avoidable): not errors of the model. Left out of JSON when 0.
	Avoidable int `json:"avoidable,omitempty"`

	Run   int `json:"run"`    // rows run on constant data
	RunOK int `json:"run_ok"` // of which OK

	// Stopped counts, by operator, the rows that a node without a shape rule (or whose inputs broke
	// its rule) leaves with an undetermined dim.
	Stopped map[string]int `json:"stopped_by,omitempty"`

	// Constraints lists the constraints of every model (Report.Constraints), in the order of the
	// files: a JSON array, empty when none imposes any. Implied lists the conditions they imply
	// (Report.Implied), By indexing Constraints and ByLimits Limits; left out of JSON when none.
	// Valid is "never" when some model runs at no binding of its symbols (an error row), "when
	// constraints hold" when some model states constraints or limits, "unknown" when a file could
	// not be read (Unread), else "always" (Report.Valid). Fixed counts the constraints that force
	// a symbol to one value (Constraint.Fixes), and Fixes names the symbols the constraints of a
	// model leave one value together (Report.Fixes).
	Constraints []Constraint `json:"constraints"`
	// Limits lists the limits of every model (Report.Limits), in the order of the files: a JSON
	// array, empty when none has any. They are constraints as those are: Valid, Complete and the
	// exit status read both lists.
	Limits  []Constraint `json:"limits"`
	Implied []Implied    `json:"implied,omitempty"`
	Valid   Validity     `json:"valid"`
	Fixed   int          `json:"fixed"`
	Fixes   []string     `json:"fixes,omitempty"`
	// Sizes holds, by symbol, the values each symbol of a model that states constraints may take
	// (Report.Sizes; a symbol of a second file of the same name as FILE:SYMBOL), and Smallest, by
	// symbol, the smallest binding at which a model's constraints hold.
	Sizes    map[string]Size  `json:"sizes,omitempty"`
	Smallest map[string]int64 `json:"smallest,omitempty"`
	// Absorbed counts the Reshapes of every model that absorb the batch into a mixed axis
	// (Report.Absorbed); left out of JSON when 0.
	Absorbed int `json:"absorbed,omitempty"`
	// Complete reports whether the constraints are all every model needs (Report.Complete): a
	// promise that at every binding that satisfies them each model runs and every OK row holds.
	// Lost lists where inference lost precision in each model that is not (Report.Lost), a JSON
	// array, empty when none; Incomplete counts those models.
	Complete   bool   `json:"complete"`
	Lost       []Loss `json:"lost"`
	Incomplete int    `json:"incomplete"`
	// Warnings lists the warnings of every model (Conditions.Warnings), in the order of the files:
	// a JSON array, empty when none has any. They change neither Valid nor the exit status.
	Warnings []Warning `json:"warnings"`

	Files      int `json:"files"`
	Unreadable int `json:"unreadable"`
	// Skipped counts the files of a directory that have a model's extension but are not models
	// (ModelFiles); Summarize leaves it at 0.
	Skipped int `json:"skipped"`
}

// Unread counts n files that could not be read: Unreadable, and Valid ValidUnknown unless a model
// read runs at no binding (ValidNever), so that a script that reads Valid accepts no file it
// could not read.
func (s *Summary) Unread(n int) {
	s.Unreadable += n
	if s.Unreadable > 0 && s.Valid != ValidNever {
		s.Valid = ValidUnknown
	}
}

// Summarize counts the verdicts of the reports' rows, and gathers their constraints.
func Summarize(reports []*Report) Summary {
	s := Summary{Files: len(reports), Constraints: []Constraint{}, Limits: []Constraint{}, Valid: ValidAlways, Complete: true, Lost: []Loss{}, Warnings: []Warning{}}
	for _, rep := range reports {
		s.addConditions(rep.File, rep.Conditions)
		if !rep.Complete {
			s.Complete = false
			s.Incomplete++
			s.Lost = append(s.Lost, rep.Lost...)
		}
		for _, c := range rep.Constraints {
			if len(c.Fixes) > 0 {
				s.Fixed++
			}
		}
		s.Absorbed += len(rep.Absorbed)
		switch v := rep.Valid(); {
		case v == ValidNever, v == ValidWhen && s.Valid == ValidAlways:
			s.Valid = v
		}
		s.count(rep.Rows)
	}
	return s
}

// count counts the rows' verdicts.
func (s *Summary) count(rows []Row) {
	for _, r := range rows {
		switch {
		case r.Tensor != "":
			s.Declared++
		case strings.HasPrefix(r.Op, "Reshape") || r.Op == "StaticReshape" || r.Op == "DynamicReshape":
			s.Total++
		case r.Verdict != Avoidable: // a node a run avoids does not fail
			s.Nodes++
		}
		switch r.Verdict {
		case OK:
			s.OK++
		case Mismatch:
			s.Mismatch++
		case Inferred:
			s.Inferred++
		case Unknown:
			s.Unknown++
		case Stale:
			s.Stale++
		case Avoidable:
			s.Avoidable++
		default:
			s.Error++
			if s.Codes == nil {
				s.Codes = map[string]int{}
			}
			s.Codes[string(r.Verdict)]++
		}
		if r.Run != "" {
			s.Run++
			if r.Run == OK {
				s.RunOK++
			}
		}
		for _, op := range r.Stopped {
			if s.Stopped == nil {
				s.Stopped = map[string]int{}
			}
			op, _, _ = strings.Cut(op, " ")
			s.Stopped[op]++
		}
	}
}

// AllOK reports whether every row is OK or Inferred (nothing declared to compare with), every run
// on constant data is OK, and every file was read. Constraints, even those that fix a symbol, do
// not count: Fixed says how many fix one.
func (s Summary) AllOK() bool {
	return s.Mismatch == 0 && s.Error == 0 && s.RunOK == s.Run && s.Unreadable == 0
}

// String returns "N reshapes in F files: A ok, B mismatch, C inferred, D error" (" and K failing
// nodes", " and K declared outputs" when there are such rows; " in F files" when Files or
// Unreadable is set), followed by the count of each error code, ", U unknown" when some rows are
// downstream of an error, ", S stale" when some declarations are of old inputs, ", A avoidable"
// when some errors are in If branches a run avoids, the conditions the models state
// (ConditionsNote: "; C constraints, of which X fix a dim; L limits"), "; the conditions may be
// incomplete: ..." when some model's may be (incompleteNote), "; R run on constant data: K ok"
// when some were run, the operators that leave dims undetermined, "; U files could not be read"
// when some could not, and "; K files skipped: not models".
func (s Summary) String() string {
	text := plural(s.Total, "reshape")
	if s.Nodes > 0 {
		text += " and " + plural(s.Nodes, "failing node")
	}
	if s.Declared > 0 {
		text += " and " + plural(s.Declared, "declared output")
	}
	if s.Files > 0 || s.Unreadable > 0 {
		text += " in " + plural(s.Files, "file")
	}
	text += fmt.Sprintf(": %d ok, %d mismatch, %d inferred, %d error", s.OK, s.Mismatch, s.Inferred, s.Error)
	if len(s.Codes) > 0 {
		codes := slices.Sorted(maps.Keys(s.Codes))
		for i, c := range codes {
			codes[i] = fmt.Sprintf("%d %s", s.Codes[c], c)
		}
		text += " (" + strings.Join(codes, ", ") + ")"
	}
	if s.Unknown > 0 {
		text += fmt.Sprintf(", %d unknown", s.Unknown)
	}
	if s.Stale > 0 {
		text += fmt.Sprintf(", %d stale", s.Stale)
	}
	if s.Avoidable > 0 {
		text += fmt.Sprintf(", %d avoidable", s.Avoidable)
	}
	text += ConditionsNote(len(s.Constraints), len(s.Limits), s.Fixed, s.Fixes)
	text += s.incompleteNote()
	if s.Run > 0 {
		text += fmt.Sprintf("; %d run on constant data: %d ok", s.Run, s.RunOK)
	}
	if len(s.Stopped) > 0 {
		ops := slices.Sorted(maps.Keys(s.Stopped))
		for i, op := range ops {
			ops[i] = fmt.Sprintf("%s (%d)", op, s.Stopped[op])
		}
		text += "; undetermined dims stop at " + strings.Join(ops, ", ")
	}
	if s.Unreadable > 0 {
		text += "; " + plural(s.Unreadable, "file") + " could not be read"
	}
	if s.Skipped > 0 {
		text += "; " + plural(s.Skipped, "file") + " skipped: not models"
	}
	return text
}

// ConditionsNote is a summary's part on the conditions, of constraints and limits counted apart
// (Conditions.Constraints, Limits): "; 3 constraints, of which 1 fixes a dim" (fixed of them each
// fix one), "; 2 constraints, which fix B, T" (fixes, the symbols they leave one value together),
// then "; 1 limit"; "" for none.
func ConditionsNote(constraints, limits, fixed int, fixes []string) string {
	var note string
	if constraints > 0 {
		note = "; " + plural(constraints, "constraint")
		switch {
		case len(fixes) > 0 && constraints == 1:
			note += ", which fixes " + strings.Join(fixes, ", ")
		case len(fixes) > 0:
			note += ", which fix " + strings.Join(fixes, ", ")
		case fixed == 1:
			note += ", of which 1 fixes a dim"
		case fixed > 1:
			note += fmt.Sprintf(", of which %d fix a dim", fixed)
		}
	}
	if limits > 0 {
		note += "; " + plural(limits, "limit")
	}
	return note
}

// incompleteNote is the summary's part on models whose constraints may be incomplete: "; the
// conditions may be incomplete: " and LostNote ("the conditions of 1 of 3 files" when several are
// read), "" when every model is complete.
func (s Summary) incompleteNote() string {
	if s.Complete {
		return ""
	}
	who := "the conditions"
	if s.Files > 1 {
		who = fmt.Sprintf("the conditions of %d of %d files", s.Incomplete, s.Files)
	}
	return "; " + who + " may be incomplete: " + LostNote(s.Lost)
}

// LostNote counts the losses of precision, and apart the sizes only a run decides: "precision
// lost at 2 places, 1 size only a run decides".
func LostNote(lost []Loss) string {
	runs := 0
	for _, l := range lost {
		if l.RunTime {
			runs++
		}
	}
	var parts []string
	if n := len(lost) - runs; n > 0 {
		parts = append(parts, "precision lost at "+plural(n, "place"))
	}
	if runs == 1 {
		parts = append(parts, "1 size only a run decides")
	} else if runs > 1 {
		parts = append(parts, fmt.Sprintf("%d sizes only a run decides", runs))
	}
	return strings.Join(parts, ", ")
}

// plural returns "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
