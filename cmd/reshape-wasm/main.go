//go:build js && wasm

// Command reshape-wasm is the engine of reshape's web app, compiled to WebAssembly (GOOS=js
// GOARCH=wasm): the page (web/static/app.js) serves the files dropped on it as a file system
// (globalThis.fs, read by slices of the File objects, nothing uploaded), and calls the functions
// this program puts in globalThis.reshape:
//
//	reshape.check(path, options) -> Promise of the report's data as JSON (report.Model)
//	reshape.fix(path, options)   -> Promise of {model: Uint8Array or null, text: string, rewrites: number}
//	reshape.version              -> the engine's version
//
// options is a JSON string: {"dims": {"N": 1}, "inputs": {"x": "[1,3,H,W]"}, "batch_size": 0,
// "bin": "", "export": {"N": 1}}. "reshape serve" and "reshape serve --write DIR" build and serve it.
package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
	"syscall/js"

	"github.com/reshape-go/reshape/check"
	"github.com/reshape-go/reshape/fix"
	"github.com/reshape-go/reshape/onnx"
	"github.com/reshape-go/reshape/report"
)

// options are what the page asks of a check or a fix.
type options struct {
	Dims      map[string]int64  `json:"dims"`
	Inputs    map[string]string `json:"inputs"`
	BatchSize int64             `json:"batch_size"`
	Bin       string            `json:"bin"`
	Export    map[string]int64  `json:"export"`
}

func main() {
	api := js.Global().Get("Object").New()
	api.Set("check", promised(checkModel))
	api.Set("fix", promised(fixModel))
	api.Set("version", report.Version())
	js.Global().Set("reshape", api)
	js.Global().Call("dispatchEvent", js.Global().Get("Event").New("reshape-ready"))
	select {}
}

// promised wraps f as a JavaScript function of (path, options) that returns a Promise: f runs in a
// goroutine of its own, since it reads files through callbacks of the event loop.
func promised(f func(path string, opt options) (any, error)) js.Func {
	return js.FuncOf(func(this js.Value, args []js.Value) any {
		path, raw := args[0].String(), "{}"
		if len(args) > 1 && args[1].Type() == js.TypeString {
			raw = args[1].String()
		}
		return js.Global().Get("Promise").New(js.FuncOf(func(this js.Value, pr []js.Value) any {
			resolve, reject := pr[0], pr[1]
			go func() {
				var opt options
				var v any
				err := json.Unmarshal([]byte(raw), &opt)
				if err == nil {
					v, err = f(path, opt)
				}
				if err != nil {
					reject.Invoke(js.Global().Get("Error").New(err.Error()))
					return
				}
				resolve.Invoke(v)
			}()
			return nil
		}))
	})
}

// checkModel checks the model at path and returns its report's data as JSON.
func checkModel(path string, opt options) (any, error) {
	m, err := report.Load(path, report.Options{Check: check.Options{Dims: opt.Dims, Inputs: opt.Inputs, BatchSize: opt.BatchSize, BinPath: opt.Bin}})
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(m)
	if err != nil {
		return nil, err
	}
	return string(b), nil
}

// fixModel rewrites the sizes the exporter baked into the Reshape patterns of the ONNX model at
// path (package fix), proves the fixed model decoded again, and returns it with what was done.
// With nothing rewritten its model is null and its text says that nothing is written, as
// "reshape fix" writes nothing then: the model would be the input again, byte for byte, and
// it is neither encoded nor proven.
func fixModel(path string, opt options) (any, error) {
	m, err := onnx.Open(path, 0)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	defer m.Close()
	f, err := fix.Find(m, filepath.Dir(path), fix.Options{Export: opt.Export})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	var text []string
	for _, r := range f.Rewrites {
		text = append(text, fmt.Sprintf("%s: %v -> %v", r.Node, r.Before, r.After))
	}
	for _, l := range f.Left {
		text = append(text, fmt.Sprintf("%s: left as it is: %s", l.Node, l.Why))
	}
	for _, c := range f.Remaining() {
		text = append(text, fmt.Sprintf("remains: %s  %s", c.Pred, c.Origin))
	}
	summary := fmt.Sprintf("%d rewritten, %d left as they are", len(f.Rewrites), len(f.Left))
	model := js.Null()
	if len(f.Rewrites) == 0 {
		summary += ", so nothing is written"
	} else {
		var buf bytes.Buffer
		if _, err := f.WriteTo(&buf); err != nil {
			return nil, err
		}
		written, err := onnx.DecodeModel(buf.Bytes())
		if err == nil {
			err = f.Verify(written)
		}
		if err != nil {
			return nil, fmt.Errorf("the fixed model was not made: %w", err)
		}
		model = js.Global().Get("Uint8Array").New(buf.Len())
		js.CopyBytesToJS(model, buf.Bytes())
	}
	res := js.Global().Get("Object").New()
	res.Set("model", model)
	res.Set("text", strings.Join(append(text, summary), "\n"))
	res.Set("rewrites", len(f.Rewrites))
	return res, nil
}
