// Package testenv says what the tests may read and how long they may run: the data of ../shared
// beside the repository (the specs, the conformance cases and the real models), and the long tier.
//
// A test asks for the path of the shared data it reads: dir := testenv.Shared(t, "realdata/onnx").
// When the path is missing, the test is skipped and says how to require it; with the environment
// variable RESHAPE_SHARED=require (which .ci/run sets) it fails instead, naming the path.
//
// A test that sweeps exhaustively runs a representative sample unless testenv.Long(t) reports that
// RESHAPE_LONG=1 (which .ci/run sets) asks for the long tier. The tests that drive headless
// Chromium run only when RESHAPE_BROWSER asks for them (Browser).
//
// Go's test cache keys a cached result on the environment variables a test read and on the files
// it opened or stat'ed through package os, but only on files inside the module's root: ../shared
// is outside it, so a plain os.Stat("../../shared/...") leaves a cached skip in place after
// ../shared appears. Shared therefore names what it looks at by a path that is lexically inside the
// root and resolves to ../shared ("<package dir>/../../shared/realdata"): it stats that path, and
// lists every directory below it, so that the cached result is dropped when the path appears or
// goes, or when a file below it is added, removed or rewritten (its size or time changes). Both
// variables are read through os, so that the cache keys on them too.
package testenv

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// SharedEnv is the environment variable that says whether ../shared is required: "require" fails a
// test whose data is missing; unset or empty skips it.
const SharedEnv = "RESHAPE_SHARED"

// LongEnv is the environment variable that runs the long tier: "1" runs it; unset or empty runs the
// sample.
const LongEnv = "RESHAPE_LONG"

// Long reports whether the long tier runs (RESHAPE_LONG=1); another non-empty value fails tb.
func Long(tb testing.TB) bool {
	tb.Helper()
	switch v := os.Getenv(LongEnv); v {
	case "":
		return false
	case "1":
		return true
	default:
		tb.Fatalf("%s=%q: want 1, or unset", LongEnv, v)
		return false
	}
}

// BrowserEnv is the environment variable that runs the browser tests (headless Chromium, the npm
// models): "1" runs them and skips those whose Chromium or models are missing; "require" fails
// those instead; unset or empty skips them all, so that go test ./... stays fast.
const BrowserEnv = "RESHAPE_BROWSER"

// Browser skips tb unless RESHAPE_BROWSER asks for the browser tests; another value than 1 or
// require fails tb.
func Browser(tb testing.TB) {
	tb.Helper()
	if v := os.Getenv(BrowserEnv); v == "" {
		tb.Skipf("a browser test: %s=1 runs it (%s=require fails it when Chromium or the npm models are missing)", BrowserEnv, BrowserEnv)
	} else if v != "1" && v != "require" {
		tb.Fatalf("%s=%q: want 1 or require, or unset", BrowserEnv, v)
	}
}

// Need skips tb for what is missing (a program, a model that npm installs), or fails it when
// RESHAPE_BROWSER=require.
func Need(tb testing.TB, what string) {
	tb.Helper()
	if os.Getenv(BrowserEnv) == "require" {
		tb.Fatalf("%s (%s=require)", what, BrowserEnv)
	}
	tb.Skip(what)
}

// Count returns the number of cases a random sweep takes: all in the long tier (Long), else sample,
// a fast representative share of them (the first ones of the same sequence).
func Count(tb testing.TB, sample, all int) int {
	tb.Helper()
	if Long(tb) {
		return all
	}
	return sample
}

// Shared returns the path of ../shared/rel (rel in slash form, "" for ../shared itself) relative to
// the test's working directory, its package's directory: "../../shared/realdata" from package graph
// for "realdata". When it is missing, tb is skipped, or fails with RESHAPE_SHARED=require; an unknown
// value of RESHAPE_SHARED fails tb too.
func Shared(tb testing.TB, rel string) string {
	tb.Helper()
	path, err := lookup(tb, rel)
	if err != nil {
		tb.Skipf("%v: skipped (the shared data beside the repository; %s=require fails instead)", err, SharedEnv)
	}
	return path
}

// LookupShared is Shared for data a test can do without, such as the seeds of a fuzz target: when
// ../shared/rel is missing it returns false and leaves tb running, unless RESHAPE_SHARED=require,
// which fails tb.
func LookupShared(tb testing.TB, rel string) (path string, ok bool) {
	tb.Helper()
	path, err := lookup(tb, rel)
	return path, err == nil
}

// lookup returns the path of ../shared/rel, or the error that it is missing; it fails tb when
// RESHAPE_SHARED requires the path or has an unknown value.
func lookup(tb testing.TB, rel string) (string, error) {
	tb.Helper()
	required, err := requiredByEnv()
	if err != nil {
		tb.Fatal(err)
	}
	path, err := look(rel)
	if err != nil && required {
		tb.Fatalf("%v (%s=require: the shared data beside the repository is required)", err, SharedEnv)
	}
	return path, err
}

// Resolve returns the path, relative to the test's working directory, of a file that a fixture names
// from the repository's root: "testdata/models/x.onnx" for the repository's own, "../shared/..."
// for the shared data, which is Shared's (a skip or a failure when it is missing).
func Resolve(tb testing.TB, name string) string {
	tb.Helper()
	if rest, ok := strings.CutPrefix(name, "../shared/"); ok {
		return Shared(tb, rest)
	}
	up, _, err := moduleRoot()
	if err != nil {
		tb.Fatal(err)
	}
	return filepath.Join(up, filepath.FromSlash(name))
}

// requiredByEnv reads RESHAPE_SHARED through os, so that the test cache keys on it.
func requiredByEnv() (bool, error) {
	switch v := os.Getenv(SharedEnv); v {
	case "":
		return false, nil
	case "require":
		return true, nil
	default:
		return false, fmt.Errorf("%s=%q: want require, or unset", SharedEnv, v)
	}
}

// look returns the path of ../shared/rel relative to the working directory, after the test cache has
// been told of it (keyPath): its stat, and the listing of every directory below it. The error names
// the path as the tests see it ("../shared/rel") when it is missing.
func look(rel string) (string, error) {
	up, abs, err := moduleRoot()
	if err != nil {
		return "", err
	}
	key := keyPath(abs, up, rel)
	path := filepath.Join(up, "..", "shared", filepath.FromSlash(rel))
	info, err := os.Stat(key)
	if err != nil {
		name := "../shared"
		if rel != "" {
			name += "/" + rel
		}
		if errors.Is(err, os.ErrNotExist) {
			return "", fmt.Errorf("%s is missing", name)
		}
		return "", fmt.Errorf("%s: %w", name, err)
	}
	if info.IsDir() {
		if err := list(key); err != nil {
			return "", err
		}
	}
	return path, nil
}

// keyPath returns the path of ../shared/rel that the test cache keys on: the working directory abs,
// then up (its way up to the module's root) and "../shared/rel", joined without cleaning, so that
// the path stays lexically inside the module's root (go test's check is lexical) while it resolves
// to ../shared.
func keyPath(abs, up, rel string) string {
	key := abs + string(filepath.Separator) + up + string(filepath.Separator) + ".." + string(filepath.Separator) + "shared"
	if rel != "" {
		key += string(filepath.Separator) + filepath.FromSlash(rel)
	}
	return key
}

// list opens every directory at and below dir, by paths that extend dir without cleaning it: go test
// keys on the names, sizes and times of each directory's entries.
func list(dir string) error {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	for _, e := range entries {
		if e.IsDir() {
			if err := list(dir + string(filepath.Separator) + e.Name()); err != nil {
				return err
			}
		}
	}
	return nil
}

// moduleRoot returns the way up from the working directory to the root of the module (the nearest
// directory with a go.mod), as a relative path ("." at the root, "../.." two levels down), and the
// working directory.
func moduleRoot() (up, abs string, err error) {
	abs, err = os.Getwd()
	if err != nil {
		return "", "", err
	}
	up = "."
	for dir := abs; ; dir = filepath.Dir(dir) {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return up, abs, nil
		}
		if filepath.Dir(dir) == dir {
			return "", "", fmt.Errorf("no go.mod at or above %s", abs)
		}
		if up == "." {
			up = ".."
		} else {
			up += string(filepath.Separator) + ".."
		}
	}
}
