package onnx

import (
	"google.golang.org/protobuf/encoding/protowire"
)

// The messages whose fields prefetch walks into, rather than reading them whole: those that hold
// the tensors whose values decoding does not read.
type msgKind uint8

const (
	kindOther msgKind = iota
	kindModel
	kindGraph
	kindNode
	kindAttr
	kindTensor
)

// inner gives, per message, the fields that are messages prefetch walks into, and their kinds.
var inner = [...]map[protowire.Number]msgKind{
	kindModel: {7: kindGraph},
	kindGraph: {1: kindNode, 5: kindTensor},
	kindNode:  {5: kindAttr},
	kindAttr:  {5: kindTensor, 10: kindTensor, 6: kindGraph, 11: kindGraph},
}

// walkWhole is the size of a message below which prefetch reads it whole rather than walk its
// fields: a node, a small tensor.
const walkWhole = 4 << 10

// prefetch reads, through fill, every byte of the ModelProto in b that decoding reads: everything
// but the values of tensors (raw_data, float_data, double_data, string_data), which Tensor and Ints
// read when asked (source.bytes fills them). b is a lazy file's bytes (mmap.File.Fill), holding
// what was read. Where the encoding is malformed, the rest of the message is read whole, for
// decoding to report.
func prefetch(fill func(off, n int) error, b []byte) error {
	return walkFields(fill, b, 0, len(b), kindModel)
}

// walkFields prefetches the fields of a message of kind k in b[start:end].
func walkFields(fill func(off, n int) error, b []byte, start, end int, k msgKind) error {
	for pos := start; pos < end; {
		// A tag and a length take at most 20 bytes.
		if err := fill(pos, min(20, end-pos)); err != nil {
			return err
		}
		num, typ, n := protowire.ConsumeTag(b[pos:end])
		if n < 0 {
			return fill(pos, end-pos)
		}
		if typ != protowire.BytesType {
			m := protowire.ConsumeFieldValue(num, typ, b[pos+n:end])
			if m < 0 || typ == protowire.StartGroupType {
				return fill(pos, end-pos)
			}
			pos += n + m
			continue
		}
		length, m := protowire.ConsumeVarint(b[pos+n : end])
		if m < 0 || length > uint64(end-pos-n-m) {
			return fill(pos, end-pos)
		}
		lo, hi := pos+n+m, pos+n+m+int(length)
		pos = hi
		if k == kindTensor && (num == floatData || num == rawData || num == doubleData || num == stringData) {
			continue // values: read when asked
		}
		sub := kindOther
		if int(k) < len(inner) {
			sub = inner[k][num]
		}
		var err error
		if sub == kindOther || hi-lo <= walkWhole {
			err = fill(lo, hi-lo)
		} else {
			err = walkFields(fill, b, lo, hi, sub)
		}
		if err != nil {
			return err
		}
	}
	return nil
}
