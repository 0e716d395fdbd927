package onnx

import (
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"google.golang.org/protobuf/encoding/protowire"
)

// TestDepthBound checks the bound on nesting: the messages this package decodes do not recurse, so
// no file reaches it, and it is checked here on a message placed at the bound.
func TestDepthBound(t *testing.T) {
	b := protowire.AppendTag(nil, 7, protowire.BytesType)
	b = protowire.AppendBytes(b, nil)
	m := &message{name: "ModelProto", fields: modelFields, b: b, depth: maxDepth}
	f, err := m.next()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.message("GraphProto", graphFields); errcode.Code(err) != "limit" || !strings.Contains(err.Error(), "ModelProto.graph: messages nest deeper than 64") {
		t.Errorf("a message below the bound: %v", err)
	}
	m = &message{name: "ModelProto", fields: modelFields, b: b, depth: maxDepth - 1}
	if f, err = m.next(); err == nil {
		_, err = f.message("GraphProto", graphFields)
	}
	if err != nil {
		t.Errorf("a message at the bound: %v", err)
	}
}
