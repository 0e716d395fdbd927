package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/reshape-go/reshape/web"
)

var serveCommand = &command{
	name:    "serve",
	summary: "serve the checker in the browser, compiled to WebAssembly",
	usage: `Usage:
  reshape serve [--addr 127.0.0.1:8080]
  reshape serve --write DIR

Builds the web app and serves it: a page on which a model dropped (ONNX, an IR
.xml with its .bin, oneDNN Graph JSON) is checked in the browser by the engine
compiled to WebAssembly, reading only the slices of the file it needs; nothing
is uploaded. The page shows what reshape report shows, has a field per symbol
(--dim), and for an ONNX model offers the model fix rewrites as a download.

The engine is built with the go command (GOOS=js GOARCH=wasm go build of
cmd/reshape-wasm), in the module of the working directory: run it in a checkout
of reshape, or a module that requires it.

Flags:
  --addr HOST:PORT  where to listen (default 127.0.0.1:8080; port 0 picks one)
  --write DIR       write the site (index.html, its scripts, reshape.wasm,
                    wasm_exec.js) to DIR and exit: any static web server serves
                    the folder

Output: "serving http://ADDR/" on stdout, until Ctrl-C (exit status 130); with
--write, the folder.

Exit status: 0 after --write; 130 or 143 when SIGINT or SIGTERM stops the
server; 2 when the engine cannot be built or the address not listened on.

Examples:
  reshape serve
  reshape serve --addr 127.0.0.1:9000
  reshape serve --write site/
`,
}

func runServe(e *env, args []string) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	addr := fs.String("addr", "127.0.0.1:8080", "")
	write := fs.String("write", "", "")
	args, err := parseArgs(fs, args)
	if err != nil {
		return e.fail(serveCommand, err)
	}
	if len(args) != 0 {
		return e.fail(serveCommand, usagef("want no arguments, got %d", len(args)))
	}
	if *write != "" {
		if err := web.WriteSite(*write); err != nil {
			return e.fail(serveCommand, badInput(err))
		}
		fmt.Fprintf(e.stdout, "wrote the site to %s\n", *write)
		return 0
	}
	dir, err := e.sig.tempDir("reshape-site-*")
	if err != nil {
		return e.fail(serveCommand, badInput(err))
	}
	defer e.sig.removeTemp(dir)
	if err := web.WriteSite(dir); err != nil {
		return e.fail(serveCommand, badInput(err))
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return e.fail(serveCommand, badInput(err))
	}
	srv := &http.Server{Handler: noCache(http.FileServer(http.Dir(dir))), ReadHeaderTimeout: 10 * time.Second}
	fmt.Fprintf(e.stdout, "serving http://%s/\n", ln.Addr())
	go func() {
		<-e.sig.ctx.Done()
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		defer cancel()
		srv.Shutdown(ctx)
	}()
	if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
		return e.fail(serveCommand, badInput(err))
	}
	return e.fail(serveCommand, e.sig.interrupted())
}

// noCache serves h's responses with Cache-Control: no-store, so that a page reloaded after a new
// build gets the new engine.
func noCache(h http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Cache-Control", "no-store")
		h.ServeHTTP(w, r)
	})
}

// tempDir creates a temporary directory, which an exit on a signal removes with what it holds.
func (s *signals) tempDir(pattern string) (string, error) {
	dir, err := os.MkdirTemp("", pattern)
	if err != nil {
		return "", err
	}
	s.mu.Lock()
	s.temps[dir] = true
	s.mu.Unlock()
	return dir, nil
}

// removeTemp removes a temporary file or directory and stops tracking it.
func (s *signals) removeTemp(name string) {
	os.RemoveAll(name)
	s.untrack(name)
}
