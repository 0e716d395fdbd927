package npy_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/npy"
	"github.com/reshape-go/reshape/tensor"
)

// file builds a .npy file of the given version around a header dict and data.
func file(major byte, dict string, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("\x93NUMPY")
	b.Write([]byte{major, 0})
	h := dict + "\n"
	if major == 1 {
		binary.Write(&b, binary.LittleEndian, uint16(len(h)))
	} else {
		binary.Write(&b, binary.LittleEndian, uint32(len(h)))
	}
	b.WriteString(h)
	b.Write(data)
	return b.Bytes()
}

func read(b []byte) (tensor.Tensor, npy.Header, error) {
	return npy.Read(bytes.NewReader(b), int64(len(b)))
}

func TestRead(t *testing.T) {
	le := []byte{1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0}
	be := []byte{0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6}
	tests := []struct {
		name string
		file []byte
		want []int16
		dims []int64
	}{
		{"v1 little", file(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }", le), []int16{1, 2, 3, 4, 5, 6}, []int64{2, 3}},
		{"v2 big", file(2, "{'descr': '>i2', 'fortran_order': False, 'shape': (2, 3), }", be), []int16{1, 2, 3, 4, 5, 6}, []int64{2, 3}},
		{"v3 fortran", file(3, `{"descr": "<i2", "fortran_order": True, "shape": (2, 3)}`, le), []int16{1, 3, 5, 2, 4, 6}, []int64{2, 3}},
		{"key order, python 2 longs", file(1, "{'shape': (6L,), 'fortran_order': False, 'descr': '<i2'}", le), []int16{1, 2, 3, 4, 5, 6}, []int64{6}},
		{"scalar", file(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (), }", le[:2]), []int16{1}, []int64{}},
		{"empty", file(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (0, 5), }", nil), []int16{}, []int64{0, 5}},
	}
	for _, tt := range tests {
		x, _, err := read(tt.file)
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		got, _ := tensor.Values[int16](x)
		if !slices.Equal(got, tt.want) || !slices.Equal(x.Shape(), tt.dims) {
			t.Errorf("%s: %v %v, want %v %v", tt.name, x.Shape(), got, tt.dims, tt.want)
		}
	}
}

func TestReadErrors(t *testing.T) {
	ok := "{'descr': '<f4', 'fortran_order': False, 'shape': (2,), }"
	tests := []struct {
		name string
		file []byte
		code error
		want string
	}{
		{"empty", nil, errcode.ErrSyntax, "offset 0: empty file"},
		{"short", []byte("\x93NUM"), errcode.ErrSyntax, "shorter than the .npy magic"},
		{"magic", []byte("\x93NUMPX\x01\x00"), errcode.ErrSyntax, "not a .npy file"},
		{"version", file(4, ok, make([]byte, 8)), errcode.ErrSyntax, "format version 4.0"},
		{"truncated length", []byte("\x93NUMPY\x02\x00\x01"), errcode.ErrSyntax, "truncated header length"},
		{"header past end", []byte("\x93NUMPY\x01\x00\xff\x00{'descr'"), errcode.ErrSyntax, "the header says 255 bytes, the file holds 8"},
		{"huge header", []byte("\x93NUMPY\x02\x00\xff\xff\xff\x7f"), errcode.ErrLimit, "exceeds the limit"},
		{"data short", file(1, ok, make([]byte, 7)), errcode.ErrSyntax, "takes 8 bytes of data, the file holds 7"},
		{"data long", file(1, ok, make([]byte, 9)), errcode.ErrSyntax, "takes 8 bytes of data, the file holds 9"},
		{"lying shape", file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (1000000000, 1000000), }", make([]byte, 8)), errcode.ErrSyntax, "takes 8000000000000000 bytes"},
		{"overflowing shape", file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (4294967296, 4294967296), }", nil), errcode.ErrOverflow, "overflows int64"},
		{"huge dim", file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (99999999999999999999,), }", nil), errcode.ErrOverflow, "does not fit in an int64"},
		{"negative dim", file(1, "{'descr': '<f8', 'fortran_order': False, 'shape': (-1,), }", nil), errcode.ErrSyntax, "want a non-negative integer"},
		{"unknown kind", file(1, "{'descr': '<q8', 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrSyntax, `dtype "<q8": kind "q" is not one of`},
		{"no size", file(1, "{'descr': '<f', 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrSyntax, `dtype "<f": want a kind`},
		{"bad order", file(1, "{'descr': 'f4', 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrSyntax, `byte order "f" is not`},
		{"object dtype", file(1, "{'descr': '|O', 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrDataType, "np.save pickles"},
		{"object field", file(1, "{'descr': [('a', '<f4'), ('b', '|O')], 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrDataType, "structured dtype: field 1: dtype \"|O\""},
		{"structured data short", file(1, "{'descr': [('a', '<f4')], 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrSyntax, "shape [1] of [('a', '<f4')] takes 4 bytes"},
		{"field without dtype", file(1, "{'descr': [('a',)], 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrSyntax, "field 0: want (name, dtype)"},
		{"no fields", file(1, "{'descr': [], 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrSyntax, "an empty list of fields"},
		{"deep fields", file(1, "{'descr': "+strings.Repeat("[('a', ", 40)+"'<f4'"+strings.Repeat(")]", 40)+", 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrLimit, "nest deeper"},
		{"huge field", file(1, "{'descr': [('a', '<f8', (1099511627776,))], 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrOverflow, "larger than 2^40 bytes"},
		{"no byte order", file(1, "{'descr': '|f4', 'fortran_order': False, 'shape': (1,), }", nil), errcode.ErrSyntax, "needs the byte order"},
		{"missing key", file(1, "{'descr': '<f4', 'shape': (1,), }", nil), errcode.ErrSyntax, `no "fortran_order" key`},
		{"extra key", file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': (1,), 'x': True}", nil), errcode.ErrSyntax, "keys other than"},
		{"duplicate key", file(1, "{'descr': '<f4', 'descr': '<f4', 'shape': (1,)}", nil), errcode.ErrSyntax, "twice"},
		{"not a dict", file(1, "['descr']", nil), errcode.ErrSyntax, "want a dict"},
		{"unterminated", file(1, "{'descr: '<f4'", nil), errcode.ErrSyntax, ""},
		{"bad bool", file(1, "{'descr': '<f4', 'fortran_order': 0, 'shape': (1,), }", nil), errcode.ErrSyntax, "want a string, True, False or a tuple"},
		{"text after", file(1, ok+" x", nil), errcode.ErrSyntax, "text after the dict"},
		{"too many dims", file(1, "{'descr': '<f4', 'fortran_order': False, 'shape': ("+strings.Repeat("1, ", 65)+"), }", nil), errcode.ErrLimit, "more than 64"},
	}
	for _, tt := range tests {
		_, _, err := read(tt.file)
		if !errors.Is(err, tt.code) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: %v; want %v containing %q", tt.name, err, tt.code, tt.want)
		}
		// With the size unknown the reader must fail the same way, without trusting the header.
		if _, _, err := npy.Read(bytes.NewReader(tt.file), -1); err == nil {
			t.Errorf("%s: no error with the size unknown", tt.name)
		}
	}
}

// TestReadBytes reads dtypes without an element type, as np.save writes them, as the bytes of
// their items, in C and Fortran order, and writes their header back as numpy would.
func TestReadBytes(t *testing.T) {
	tests := []struct {
		descr string
		size  int64
	}{
		{"'<c8'", 8}, {"'>c16'", 16}, {"'<U2'", 8}, {"'|S10'", 10}, {"'<M8[s]'", 8}, {"'<m8[ns]'", 8}, {"'|V3'", 3}, {"'<f16'", 16},
		{"[('a', '<i4'), ('b', '<f8')]", 12},
		{"[('a', '<i2', (2, 3)), ('', '|V4')]", 16},
		{"[(('title', 'x'), '<f4'), ('n', [('u', '|u1'), ('v', '<U1', (2,))])]", 13},
	}
	for _, tt := range tests {
		for _, fortran := range []bool{false, true} {
			data := make([]byte, 6*tt.size)
			for i := range data {
				data[i] = byte(i)
			}
			order := "False"
			if fortran {
				order = "True"
			}
			x, h, err := read(file(1, "{'descr': "+tt.descr+", 'fortran_order': "+order+", 'shape': (2, 3), }", data))
			if err != nil || h.Type != element.Undefined || h.ItemSize != tt.size || h.DataSize() != 6*tt.size ||
				x.Type() != element.U8 || !slices.Equal(x.Shape(), []int64{2, 3, tt.size}) {
				t.Errorf("%s fortran=%v: %v %+v, %v", tt.descr, fortran, x.Shape(), h, err)
				continue
			}
			// Item (1, 0) is the second item of the file in C order, the second in Fortran order too.
			item := int64(3)
			if fortran {
				item = 1
			}
			got := x.Contiguous().Data()[3*tt.size : 4*tt.size]
			if !bytes.Equal(got, data[item*tt.size:(item+1)*tt.size]) {
				t.Errorf("%s fortran=%v: item (1,0) = %v, want the file's item %d", tt.descr, fortran, got, item)
			}
			var b bytes.Buffer
			if err := npy.WriteHeaderLike(&b, h, []int64{6}); err != nil || !strings.Contains(b.String(), "{'descr': "+tt.descr+", 'fortran_order': False, 'shape': (6,), }") || b.Len()%64 != 0 {
				t.Errorf("%s: WriteHeaderLike = %q, %v", tt.descr, b.String(), err)
			}
		}
	}
}

func TestWrite(t *testing.T) {
	x, _ := tensor.FromSlice([]int16{1, 2, 3, 4, 5, 6}, 2, 3)
	xt, _ := x.Transpose()
	var b bytes.Buffer
	if err := npy.Write(&b, xt, npy.WriteOptions{BigEndian: true}); err != nil {
		t.Fatal(err)
	}
	// What numpy 1.24 writes for np.array([[1,4],[2,5],[3,6]], '>i2').
	want := "\x93NUMPY\x01\x00v\x00{'descr': '>i2', 'fortran_order': False, 'shape': (3, 2), }" + strings.Repeat(" ", 58) + "\n" +
		"\x00\x01\x00\x04\x00\x02\x00\x05\x00\x03\x00\x06"
	if b.String() != want {
		t.Errorf("Write:\n%q\nwant\n%q", b.String(), want)
	}
	back, h, err := npy.Read(bytes.NewReader(b.Bytes()), int64(b.Len()))
	got, _ := tensor.Values[int16](back)
	if err != nil || !h.BigEndian || !slices.Equal(got, []int16{1, 4, 2, 5, 3, 6}) || (b.Len()-int(h.DataOffset)) != 12 || h.DataOffset%64 != 0 {
		t.Errorf("read back %v %+v %v", got, h, err)
	}
	bf, _ := tensor.New(element.BF16, 2)
	if err := npy.Write(&b, bf, npy.WriteOptions{}); !errors.Is(err, errcode.ErrDataType) {
		t.Errorf("bf16: %v", err)
	}
	// A header too large for version 1.0 switches to 2.0.
	wide, _ := tensor.New(element.U8, append(slices.Repeat([]int64{1}, 30000), 0)...)
	b.Reset()
	if err := npy.Write(&b, wide, npy.WriteOptions{}); err != nil || b.Bytes()[6] != 2 {
		t.Errorf("wide header: version %d, %v", b.Bytes()[6], err)
	}
}

// FuzzRead checks that the reader never panics, fails only with the package's codes, and that what
// it reads writes back and reads again to the same elements.
func FuzzRead(f *testing.F) {
	f.Add(file(1, "{'descr': '<i2', 'fortran_order': False, 'shape': (2, 3), }", make([]byte, 12)))
	f.Add(file(3, "{'descr': '>f8', 'fortran_order': True, 'shape': (1, 1), }", make([]byte, 8)))
	f.Add(file(2, "{'descr': '|b1', 'fortran_order': False, 'shape': (), }", []byte{1}))
	f.Add(file(1, "{'descr': [('a', '<i4'), ('b', '<U2', (2,))], 'fortran_order': True, 'shape': (2, 1), }", make([]byte, 2*20)))
	f.Fuzz(func(t *testing.T, b []byte) {
		x, h, err := npy.Read(bytes.NewReader(b), int64(len(b)))
		if err != nil {
			if errcode.Code(err) == "" {
				t.Fatalf("error without a code: %v", err)
			}
			return
		}
		var out bytes.Buffer
		if err := npy.Write(&out, x, npy.WriteOptions{BigEndian: h.BigEndian}); err != nil {
			t.Fatal(err)
		}
		y, _, err := npy.Read(bytes.NewReader(out.Bytes()), int64(out.Len()))
		if err != nil || !slices.Equal(tensor.Float64s(x), tensor.Float64s(y)) && !hasNaN(tensor.Float64s(x)) {
			t.Fatalf("round trip: %v", err)
		}
	})
}

func hasNaN(v []float64) bool {
	for _, x := range v {
		if x != x {
			return true
		}
	}
	return false
}
