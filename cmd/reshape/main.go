// Command reshape infers and checks the tensor Reshape operation as the OpenVINO, oneDNN Graph and
// ONNX specifications define it.
//
// Usage:
//
//	reshape infer [--dialect D] --special-zero=true|false [--json] INPUT PATTERN
//	reshape infer --batch FILE
//	reshape apply [--dialect D] --special-zero=true|false --pattern P IN OUT
//	reshape check [--bin PATH] [--run] [--json] [FILE|DIR...]
//	reshape shapes [--json] [--write OUT.onnx] MODEL.onnx|MODEL.xml|GRAPH.json
//	reshape fix [--export NAME=VALUE]... [--json] MODEL.onnx|MODEL.xml OUT.onnx|OUT.xml
//	reshape run-onnx-test [--json] DIR...
//	reshape translate --from D --to D2 --special-zero=true|false [--json] PATTERN
//	reshape map [--x SYMBOL] [--y SYMBOL] [--range LO..HI] -o OUT.svg MODEL
//	reshape report -o OUT.html MODEL
//	reshape serve [--addr 127.0.0.1:8080] | --write DIR
//
// Run "reshape help" or "reshape COMMAND --help" for the details.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/report"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// env is what a command runs with: its standard streams.
type env struct {
	stdin          io.Reader
	stdout, stderr io.Writer
	// colorOut and colorErr say whether stdout and stderr may show colour: they are terminals and
	// NO_COLOR is not set.
	colorOut, colorErr bool
	// sig stops the outputs being written on SIGINT and SIGTERM.
	sig *signals
	// width is the width of the terminal stdout is, 0 when it is not one: tables keep to it.
	width int
	// names names the sizes computed in floating point that check and shapes write (floatNames);
	// nil for the other commands, which write them whole.
	names *floatNames
}

type command struct {
	name, summary, usage string
	run                  func(e *env, args []string) int
}

// commands lists the commands, in the order the usage shows them. It is set in init, since the
// commands' run functions name their command.
var commands []*command

func init() {
	inferCommand.run = runInfer
	applyCommand.run = runApply
	checkCommand.run = runCheck
	onnxTestCommand.run = runONNXTest
	translateCommand.run = runTranslate
	shapesCommand.run = runShapes
	fixCommand.run = runFix
	mapCommand.run = runMap
	reportCommand.run = runReport
	serveCommand.run = runServe
	commands = []*command{inferCommand, applyCommand, checkCommand, shapesCommand, fixCommand, mapCommand, reportCommand, serveCommand, onnxTestCommand, translateCommand}
}

const mainUsage = `reshape checks the tensor Reshape operation as the OpenVINO (Reshape-1), oneDNN
Graph (StaticReshape-1, DynamicReshape-1) and ONNX (Reshape-14) specifications
define it.

Usage:
  reshape COMMAND [flags] [arguments]

Commands:
%s
Run "reshape COMMAND --help" for a command's flags and examples, and
"reshape --version" for the version. Colour is used on terminals only, and never
when NO_COLOR is set.

Exit status: 0 success; 1 an invalid reshape or a model that disagrees with the
spec; 2 a usage error or a file that cannot be read; 130 or 143 when SIGINT or
SIGTERM stops it, and then nothing is left of an output file.
`

// run runs the command line args and returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	e := &env{stdin: stdin, stdout: stdout, stderr: stderr,
		colorOut: useColor(stdout, os.Getenv, isTerminal), colorErr: useColor(stderr, os.Getenv, isTerminal), sig: watchSignals(),
		width: terminalWidth(stdout)}
	defer e.sig.stop()
	if len(args) == 0 {
		printMainUsage(stderr)
		return 2
	}
	switch args[0] {
	case "version", "-version", "--version":
		fmt.Fprintln(stdout, version())
		return 0
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if c := lookup(args[1]); c != nil {
				fmt.Fprint(stdout, c.usage)
				return 0
			}
		}
		printMainUsage(stdout)
		return 0
	}
	c := lookup(args[0])
	if c == nil {
		var names []string
		for _, c := range commands {
			names = append(names, c.name)
		}
		fmt.Fprintf(stderr, "reshape: unknown command %q%s\n\n", args[0], didYouMean(args[0], names))
		printMainUsage(stderr)
		return 2
	}
	return c.run(e, args[1:])
}

func lookup(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func printMainUsage(w io.Writer) {
	list := ""
	for _, c := range commands {
		list += fmt.Sprintf("  %-14s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, mainUsage, list)
}

// fail reports err the way every command does and returns the exit status: --help prints the usage
// and gives 0; a usage error prints the command's synopsis, says how to get its full usage, and gives
// 2; other errors print "reshape: CODE: message" and give 2 when a file or an argument causes them
// (exitStatus), 1 for an invalid reshape.
func (e *env) fail(c *command, err error) int {
	var ue *usageError
	switch {
	case errors.Is(err, flag.ErrHelp):
		fmt.Fprint(e.stdout, c.usage)
		return 0
	case errors.As(err, &ue):
		synopsis, _, _ := strings.Cut(c.usage, "\n\n")
		fmt.Fprintf(e.stderr, "reshape %s: %v\n\n%s\n\nRun \"reshape %s --help\" for the flags and examples.\n", c.name, err, synopsis, c.name)
		return 2
	}
	if ie, ok := e.sig.errInterrupted(err); ok {
		fmt.Fprintf(e.stderr, "reshape: %v\n", ie)
		return ie.status()
	}
	e.report(err)
	return exitStatus(err)
}

// exitStatus returns the exit status of an error that is not a usage error: 2 for one that a file
// or an argument causes (marked by badInput, or an error of the operating system), 1 otherwise.
func exitStatus(err error) int {
	var ie *inputError
	if errors.As(err, &ie) || errors.Is(errcode.IO(err), errcode.ErrIO) {
		return 2
	}
	return 1
}

// report prints err as "reshape: CODE: message" (an error of the operating system has the code
// io), or "reshape: message" when it has no code.
func (e *env) report(err error) {
	if code := errcode.Code(errcode.IO(err)); code != "" {
		fmt.Fprintf(e.stderr, "reshape: %s: %v\n", paint(e.colorErr, red, code), err)
		return
	}
	fmt.Fprintf(e.stderr, "reshape: %v\n", err)
}

// version returns the command's version (report.Version).
func version() string { return report.Version() }
