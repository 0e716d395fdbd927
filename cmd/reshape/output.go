package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/reshape-go/reshape/errcode"
)

// Output files are written through a temporary file in their directory, renamed into place only
// when the whole output is written: on an error, or on SIGINT or SIGTERM, the temporary file is
// removed and nothing is left at the path. "-" is stdout, written as it goes.

// interruptError is the error of a command stopped by a signal: it exits 128 + the signal's number.
type interruptError struct{ sig os.Signal }

func (e *interruptError) Error() string {
	return "interrupted (" + e.sig.String() + "): nothing was written"
}

// status returns the exit status of a process that a signal stops: 128 + its number.
func (e *interruptError) status() int {
	if s, ok := e.sig.(syscall.Signal); ok {
		return 128 + int(s)
	}
	return 130
}

// signals is what a run does on SIGINT and SIGTERM: the first cancels the run's context, so that
// an output being written stops at its next block and its temporary file is removed; when no
// output is being written, on a second signal, or when the writer has not stopped within
// graceTime (a read waiting on a pipe), the process exits with 128 + the signal's number, after
// removing every temporary file.
type signals struct {
	ctx    context.Context
	cancel context.CancelCauseFunc
	ch     chan os.Signal
	done   chan struct{}

	mu    sync.Mutex
	temps map[string]bool // the temporary files being written
	got   int             // signals received
	grace *time.Timer     // the exit after graceTime
}

// graceTime is how long a writer has to stop after a signal before the process exits: a read that
// waits on a pipe may never return. A second signal exits at once. (A variable for TestInterrupt,
// whose process such an exit would end, however slow a loaded machine makes it.)
var graceTime = 5 * time.Second

// cancelled is called when a signal has cancelled a run that is writing an output: TestInterrupt
// waits for it before it lets the run go on, since a run that ended meanwhile would have the
// signal exit the process.
var cancelled = func() {}

// watchSignals starts watching SIGINT and SIGTERM; stop ends it.
func watchSignals() *signals {
	s := &signals{ch: make(chan os.Signal, 2), done: make(chan struct{}), temps: map[string]bool{}}
	s.ctx, s.cancel = context.WithCancelCause(context.Background())
	signal.Notify(s.ch, os.Interrupt, syscall.SIGTERM)
	go s.loop()
	return s
}

func (s *signals) loop() {
	for {
		select {
		case <-s.done:
			return
		case sig := <-s.ch:
			ie := &interruptError{sig}
			s.mu.Lock()
			s.got++
			s.cancel(ie)
			if len(s.temps) > 0 && s.got == 1 {
				// The writer stops at its next block, and removes its file.
				s.grace = time.AfterFunc(graceTime, func() { s.exit(ie) })
				s.mu.Unlock()
				cancelled()
				continue
			}
			s.mu.Unlock()
			s.exit(ie)
		}
	}
}

// exit removes the temporary files and exits, unless the run has ended.
func (s *signals) exit(ie *interruptError) {
	s.mu.Lock()
	select {
	case <-s.done:
		s.mu.Unlock()
		return
	default:
	}
	for name := range s.temps {
		os.RemoveAll(name) // a file, or the directory of a site
	}
	os.Exit(ie.status())
}

// stop stops watching: signals take their default action again.
func (s *signals) stop() {
	signal.Stop(s.ch)
	s.mu.Lock()
	close(s.done)
	if s.grace != nil {
		s.grace.Stop()
	}
	s.mu.Unlock()
	s.cancel(nil)
}

// createTemp creates a temporary file as os.CreateTemp does, and records it among the files to
// remove on a signal, at once: a signal sees it from its creation. It refuses when the run was
// interrupted already.
func (s *signals) createTemp(dir, pattern string) (*os.File, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if err := context.Cause(s.ctx); err != nil {
		return nil, err
	}
	f, err := os.CreateTemp(dir, pattern)
	if err == nil {
		s.temps[f.Name()] = true
	}
	return f, err
}

// interrupted returns the interruption of the run, nil when there was none.
func (s *signals) interrupted() error { return context.Cause(s.ctx) }

func (s *signals) untrack(name string) {
	s.mu.Lock()
	delete(s.temps, name)
	s.mu.Unlock()
}

// outFile is an output being written: to a temporary file beside path, renamed into place by
// commit, or to stdout for "-". Every write first checks that the run was not interrupted.
type outFile struct {
	path string
	sig  *signals
	tmp  *os.File // nil for stdout
	bw   *bufio.Writer
}

// create starts the output path ("-" for stdout). An error of the file system names path, not the
// temporary file, and exits 2.
func (e *env) create(path string) (*outFile, error) {
	f := &outFile{path: path, sig: e.sig}
	if path == "-" {
		f.bw = bufio.NewWriterSize(e.stdout, 1<<20)
		return f, nil
	}
	if err := outputDirError(path); err != nil {
		return nil, err
	}
	tmp, err := e.sig.createTemp(filepath.Dir(path), "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return nil, outputError(path, err)
	}
	f.tmp, f.bw = tmp, bufio.NewWriterSize(writerFunc(f.write), 1<<20)
	return f, nil
}

// writerFunc is an io.Writer of a function.
type writerFunc func([]byte) (int, error)

func (w writerFunc) Write(p []byte) (int, error) { return w(p) }

// write writes a block of the buffered output to the temporary file, unless the run was
// interrupted.
func (f *outFile) write(p []byte) (int, error) {
	if err := context.Cause(f.sig.ctx); err != nil {
		return 0, err
	}
	return f.tmp.Write(p)
}

// Write buffers p for the output.
func (f *outFile) Write(p []byte) (int, error) { return f.bw.Write(p) }

// commit writes what is buffered and renames the temporary file into place; on an error nothing is
// left at path.
func (f *outFile) commit() (err error) {
	if f.tmp == nil {
		return f.bw.Flush()
	}
	defer func() {
		if err != nil {
			f.abort()
			err = outputError(f.path, err)
		}
	}()
	if err := f.bw.Flush(); err != nil {
		return err
	}
	// A new file gets the usual mode (CreateTemp makes it private); a replaced one keeps its own.
	mode := os.FileMode(0o644)
	if st, err := os.Stat(f.path); err == nil {
		mode = st.Mode().Perm()
	}
	if err := f.tmp.Chmod(mode); err != nil {
		return err
	}
	if err := f.tmp.Close(); err != nil {
		return err
	}
	if err := os.Rename(f.tmp.Name(), f.path); err != nil {
		return err
	}
	f.sig.untrack(f.tmp.Name())
	return nil
}

// abort removes the temporary file. What went to stdout stays there.
func (f *outFile) abort() {
	if f.tmp == nil {
		return
	}
	f.tmp.Close()
	os.Remove(f.tmp.Name())
	f.sig.untrack(f.tmp.Name())
}

// outputDirError returns the error of an output path that is a directory ("is a directory", code io),
// nil for any other path: a command checks its output path before the work.
func outputDirError(path string) error {
	if st, err := os.Stat(path); path != "" && path != "-" && err == nil && st.IsDir() {
		return outputError(path, &fs.PathError{Op: "create", Path: path, Err: syscall.EISDIR})
	}
	return nil
}

// outputPathError checks the output path out of a command that reads the model file model, before
// the work: "-" (stdout) passes; a directory is an io error; a name that does not end in ext (the
// kind of file written, what: "an SVG picture"; ".html" takes ".htm" too), and the model itself,
// which the output would replace, are usage errors. what names the output in the messages ("-o
// map.png", "OUT x.npy").
func outputPathError(flagName, out, model, ext, what string) error {
	if out == "" || out == "-" {
		return nil
	}
	if err := outputDirError(out); err != nil {
		return err
	}
	got := strings.ToLower(filepath.Ext(out))
	if got != ext && !(ext == ".html" && got == ".htm") {
		return usagef("%s %s: writes %s, and the name does not end in %s", flagName, out, what, ext)
	}
	if model == "-" {
		return nil
	}
	a, errA := os.Stat(out)
	b, errB := os.Stat(model)
	if errA == nil && errB == nil && os.SameFile(a, b) {
		return usagef("%s %s: is the model read, which the output would replace: write it to another file", flagName, out)
	}
	return nil
}

// outputError returns an error of writing the output file path: one of the file system (about the
// temporary file, or path's directory) says path once, has the code io and exits 2; others are
// returned as they are.
func outputError(path string, err error) error {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return badInput(errcode.IO(fmt.Errorf("%s: %w", path, pe.Err)))
	case errors.As(err, &le):
		return badInput(errcode.IO(fmt.Errorf("%s: %w", path, le.Err)))
	}
	return err
}

// errInterrupted reports whether err, or the run whose signals s watches, was interrupted, and the
// exit status: an interrupted run fails for that reason, whatever error it met on the way out.
func (s *signals) errInterrupted(err error) (*interruptError, bool) {
	var ie *interruptError
	if errors.As(err, &ie) || errors.As(s.interrupted(), &ie) {
		return ie, true
	}
	return nil, false
}

// writeOutput writes the output path ("-" for stdout) with write, through a temporary file renamed
// into place: on an error of write, nothing is left at path.
func (e *env) writeOutput(path string, write func(io.Writer) error) error {
	f, err := e.create(path)
	if err != nil {
		return err
	}
	if err := write(f); err != nil {
		f.abort()
		return outputError(path, err)
	}
	return f.commit()
}
