package tensor

import (
	"fmt"
	"testing"
)

// TestMethodAxes checks that a Method holds the axes of the group that forces a copy, and says
// so without them when an axis index is too large to hold.
func TestMethodAxes(t *testing.T) {
	tests := []struct {
		m    Method
		view bool
		want string
	}{
		{notContiguous(0, 1, 0, 0, 0, 1, 4, 24), false,
			"input axes 0..1 merge into output axes 0..0, but stride[0] = 4 != dim[1]·stride[1] = 24: not contiguous"},
		{notContiguous(1021, 1023, 7, 9, 1022, 1023, 8, 16), false,
			"input axes 1021..1023 merge into output axes 7..9, but stride[1022] = 8 != dim[1023]·stride[1023] = 16: not contiguous"},
		{notContiguous(1023, 1024, 0, 0, 1023, 1024, 8, 16), false,
			"a group of input axes merged into one output axis is not contiguous: a stride of 8 where 16 would be"},
		{viewBy(ruleDense), true, "the input is dense: only the shape changes"},
	}
	for _, tt := range tests {
		if got := tt.m.Reason(); got != tt.want || tt.m.View != tt.view {
			t.Errorf("Reason() = %q, view %v; want %q, view %v", got, tt.m.View, tt.want, tt.view)
		}
	}
}

// TestMethodString: fmt prints a Method as a view or a copy and why, not its fields.
func TestMethodString(t *testing.T) {
	for m, want := range map[Method]string{
		viewBy(ruleDense):                      "view: the input is dense: only the shape changes",
		notContiguous(0, 1, 0, 0, 0, 1, 4, 24): "copy: input axes 0..1 merge into output axes 0..0, but stride[0] = 4 != dim[1]·stride[1] = 24: not contiguous",
	} {
		if got := fmt.Sprint(m); got != want {
			t.Errorf("fmt.Sprint(Method) = %q, want %q", got, want)
		}
	}
}
