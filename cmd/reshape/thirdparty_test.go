package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// thirdParty is the module of testdata/thirdparty: programs that use the library as a module
// outside the repository does, through a replace directive, with only its exported API.
const thirdParty = "../../testdata/thirdparty"

// TestThirdParty builds the programs of the module testdata/thirdparty, offline (GOWORK=off,
// GOFLAGS=-mod=mod, GOPROXY=off: it needs no module the library does not), and runs the README's
// sessions of them: each ```shell-session block whose commands are "$ go run ./PROGRAM ARGS",
// run in testdata/thirdparty, must print what it shows ("..." standing for lines left out, as in
// TestREADME), and the ```go block before it must be testdata/thirdparty/PROGRAM/main.go. A
// session that names ../shared is skipped when it is missing (testenv.Shared), or fails with
// RESHAPE_SHARED=require.
func TestThirdParty(t *testing.T) {
	md, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	sessions := fencedBlocks(md, "shell-session")
	if len(sessions) == 0 {
		t.Fatal("README.md has no shell-session block of the programs of testdata/thirdparty")
	}
	bin := t.TempDir()
	build := exec.Command("go", "build", "-o", bin, "./...")
	build.Dir = thirdParty
	build.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=mod", "GOPROXY=off")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build in %s: %v\n%s", thirdParty, err, out)
	}
	goBlocks := fencedBlocks(md, "go")
	programs := map[string]bool{}
	for _, s := range sessions {
		t.Run(fmt.Sprintf("README.md:%d", s.line), func(t *testing.T) {
			text := strings.Split(strings.TrimSuffix(s.text, "\n"), "\n")
			for i := 0; i < len(text); {
				args, ok := strings.CutPrefix(text[i], "$ go run ./")
				if !ok {
					t.Fatalf("README.md:%d: %q: want a command $ go run ./PROGRAM ARGS", s.line+i, text[i])
				}
				j := i + 1
				for j < len(text) && !strings.HasPrefix(text[j], "$ ") {
					j++
				}
				words := strings.Fields(args)
				program := words[0]
				programs[program] = true
				checkProgramBlock(t, goBlocks, s.line, program)
				requireShared(t, text[i])
				cmd := exec.Command(filepath.Join(bin, program), words[1:]...)
				cmd.Dir = thirdParty
				var out bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &out
				if err := cmd.Run(); err != nil {
					t.Fatalf("README.md:%d: %s: %v\n%s", s.line+i, text[i], err, out.Bytes())
				}
				if got := lines(strings.TrimSuffix(out.String(), "\n")); !matchOutput(got, text[i+1:j]) {
					t.Errorf("README.md:%d: %s prints\n%s\nwant\n%s", s.line+i, text[i], out.Bytes(), strings.Join(text[i+1:j], "\n"))
				}
				i = j
			}
		})
	}
	entries, err := os.ReadDir(thirdParty)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if e.IsDir() && !programs[e.Name()] {
			t.Errorf("README.md runs no program ./%s of testdata/thirdparty", e.Name())
		}
	}
}

// checkProgramBlock requires the last Go block of the README before its line line to be the
// source of the program of testdata/thirdparty.
func checkProgramBlock(t *testing.T, goBlocks []block, line int, program string) {
	t.Helper()
	src, err := os.ReadFile(filepath.Join(thirdParty, program, "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	var last *block
	for i := range goBlocks {
		if goBlocks[i].line < line {
			last = &goBlocks[i]
		}
	}
	if last == nil || last.text != string(src) {
		t.Errorf("README.md:%d: the Go block before the session is not testdata/thirdparty/%s/main.go; copy it from there:\n%s", line, program, src)
	}
}
