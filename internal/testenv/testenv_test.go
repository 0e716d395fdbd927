package testenv

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// tree makes a module beside a shared directory, top/mod (with go.mod and a package directory pkg)
// and top/shared/realdata/onnx/m.onnx, and moves into top/mod/pkg; it returns top.
func tree(t *testing.T) string {
	top := t.TempDir()
	for _, dir := range []string{"mod/pkg", "shared/realdata/onnx"} {
		if err := os.MkdirAll(filepath.Join(top, dir), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, file := range []string{"mod/go.mod", "shared/realdata/onnx/m.onnx"} {
		if err := os.WriteFile(filepath.Join(top, file), []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(filepath.Join(top, "mod", "pkg"))
	return top
}

// recorder is a testing.TB that records a skip or a failure and stops the goroutine, as the real
// ones do.
type recorder struct {
	testing.TB
	skipped, failed string
}

func (r *recorder) Helper() {}
func (r *recorder) Skipf(format string, args ...any) {
	r.skipped = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatalf(format string, args ...any) {
	r.failed = fmt.Sprintf(format, args...)
	runtime.Goexit()
}
func (r *recorder) Fatal(args ...any) {
	r.failed = fmt.Sprint(args...)
	runtime.Goexit()
}

// call runs f with a recorder in a goroutine of its own, and returns what f returned and the
// recorder.
func call(t *testing.T, f func(testing.TB) string) (string, *recorder) {
	r := &recorder{TB: t}
	var got string
	done := make(chan struct{})
	go func() {
		defer close(done)
		got = f(r)
	}()
	<-done
	return got, r
}

func TestShared(t *testing.T) {
	tree(t)
	tests := []struct {
		env, rel        string
		want            string
		skipped, failed string
	}{
		{"", "realdata/onnx", filepath.Join("..", "..", "shared", "realdata", "onnx"), "", ""},
		{"require", "realdata/onnx/m.onnx", filepath.Join("..", "..", "shared", "realdata", "onnx", "m.onnx"), "", ""},
		{"", "", filepath.Join("..", "..", "shared"), "", ""},
		{"", "conformance/cases.jsonl", "", "../shared/conformance/cases.jsonl is missing: skipped (the shared data beside the repository; RESHAPE_SHARED=require fails instead)", ""},
		{"require", "conformance/cases.jsonl", "", "", "../shared/conformance/cases.jsonl is missing (RESHAPE_SHARED=require: the shared data beside the repository is required)"},
		{"yes", "realdata", "", "", `RESHAPE_SHARED="yes": want require, or unset`},
	}
	for _, tt := range tests {
		t.Setenv(SharedEnv, tt.env)
		got, r := call(t, func(tb testing.TB) string { return Shared(tb, tt.rel) })
		if got != tt.want || r.skipped != tt.skipped || r.failed != tt.failed {
			t.Errorf("%s=%q Shared(%q) = %q, skipped %q, failed %q\nwant %q, skipped %q, failed %q", SharedEnv, tt.env, tt.rel, got, r.skipped, r.failed, tt.want, tt.skipped, tt.failed)
		}
	}
}

func TestResolve(t *testing.T) {
	tree(t)
	t.Setenv(SharedEnv, "require")
	for _, c := range []struct{ name, want, failed string }{
		{"testdata/models/x.onnx", filepath.Join("..", "testdata", "models", "x.onnx"), ""},
		{"../shared/realdata/onnx/m.onnx", filepath.Join("..", "..", "shared", "realdata", "onnx", "m.onnx"), ""},
		{"../shared/realdata/onnx/gone.onnx", "", "../shared/realdata/onnx/gone.onnx is missing (RESHAPE_SHARED=require: the shared data beside the repository is required)"},
	} {
		got, r := call(t, func(tb testing.TB) string { return Resolve(tb, c.name) })
		if got != c.want || r.failed != c.failed {
			t.Errorf("Resolve(%q) = %q, failed %q; want %q, failed %q", c.name, got, r.failed, c.want, c.failed)
		}
	}
}

// TestKeyPath requires the path the test cache keys on to lie lexically inside the module's root
// (go test ignores the files outside it) and to be the shared file itself.
func TestKeyPath(t *testing.T) {
	top := tree(t)
	up, abs, err := moduleRoot()
	if err != nil || up != ".." {
		t.Fatalf("moduleRoot = %q, %q, %v; want ..", up, abs, err)
	}
	key := keyPath(abs, up, "realdata/onnx/m.onnx")
	root := filepath.Join(top, "mod") + string(filepath.Separator)
	if !strings.HasPrefix(key, root) || filepath.Clean(key) == key {
		t.Errorf("keyPath = %q: want a path that starts with %q and is not clean", key, root)
	}
	a, err1 := os.Stat(key)
	b, err2 := os.Stat(filepath.Join(top, "shared", "realdata", "onnx", "m.onnx"))
	if err1 != nil || err2 != nil || !os.SameFile(a, b) {
		t.Errorf("keyPath %q is not the shared file: %v, %v", key, err1, err2)
	}
}

func TestLookupShared(t *testing.T) {
	tree(t)
	for _, c := range []struct {
		env, rel, want string
		ok             bool
		failed         string
	}{
		{"", "realdata/onnx", filepath.Join("..", "..", "shared", "realdata", "onnx"), true, ""},
		{"", "conformance/onnx", "", false, ""},
		{"require", "conformance/onnx", "", false, "../shared/conformance/onnx is missing (RESHAPE_SHARED=require: the shared data beside the repository is required)"},
	} {
		t.Setenv(SharedEnv, c.env)
		var ok bool
		got, r := call(t, func(tb testing.TB) string {
			path, found := LookupShared(tb, c.rel)
			ok = found
			return path
		})
		if got != c.want || ok != c.ok || r.failed != c.failed || r.skipped != "" {
			t.Errorf("%s=%q LookupShared(%q) = %q, %v, failed %q, skipped %q; want %q, %v, failed %q", SharedEnv, c.env, c.rel, got, ok, r.failed, r.skipped, c.want, c.ok, c.failed)
		}
	}
}

func TestLong(t *testing.T) {
	for _, c := range []struct {
		env    string
		long   bool
		failed string
	}{
		{"", false, ""},
		{"1", true, ""},
		{"yes", false, `RESHAPE_LONG="yes": want 1, or unset`},
	} {
		t.Setenv(LongEnv, c.env)
		var long bool
		_, r := call(t, func(tb testing.TB) string {
			long = Long(tb)
			return ""
		})
		var count int
		_, _ = call(t, func(tb testing.TB) string {
			count = Count(tb, 10, 1000)
			return ""
		})
		if want := map[bool]int{false: 10, true: 1000}[c.long]; count != want && c.failed == "" {
			t.Errorf("%s=%q: Count = %d, want %d", LongEnv, c.env, count, want)
		}
		if long != c.long || r.failed != c.failed {
			t.Errorf("%s=%q: Long = %v, failed %q; want %v, failed %q", LongEnv, c.env, long, r.failed, c.long, c.failed)
		}
	}
}
