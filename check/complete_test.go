package check

import (
	"strings"
	"testing"
)

// TestComplete checks that a report says whether its constraints are all the model needs, and
// where inference lost precision when they may not be, and that the summary counts it.
func TestComplete(t *testing.T) {
	for _, tc := range []struct {
		file    string
		lost    []string // "NODE (OP): WHY", with " [run]" for a size only a run decides
		summary string   // the summary's note on completeness
	}{
		{file: "flat_matmul.onnx"},
		{file: "ops_opset18.onnx", lost: []string{
			"Resize_0 (Resize): output 0 is [N,C,?,?]: dims 2, 3 are no expression in the symbols",
			"Resize_1 (Resize): output 0 is [N,C,?,?]: dims 2, 3 are no expression in the symbols"},
			summary: "; the conditions may be incomplete: precision lost at 2 places"},
		{file: "if_data_branch.onnx", lost: []string{
			"if_sr (If): output 0 is [B,T/8] from then_branch and [B,T/6] from else_branch: the condition decides which [run]"},
			summary: "; the conditions may be incomplete: 1 size only a run decides"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			rep, err := File("../testdata/models/"+tc.file, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var lost []string
			for _, l := range rep.Lost {
				s := l.String()
				if l.RunTime {
					s += " [run]"
				}
				lost = append(lost, s)
			}
			if rep.Complete != (len(tc.lost) == 0) || strings.Join(lost, "\n") != strings.Join(tc.lost, "\n") {
				t.Errorf("complete %v, lost:\n%s\nwant\n%s", rep.Complete, strings.Join(lost, "\n"), strings.Join(tc.lost, "\n"))
			}
			s := Summarize([]*Report{rep})
			if s.Complete != rep.Complete || len(s.Lost) != len(rep.Lost) || s.incompleteNote() != tc.summary {
				t.Errorf("summary: complete %v, %d lost, note %q; want %q", s.Complete, len(s.Lost), s.incompleteNote(), tc.summary)
			}
		})
	}
}
