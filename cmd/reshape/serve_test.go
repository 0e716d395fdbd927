package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestServeWrite writes the static site as the README says (serve --write DIR): the page, its
// scripts, the vendored layout library with its license, and the engine, a WebAssembly module.
func TestServeWrite(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "site")
	var out bytes.Buffer
	if status := run([]string{"serve", "--write", dir}, strings.NewReader(""), &out, &out); status != 0 {
		t.Fatalf("serve --write: exit %d\n%s", status, out.String())
	}
	for _, name := range []string{"index.html", "app.js", "report.js", "report.css", "wasm_exec.js", "vendor/dagre/dagre.min.js", "vendor/dagre/LICENSE"} {
		if st, err := os.Stat(filepath.Join(dir, name)); err != nil || st.Size() == 0 {
			t.Errorf("%s: %v", name, err)
		}
	}
	wasm, err := os.ReadFile(filepath.Join(dir, "reshape.wasm"))
	if err != nil || !bytes.HasPrefix(wasm, []byte("\x00asm")) {
		t.Errorf("reshape.wasm is no WebAssembly module: %v", err)
	}
	if got := out.String(); got != "wrote the site to "+dir+"\n" {
		t.Errorf("stdout %q", got)
	}
}

func TestServeUsage(t *testing.T) {
	for _, args := range [][]string{{"serve", "extra"}, {"map", "-o", "/tmp/x.svg"}, {"map", "m.onnx"}, {"report", "m.onnx"},
		{"map", "--range", "9..1", "-o", "/tmp/x.svg", "m.onnx"}, {"map", "--y", "W", "-o", "/tmp/x.svg", "m.onnx"}} {
		var out bytes.Buffer
		if status := run(args, strings.NewReader(""), &out, &out); status != 2 || !strings.Contains(out.String(), "Run \"reshape "+args[0]+" --help\"") {
			t.Errorf("%q: exit %d, %q; want a usage error", args, status, out.String())
		}
	}
}

// TestMapErrors: a model that cannot be read, or an axis that is no symbol of the model, is an error
// (exit 2) that leaves no file at OUT.
func TestMapErrors(t *testing.T) {
	for _, c := range []struct {
		args []string
		msg  string
	}{
		{[]string{"map", "../../testdata/models/missing.onnx"}, "no such file"},
		{[]string{"map", "--x", "Q", "../../testdata/models/idioms.onnx"}, `axis "Q": not a symbol of the model (its symbols: N, H, W)`},
	} {
		out := filepath.Join(t.TempDir(), "map.svg")
		var stdout bytes.Buffer
		args := append([]string{c.args[0], "-o", out}, c.args[1:]...)
		if status := run(args, strings.NewReader(""), &stdout, &stdout); status != 2 || !strings.Contains(stdout.String(), c.msg) {
			t.Errorf("%q: exit %d, %q; want 2 and %q", args, status, stdout.String(), c.msg)
		}
		if _, err := os.Stat(out); err == nil {
			t.Errorf("%q left %s", args, out)
		}
	}
}
