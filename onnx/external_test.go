package onnx_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/onnx"
)

const externalDir = "../testdata/external"

// readFixture decodes a model of testdata/external.
func readFixture(t *testing.T, name string) *onnx.Model {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(externalDir, name))
	if err != nil {
		t.Fatal(err)
	}
	m, err := onnx.DecodeModel(b)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestExternalData reads the fixtures that onnx's own helpers wrote (testdata/external/make.py): a
// shape constant in external data is read when asked for; the weights, whose file is left out, are
// described and never needed.
func TestExternalData(t *testing.T) {
	m := readFixture(t, "model.onnx")
	shape, _ := m.Graph.Initializer("shape")
	w, _ := m.Graph.Initializer("w")
	if *shape.External != (onnx.External{Location: "shape.bin", Offset: 16, Length: 16}) ||
		*w.External != (onnx.External{Location: "weights.bin", Length: 120}) {
		t.Fatalf("External: %+v, %+v", shape.External, w.External)
	}
	if _, err := shape.Ints(); !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), `values are in the external file "shape.bin", not read`) {
		t.Errorf("Ints before ReadExternal: %v", err)
	}
	read, err := shape.ReadExternal(externalDir, 16)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := read.Ints(); err != nil || !slices.Equal(v, []int64{4, -1}) || shape.External == nil {
		t.Errorf("ReadExternal: %v, %v; the original keeps External: %v", v, err, shape.External)
	}
	if _, err := w.ReadExternal(externalDir, 1<<20); !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), `tensor "w": external data ../testdata/external/weights.bin: no such file or directory`) {
		t.Errorf("the weights' missing file: %v", err)
	}
	if _, err := shape.ReadExternal(externalDir, 15); !errors.Is(err, errcode.ErrLimit) {
		t.Errorf("a read over the bound: %v", err)
	}
	// Encoding keeps the external data.
	again, err := onnx.EncodeModel(m)
	if err != nil {
		t.Fatal(err)
	}
	if m2, err := onnx.DecodeModel(again); err != nil || *m2.Graph.Initializers[0].External != *shape.External {
		t.Errorf("round trip: %v", err)
	}

	// A TensorProto file with external data.
	tp, err := onnx.ReadTensorFile(filepath.Join(externalDir, "shape.pb"), 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	if v, err := tp.Ints(); err != nil || !slices.Equal(v, []int64{4, -1}) {
		t.Errorf("shape.pb: %v, %v", v, err)
	}
	if _, err := onnx.ReadTensorFile(filepath.Join(externalDir, "shape.pb"), 63); !errors.Is(err, errcode.ErrLimit) || !strings.Contains(err.Error(), "shape.pb: the file is 64 bytes") {
		t.Errorf("a file over the bound: %v", err)
	}
}

// TestExternalDataEscapes refuses locations outside the model's directory: by their path, and
// through a symbolic link.
func TestExternalDataEscapes(t *testing.T) {
	shape, _ := readFixture(t, "escape.onnx").Graph.Initializer("shape")
	if _, err := shape.ReadExternal(externalDir, 1<<20); !errors.Is(err, errcode.ErrSyntax) ||
		!strings.Contains(err.Error(), `external data location "../shape.bin" is outside the model's directory`) {
		t.Errorf("../: %v", err)
	}
	for _, loc := range []string{"/etc/passwd", "a/../../shape.bin"} {
		u := *shape
		u.External = &onnx.External{Location: loc, Length: -1}
		if _, err := u.ReadExternal(externalDir, 1<<20); !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), "outside the model's directory") {
			t.Errorf("%s: %v", loc, err)
		}
	}
	dir := t.TempDir()
	model := filepath.Join(dir, "model")
	os.Mkdir(model, 0o755)
	os.WriteFile(filepath.Join(dir, "secret.bin"), make([]byte, 64), 0o644)
	if err := os.Symlink(filepath.Join(dir, "secret.bin"), filepath.Join(model, "link.bin")); err != nil {
		t.Skip(err)
	}
	u := *shape
	u.External = &onnx.External{Location: "link.bin", Length: -1}
	if _, err := u.ReadExternal(model, 1<<20); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("a symbolic link out of the directory: %v", err)
	}
	u.External = &onnx.External{Location: "../model/x.bin", Length: -1}
	if _, err := u.ReadExternal(model, 1<<20); !errors.Is(err, errcode.ErrSyntax) {
		t.Errorf("../model/x.bin: %v", err)
	}
	os.WriteFile(filepath.Join(model, "short.bin"), make([]byte, 20), 0o644)
	u.External = &onnx.External{Location: "short.bin", Offset: 8, Length: -1}
	if _, err := u.ReadExternal(model, 1<<20); !errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), "offset 8 + size 16 is past the end of the file (20 bytes)") {
		t.Errorf("short file: %v", err)
	}
}

func TestExternalFiles(t *testing.T) {
	m, err := onnx.Open(filepath.Join("..", "testdata", "external", "model.onnx"), 0)
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	files := m.Graph.ExternalFiles()
	if !slices.Equal(files, []string{"shape.bin", "weights.bin"}) {
		t.Fatalf("ExternalFiles %q, want [shape.bin weights.bin] (weights.bin is not there)", files)
	}
	from := filepath.Join("..", "testdata", "external")
	elsewhere := t.TempDir()
	withCopy := t.TempDir()
	b, err := os.ReadFile(filepath.Join(from, "shape.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(withCopy, "shape.bin"), b, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		files    []string
		from, to string
		ok       bool
	}{
		{files, from, from, true},
		{files, from, filepath.Join(from, "."), true},
		{files, from, elsewhere, false},
		{files, from, withCopy, false}, // a copy is not the same file: it may change apart
		{[]string{"missing.bin"}, from, elsewhere, true},
		{nil, from, elsewhere, true},
	} {
		err := onnx.CheckExternalDir(tt.files, tt.from, tt.to)
		if (err == nil) != tt.ok || err != nil && (!errors.Is(err, errcode.ErrSyntax) || !strings.Contains(err.Error(), "would name a file that is not there")) {
			t.Errorf("CheckExternalDir(%q, %s, %s): %v, want ok %v", tt.files, tt.from, tt.to, err, tt.ok)
		}
	}
}
