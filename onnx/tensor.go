package onnx

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strconv"

	"google.golang.org/protobuf/encoding/protowire"

	"github.com/reshape-go/reshape/element"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/tensor"
)

// DataType is an element type of ONNX tensors: the enum TensorProto.DataType of onnx.proto, whose
// values the constants below are.
type DataType int32

// The values of TensorProto.DataType, as onnx.proto numbers them.
const (
	Undefined      DataType = 0
	Float          DataType = 1  // float32
	Uint8          DataType = 2  // uint8
	Int8           DataType = 3  // int8
	Uint16         DataType = 4  // uint16
	Int16          DataType = 5  // int16
	Int32          DataType = 6  // int32
	Int64          DataType = 7  // int64
	String         DataType = 8  // byte strings, in string_data only
	Bool           DataType = 9  // one byte per element, 0 or 1
	Float16        DataType = 10 // IEEE 754 binary16
	Double         DataType = 11 // float64
	Uint32         DataType = 12 // uint32
	Uint64         DataType = 13 // uint64
	Complex64      DataType = 14 // two float32: real, imaginary
	Complex128     DataType = 15 // two float64: real, imaginary
	BFloat16       DataType = 16 // the upper half of a float32
	Float8E4M3FN   DataType = 17 // 8-bit float, 4 exponent and 3 mantissa bits, no infinities
	Float8E4M3FNUZ DataType = 18 // as Float8E4M3FN, no negative zero
	Float8E5M2     DataType = 19 // 8-bit float, 5 exponent and 2 mantissa bits
	Float8E5M2FNUZ DataType = 20 // as Float8E5M2, no infinities, no negative zero
	Uint4          DataType = 21 // 4-bit unsigned, two per byte, the first in the low nibble
	Int4           DataType = 22 // 4-bit signed, two per byte, the first in the low nibble
	Float4E2M1     DataType = 23 // 4-bit float, two per byte
	Float8E8M0     DataType = 24 // 8-bit exponent, the scale of microscaling formats
	Uint2          DataType = 25 // 2-bit unsigned, four per byte, the first in the low bits
	Int2           DataType = 26 // 2-bit signed, four per byte, the first in the low bits
)

// The fields of TensorProto that hold values.
const (
	floatData  protowire.Number = 4
	int32Data  protowire.Number = 5
	stringData protowire.Number = 6
	int64Data  protowire.Number = 7
	rawData    protowire.Number = 9
	doubleData protowire.Number = 10
	uint64Data protowire.Number = 11
)

// dataTypes describes each DataType: its name in onnx.proto, the project's element type (Undefined
// when there is none), its bits per element, the typed field that holds its values when raw_data does
// not, and how many bits of the tensor each value of that field holds.
var dataTypes = [...]struct {
	name    string
	elem    element.Type
	bits    int
	field   protowire.Number
	valBits int
}{
	Undefined:      {name: "UNDEFINED"},
	Float:          {"FLOAT", element.F32, 32, floatData, 32},
	Uint8:          {"UINT8", element.U8, 8, int32Data, 8},
	Int8:           {"INT8", element.I8, 8, int32Data, 8},
	Uint16:         {"UINT16", element.U16, 16, int32Data, 16},
	Int16:          {"INT16", element.I16, 16, int32Data, 16},
	Int32:          {"INT32", element.I32, 32, int32Data, 32},
	Int64:          {"INT64", element.I64, 64, int64Data, 64},
	String:         {"STRING", element.String, 0, stringData, 0},
	Bool:           {"BOOL", element.Boolean, 8, int32Data, 8},
	Float16:        {"FLOAT16", element.F16, 16, int32Data, 16},
	Double:         {"DOUBLE", element.F64, 64, doubleData, 64},
	Uint32:         {"UINT32", element.U32, 32, uint64Data, 32},
	Uint64:         {"UINT64", element.U64, 64, uint64Data, 64},
	Complex64:      {"COMPLEX64", element.Undefined, 64, floatData, 32},
	Complex128:     {"COMPLEX128", element.Undefined, 128, doubleData, 64},
	BFloat16:       {"BFLOAT16", element.BF16, 16, int32Data, 16},
	Float8E4M3FN:   {"FLOAT8E4M3FN", element.F8E4M3, 8, int32Data, 8},
	Float8E4M3FNUZ: {"FLOAT8E4M3FNUZ", element.F8E4M3FNUZ, 8, int32Data, 8},
	Float8E5M2:     {"FLOAT8E5M2", element.F8E5M2, 8, int32Data, 8},
	Float8E5M2FNUZ: {"FLOAT8E5M2FNUZ", element.F8E5M2FNUZ, 8, int32Data, 8},
	Uint4:          {"UINT4", element.U4, 4, int32Data, 8},
	Int4:           {"INT4", element.I4, 4, int32Data, 8},
	Float4E2M1:     {"FLOAT4E2M1", element.Undefined, 4, int32Data, 8},
	Float8E8M0:     {"FLOAT8E8M0", element.Undefined, 8, int32Data, 8},
	Uint2:          {"UINT2", element.Undefined, 2, int32Data, 8},
	Int2:           {"INT2", element.Undefined, 2, int32Data, 8},
}

// known reports whether d is a value of TensorProto.DataType this package knows (Undefined is not).
func (d DataType) known() bool { return d > Undefined && int(d) < len(dataTypes) }

// String returns the name onnx.proto gives d ("FLOAT", "INT64"), or "DataType(99)" for a value it
// does not know.
func (d DataType) String() string {
	if d < 0 || int(d) >= len(dataTypes) {
		return "DataType(" + strconv.Itoa(int(d)) + ")"
	}
	return dataTypes[d].name
}

// ElementType returns the project's element type of d: FLOAT f32, UINT8 u8, INT8 i8, UINT16 u16,
// INT16 i16, INT32 i32, INT64 i64, STRING string, BOOL boolean, FLOAT16 f16, DOUBLE f64, UINT32 u32,
// UINT64 u64, BFLOAT16 bf16, FLOAT8E4M3FN f8e4m3, FLOAT8E4M3FNUZ f8e4m3fnuz, FLOAT8E5M2 f8e5m2,
// FLOAT8E5M2FNUZ f8e5m2fnuz, UINT4 u4, INT4 i4. For any
// other data type (UNDEFINED, the complex types, FLOAT4E2M1, FLOAT8E8M0, the 2-bit
// types, unknown values) it returns an error wrapping errcode.ErrDataType that names the type.
func (d DataType) ElementType() (element.Type, error) {
	if d.known() && dataTypes[d].elem != element.Undefined {
		return dataTypes[d].elem, nil
	}
	return element.Undefined, errcode.Errorf(errcode.ErrDataType, "ONNX data type %v has no element type here", d)
}

// DataTypeOf returns the ONNX data type of the element type t, the inverse of ElementType. For an
// element type ONNX has no data type for (u1, nf4, undefined) it returns an error wrapping
// errcode.ErrDataType.
func DataTypeOf(t element.Type) (DataType, error) {
	for d, dt := range dataTypes {
		if dt.elem == t && t != element.Undefined {
			return DataType(d), nil
		}
	}
	return Undefined, errcode.Errorf(errcode.ErrDataType, "element type %v has no ONNX data type", t)
}

// Tensor is a TensorProto of onnx.proto: a name (field 8), dimensions (dims, field 1, in elements),
// a data type (data_type, field 2) and the values, kept as they are encoded until Tensor or Ints
// decodes them. The values are held either by raw_data (field 9: fixed-width little-endian, sub-byte
// types packed low bits first) or by the typed field of the data type: float_data (4) for FLOAT and
// COMPLEX64, int32_data (5) for the integer types up to 32 bits, BOOL, FLOAT16, BFLOAT16, the 8-bit
// floats (each value one element's bit pattern) and the 4-bit and 2-bit types (each value one byte
// of packed elements), string_data (6) for STRING, int64_data (7) for INT64, double_data (10) for
// DOUBLE and COMPLEX128, uint64_data (11) for UINT32 and UINT64.
//
// A tensor whose values are stored outside the model has External set and no values of its own
// until ReadExternal reads them.
//
// A decoded tensor does not hold its values: it keeps where they lie in the encoded model (or
// TensorProto), and reads them from there when Tensor or Ints is called, so that decoding a model
// neither copies nor reads its weights.
type Tensor struct {
	Name     string
	Dims     []int64
	DataType DataType
	External *External

	src   *source          // the encoded file the values are in
	field protowire.Number // the field that holds the values, 0 when none does
	spans []span           // its occurrences in src, repeated scalars in packed form, one per string for string_data
	count int64            // the values the spans hold: bytes of raw_data, strings, or numbers of a typed field
}

// DecodeTensor decodes a TensorProto, as the .pb files of ONNX backend test data sets hold. The
// tensor's values stay in b, which must not change while the tensor is used.
//
// Unknown fields are skipped. Repeated numeric fields may be packed or not, or both. The values
// must be in one field, the one that data_type allows, and their count must match the dims (for a
// data type this package does not know, UNDEFINED included, the values are kept unchecked). Values
// in external data (data_location EXTERNAL) are described by External and not read. Errors wrap
// errcode.ErrSyntax (malformed encoding, a wrong wire type, a negative dimension, values in the
// wrong field or of the wrong count, segmented tensors, external data without a location or of the
// wrong length), or errcode.ErrOverflow (a volume or byte size beyond int64), and name the field
// and the offset in b.
func DecodeTensor(b []byte) (*Tensor, error) {
	if len(b) == 0 {
		return nil, errcode.Errorf(errcode.ErrSyntax, "offset 0: empty file, want a TensorProto")
	}
	t := &Tensor{}
	if err := decodeTensor(&message{name: "TensorProto", fields: tensorFields, b: b, d: &decoder{src: &source{b: b}}}, t); err != nil {
		return nil, err
	}
	return t, nil
}

var tensorFields = names{1: "dims", 2: "data_type", 3: "segment", 4: "float_data", 5: "int32_data",
	6: "string_data", 7: "int64_data", 8: "name", 9: "raw_data", 10: "double_data", 11: "uint64_data",
	13: "external_data", 14: "data_location"}

// decodeTensor decodes a TensorProto into t. The values are not decoded, nor read when they are in
// raw_data or a fixed-width field: only their place is kept.
func decodeTensor(m *message, t *Tensor) error {
	d := m.d
	t.src = d.src
	var entries [][2]string // external_data
	external := -1          // the offset of data_location EXTERNAL
	var f field
	for m.more() {
		err := m.next(&f)
		if err != nil {
			return err
		}
		switch f.num {
		case 1:
			var vals []byte
			var n int
			if vals, n, err = f.packed(protowire.VarintType); err == nil {
				t.Dims = d.ints.Grow(t.Dims, n)
				for len(vals) > 0 && err == nil {
					v, k := protowire.ConsumeVarint(vals) // checked by packed
					if int64(v) < 0 {
						err = f.errorf(f.off, "dims[%d] = %d: a dimension cannot be negative", len(t.Dims), int64(v))
					}
					t.Dims = append(t.Dims, int64(v))
					vals = vals[k:]
				}
			}
		case 2:
			var v int32
			v, err = f.int32()
			t.DataType = DataType(v)
		case 3:
			if err = f.want(protowire.BytesType); err == nil {
				err = f.errorf(f.tag, "segmented tensors are not supported")
			}
		case 8:
			var b []byte
			if b, err = f.bytes(); err == nil {
				t.Name = d.str(b)
			}
		case 9:
			if err = f.want(protowire.BytesType); err == nil {
				f.skip()
				err = t.add(&f, int64(len(f.val)), true)
			}
		case 6:
			if err = f.want(protowire.BytesType); err == nil {
				f.skip()
				err = t.add(&f, 1, false)
			}
		case 4, 5, 7, 10, 11:
			typ := protowire.VarintType
			switch f.num {
			case floatData:
				typ = protowire.Fixed32Type
			case doubleData:
				typ = protowire.Fixed64Type
			}
			var n int
			if _, n, err = f.packed(typ); err == nil {
				if typ != protowire.VarintType { // fixed-width values are counted, not read
					f.skip()
				}
				err = t.add(&f, int64(n), false)
			}
		case 13:
			var sub message
			if sub, err = f.message("StringStringEntryProto", entryFields); err == nil {
				var k, v string
				if k, v, err = decodeEntry(&sub); err != nil {
					err = within(err, "TensorProto.external_data[%d]", len(entries))
				}
				entries = append(entries, [2]string{k, v})
			}
		case 14:
			var loc int32
			if loc, err = f.int32(); err == nil {
				switch loc {
				case 0:
					external = -1
				case 1:
					external = f.tag
				default:
					err = f.errorf(f.tag, "data_location %d: want DEFAULT (0) or EXTERNAL (1)", loc)
				}
			}
		default:
			f.skip()
		}
		if err != nil {
			return err
		}
	}
	// As onnx's loader does, external_data counts only with data_location EXTERNAL.
	if external >= 0 {
		if err := t.setExternal(entries, external); err != nil {
			return err
		}
	}
	return t.check()
}

// add records an occurrence of the field f, which holds n values. A raw_data occurrence replaces
// the one before, as protobuf reads a repeated singular field.
func (t *Tensor) add(f *field, n int64, replace bool) error {
	if t.field != 0 && t.field != f.num {
		return f.errorf(f.tag, "values are in %s already: only one field may hold them", tensorFields[t.field])
	}
	t.field = f.num
	if replace {
		t.spans, t.count = t.spans[:0], 0
	}
	t.spans = append(f.d.spans.Grow(t.spans, 1), span{f.off, len(f.val)})
	t.count += n
	return nil
}

// check checks the dimensions, and that the values are in the field the data type allows and that
// their count matches the dimensions.
func (t *Tensor) check() error {
	n, err := shape.Volume(t.Dims)
	if err != nil {
		var e *errcode.Error
		errors.As(err, &e)
		return errcode.Errorf(e.Err, "tensor %q: TensorProto.dims: %v", t.Name, err)
	}
	d := t.DataType
	if !d.known() {
		return nil // kept unchecked; Tensor and Ints refuse it
	}
	if t.External != nil {
		return t.checkExternal()
	}
	dt := dataTypes[d]
	var want int64 // the values the field must hold
	switch {
	case t.field == 0 && n == 0:
		return nil
	case t.field == 0:
		return errcode.Errorf(errcode.ErrSyntax, "tensor %q: TensorProto: no values for the %d elements of %v", t.Name, n, d)
	case t.field == rawData && d == String:
		return errcode.Errorf(errcode.ErrSyntax, "tensor %q: TensorProto.raw_data cannot hold STRING values: they are in string_data", t.Name)
	case t.field != rawData && t.field != dt.field:
		where := tensorFields[dt.field]
		if d != String {
			where += " or raw_data"
		}
		return errcode.Errorf(errcode.ErrSyntax, "tensor %q: TensorProto.%s cannot hold %v values: they are in %s",
			t.Name, tensorFields[t.field], d, where)
	case d == String:
		want = n
	default:
		bits, err := t.bits()
		if err != nil {
			return err
		}
		unit := int64(dt.valBits)
		if t.field == rawData {
			unit = 8
		}
		want = bits/unit + min(bits%unit, 1)
	}
	if t.count != want {
		unit := "values"
		if t.field == rawData {
			unit = "bytes"
		}
		return errcode.Errorf(errcode.ErrSyntax, "tensor %q: TensorProto.%s holds %d %s, but %s of %v takes %d",
			t.Name, tensorFields[t.field], t.count, unit, shape.FormatInts(t.Dims), d, want)
	}
	return nil
}

// Tensor returns the values as a dense tensor of the project's element type (see
// DataType.ElementType), little-endian, in row-major order, in new memory: it reads them from the
// encoded model. Errors wrap errcode.ErrDataType (a data type without an element type, or STRING,
// whose values have no fixed width), or errcode.ErrSyntax (values that do not match the dims, or
// are out of the range of the data type, as a UINT8 in int32_data above 255; a model closed, or a
// mapped file truncated, before they were read).
func (t *Tensor) Tensor() (_ tensor.Tensor, err error) {
	defer recoverFault(&err, debug.SetPanicOnFault(true))
	et, err := t.DataType.ElementType()
	if err != nil {
		return tensor.Tensor{}, within(err, "tensor %q", t.Name)
	}
	if et.Bits() == 0 {
		return tensor.Tensor{}, errcode.Errorf(errcode.ErrDataType, "tensor %q: %v values have no fixed width: a dense tensor cannot hold them", t.Name, t.DataType)
	}
	if err := t.check(); err != nil {
		return tensor.Tensor{}, err
	}
	if t.External != nil {
		return tensor.Tensor{}, errcode.Errorf(errcode.ErrSyntax, "tensor %q: the values are in the external file %q, not read (Tensor.ReadExternal reads them)",
			t.Name, t.External.Location)
	}
	n, _ := shape.Volume(t.Dims) // checked
	size, _ := et.Size(n)        // checked against the values present
	out := make([]byte, 0, size)
	le := binary.LittleEndian
	i := 0            // the index of the value, for errors
	var one [1][]byte // the data of one span, the usual case, without an allocation
	data := one[:]
	if len(t.spans) != 1 {
		data = make([][]byte, len(t.spans))
	}
	for k, s := range t.spans {
		if data[k], err = t.src.bytes(s); err != nil {
			return tensor.Tensor{}, within(err, "tensor %q", t.Name)
		}
	}
	switch t.field {
	case rawData, floatData, doubleData: // fixed-width little-endian already
		for _, c := range data {
			out = append(out, c...)
		}
	case int64Data, uint64Data:
		for _, c := range data {
			err = varints(c, func(v uint64) error {
				if t.DataType == Uint32 {
					if v > math.MaxUint32 {
						return t.rangeError(i, strconv.FormatUint(v, 10))
					}
					out = le.AppendUint32(out, uint32(v))
				} else {
					out = le.AppendUint64(out, v)
				}
				i++
				return nil
			})
			if err != nil {
				return tensor.Tensor{}, err
			}
		}
	case int32Data:
		w := max(dataTypes[t.DataType].bits, 8) // bits each value holds; 4-bit types pack two in a byte
		lo, hi := -int64(1)<<(w-1), int64(1)<<w-1
		for _, c := range data {
			err = varints(c, func(u uint64) error {
				v := int64(u)
				if v < lo || v > hi {
					return t.rangeError(i, strconv.FormatInt(v, 10))
				}
				if t.DataType == Bool && v != 0 {
					v = 1
				}
				switch w {
				case 8:
					out = append(out, byte(v))
				case 16:
					out = le.AppendUint16(out, uint16(v))
				default:
					out = le.AppendUint32(out, uint32(v))
				}
				i++
				return nil
			})
			if err != nil {
				return tensor.Tensor{}, err
			}
		}
	}
	return tensor.FromBytes(et, t.Dims, out)
}

// bits returns the size of the tensor's elements in bits, for a data type this package knows.
func (t *Tensor) bits() (int64, error) {
	n, _ := shape.Volume(t.Dims) // checked by check
	bits, ok := shape.Mul(n, int64(dataTypes[t.DataType].bits))
	if !ok {
		return 0, errcode.Errorf(errcode.ErrOverflow, "tensor %q: %d elements of %v: the size in bits overflows int64", t.Name, n, t.DataType)
	}
	return bits, nil
}

func (t *Tensor) rangeError(i int, v string) error {
	return errcode.Errorf(errcode.ErrSyntax, "tensor %q: TensorProto.%s[%d] = %s: out of the range of %v",
		t.Name, tensorFields[t.field], i, v, t.DataType)
}

// Ints returns the values of a tensor of an integer data type (UINT8, INT8, UINT16, INT16, INT32,
// INT64, UINT32, UINT64, UINT4, INT4) in row-major order. Errors are those of Tensor, errcode.ErrDataType
// for any other data type, and errcode.ErrOverflow for a UINT64 value above math.MaxInt64.
func (t *Tensor) Ints() ([]int64, error) {
	if et, err := t.DataType.ElementType(); err == nil && !et.IsInteger() {
		return nil, errcode.Errorf(errcode.ErrDataType, "tensor %q: %v is not an integer data type", t.Name, t.DataType)
	}
	if t.field == rawData && len(t.spans) == 1 && t.External == nil {
		return t.rawInts()
	}
	v, err := t.Tensor()
	if err != nil {
		return nil, err
	}
	b, _ := v.Bytes() // dense
	ints, err := v.Type().DecodeInts(make([]int64, 0, v.Len()), b, int(v.Len()))
	if err != nil { // the data is whole: only a u64 value can be out of range (errcode.ErrOverflow)
		return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
	}
	return ints, nil
}

// rawInts is Ints for integers in one raw_data field: decoded where they lie in the model, without
// the copy Tensor makes.
func (t *Tensor) rawInts() (_ []int64, err error) {
	defer recoverFault(&err, debug.SetPanicOnFault(true))
	et, err := t.DataType.ElementType()
	if err != nil {
		return nil, within(err, "tensor %q", t.Name)
	}
	if err := t.check(); err != nil {
		return nil, err
	}
	b, err := t.src.bytes(t.spans[0])
	if err != nil {
		return nil, within(err, "tensor %q", t.Name)
	}
	n, _ := shape.Volume(t.Dims) // checked
	ints, err := et.DecodeInts(make([]int64, 0, n), b, int(n))
	if err != nil { // the data is whole: only a u64 value can be out of range (errcode.ErrOverflow)
		return nil, fmt.Errorf("tensor %q: %w", t.Name, err)
	}
	return ints, nil
}

// EncodeTensor encodes t as a TensorProto named name (left out when empty): dims (field 1, one varint
// each, unpacked, as ONNX writes them), data_type (2), name (8) and raw_data (9), the elements in
// logical row-major order, little-endian, sub-byte types packed first element in the low bits. It
// writes the fields in that order, as ONNX's own serializer does, so the files of the ONNX backend
// tests are reproduced byte for byte. Errors wrap errcode.ErrDataType for an element type ONNX has no
// data type for (u1, nf4).
func EncodeTensor(t tensor.Tensor, name string) ([]byte, error) {
	d, err := DataTypeOf(t.Type())
	if err != nil {
		return nil, err
	}
	size := t.ByteSize()
	b := make([]byte, 0, 32+11*len(t.Shape())+len(name)+int(size))
	for _, dim := range t.Shape() {
		b = protowire.AppendTag(b, 1, protowire.VarintType)
		b = protowire.AppendVarint(b, uint64(dim))
	}
	b = protowire.AppendTag(b, 2, protowire.VarintType)
	b = protowire.AppendVarint(b, uint64(d))
	if name != "" {
		b = protowire.AppendTag(b, 8, protowire.BytesType)
		b = protowire.AppendString(b, name)
	}
	b = protowire.AppendTag(b, rawData, protowire.BytesType)
	b = protowire.AppendVarint(b, uint64(size))
	buf := bytes.NewBuffer(b)
	if _, err := t.WriteTo(buf); err != nil { // a bytes.Buffer does not fail
		return nil, err
	}
	return buf.Bytes(), nil
}
