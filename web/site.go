package web

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// EnginePackage is the import path of the web app's engine, built for GOOS=js GOARCH=wasm.
const EnginePackage = "github.com/reshape-go/reshape/cmd/reshape-wasm"

// WriteSite writes the web app to the directory dir, which it creates: the page's files (Static)
// and the engine, reshape.wasm, with wasm_exec.js, the glue of the Go toolchain that built it. The
// engine is built by the go command on PATH (BuildEngine), in the module of the working directory,
// which must be this module or one that requires it. The folder is the whole site: any static web
// server serves it. The errors are the file system's and the go command's, with its output.
func WriteSite(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	err := fs.WalkDir(Static(), ".", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Static(), path)
		if err != nil {
			return err
		}
		out := filepath.Join(dir, filepath.FromSlash(path))
		if err := os.MkdirAll(filepath.Dir(out), 0o755); err != nil {
			return err
		}
		return os.WriteFile(out, b, 0o644)
	})
	if err != nil {
		return err
	}
	return BuildEngine(dir)
}

// BuildEngine builds the engine (EnginePackage) into dir/reshape.wasm with the go command on PATH,
// and copies the toolchain's wasm_exec.js beside it (from GOROOT/lib/wasm, or misc/wasm before Go
// 1.24). The error of a failed build carries the go command's output.
func BuildEngine(dir string) error {
	build := exec.Command("go", "build", "-trimpath", "-o", filepath.Join(dir, "reshape.wasm"), EnginePackage)
	build.Env = append(os.Environ(), "GOOS=js", "GOARCH=wasm")
	var out bytes.Buffer
	build.Stdout, build.Stderr = &out, &out
	if err := build.Run(); err != nil {
		return fmt.Errorf("go build %s for GOOS=js GOARCH=wasm: %w\n%s", EnginePackage, err, strings.TrimSpace(out.String()))
	}
	root, err := exec.Command("go", "env", "GOROOT").Output()
	if err != nil {
		return fmt.Errorf("go env GOROOT: %w", err)
	}
	for _, sub := range []string{"lib/wasm", "misc/wasm"} {
		b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), sub, "wasm_exec.js"))
		if err == nil {
			return os.WriteFile(filepath.Join(dir, "wasm_exec.js"), b, 0o644)
		}
	}
	return fmt.Errorf("wasm_exec.js is not in %s/lib/wasm nor misc/wasm", strings.TrimSpace(string(root)))
}
