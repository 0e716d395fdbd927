package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/element"
)

// usageError is a command line the command cannot run: it exits 2 and prints the usage.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// inputError is an error that a file or an argument causes, rather than an invalid reshape: the
// command exits 2.
type inputError struct{ err error }

func (e *inputError) Error() string { return e.err.Error() }
func (e *inputError) Unwrap() error { return e.err }

// badInput marks err as caused by a file or an argument (exit 2). It returns nil for nil.
func badInput(err error) error {
	if err == nil {
		return nil
	}
	return &inputError{err}
}

// parseArgs parses flags anywhere among the positional arguments, as people type them
// ("reshape infer '[2,3]' 6 --special-zero=false"). An argument that starts with '-' followed by a
// digit is positional ("-1,0" is a pattern, not a flag); "--" ends the flags.
func parseArgs(fs *flag.FlagSet, args []string) ([]string, error) {
	fs.SetOutput(io.Discard)
	var flags, positional []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			positional = append(positional, args[i+1:]...)
			i = len(args)
		case len(a) > 1 && a[0] == '-' && !looksNumeric(a[1:]):
			flags = append(flags, a)
			name := strings.TrimLeft(a, "-")
			if strings.Contains(name, "=") {
				continue
			}
			if f := fs.Lookup(name); f != nil && !isBoolFlag(f) && i+1 < len(args) {
				i++
				flags = append(flags, args[i])
			}
		default:
			positional = append(positional, a)
		}
	}
	if err := fs.Parse(flags); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return nil, err
		}
		msg := err.Error()
		if name, ok := strings.CutPrefix(msg, "flag provided but not defined: -"); ok {
			var names []string
			fs.VisitAll(func(f *flag.Flag) { names = append(names, "--"+f.Name) })
			msg += didYouMean("--"+strings.TrimLeft(name, "-"), names)
		}
		return nil, &usageError{msg}
	}
	return positional, nil
}

func looksNumeric(s string) bool { return s != "" && (s[0] >= '0' && s[0] <= '9' || s[0] == '.') }

func isBoolFlag(f *flag.Flag) bool {
	b, ok := f.Value.(interface{ IsBoolFlag() bool })
	return ok && b.IsBoolFlag()
}

// isSet reports whether the flag name was given.
func isSet(fs *flag.FlagSet, name string) bool {
	set := false
	fs.Visit(func(f *flag.Flag) { set = set || f.Name == name })
	return set
}

// boolFlag is a boolean flag that remembers whether it was given, and takes true or false as its
// value ("--special-zero=true" or "--special-zero true").
type boolFlag struct{ v *bool }

func (b *boolFlag) String() string {
	if b.v == nil {
		return ""
	}
	return strconv.FormatBool(*b.v)
}

func (b *boolFlag) Set(s string) error {
	v, err := strconv.ParseBool(s)
	if err != nil {
		return fmt.Errorf("want true or false, got %q", s)
	}
	b.v = &v
	return nil
}

// zeroOneFlag is an integer flag of 0 or 1 that remembers whether it was given, as ONNX's allowzero.
type zeroOneFlag struct{ v *int64 }

func (z *zeroOneFlag) String() string {
	if z.v == nil {
		return ""
	}
	return strconv.FormatInt(*z.v, 10)
}

func (z *zeroOneFlag) Set(s string) error {
	if s != "0" && s != "1" {
		return fmt.Errorf("want 0 or 1, got %q", s)
	}
	v := int64(s[0] - '0')
	z.v = &v
	return nil
}

// parseDialect reads the dialect that the flag --flagName gives; the error is a usage error that
// suggests the closest name.
func parseDialect(flagName, value string) (reshape.Dialect, error) {
	d, err := reshape.ParseDialect(value)
	if err != nil {
		var names []string
		for _, d := range reshape.Dialects() {
			names = append(names, d.String())
		}
		return d, usagef("--%s: %v%s", flagName, err, didYouMean(value, names))
	}
	return d, nil
}

// parseElement reads the element type that the flag --flagName gives, Undefined when it is empty;
// the error is a usage error that suggests the closest name.
func parseElement(flagName, value string) (element.Type, error) {
	if value == "" {
		return element.Undefined, nil
	}
	t, err := element.Parse(value)
	if err != nil {
		return t, usagef("--%s: %v%s", flagName, err, didYouMean(value, element.Names()))
	}
	return t, nil
}

// attrFlags are the flags that give a reshape's dialect and its special_zero (or ONNX's allowzero).
type attrFlags struct {
	dialectFlag string
	dialect     *string
	specialZero boolFlag
	allowZero   zeroOneFlag
}

// addAttrFlags registers the attribute flags on fs, the dialect under the name dialectFlag.
func addAttrFlags(fs *flag.FlagSet, dialectFlag, defaultDialect string) *attrFlags {
	a := &attrFlags{dialectFlag: dialectFlag, dialect: fs.String(dialectFlag, defaultDialect, "")}
	fs.Var(&a.specialZero, "special-zero", "")
	fs.Var(&a.allowZero, "allowzero", "")
	return a
}

// options reads the dialect and its special_zero or allowzero flag with reshape.SpecialZero:
// special_zero is required except for ONNX, whose allowzero defaults to 0.
func (a *attrFlags) options() (reshape.Options, error) {
	d, err := parseDialect(a.dialectFlag, *a.dialect)
	if err != nil {
		return reshape.Options{}, err
	}
	sz, err := reshape.SpecialZero(d, a.specialZero.v, a.allowZero.v)
	if err != nil {
		return reshape.Options{}, usagef("%v (flags --special-zero=true|false, --allowzero=0|1)", err)
	}
	return reshape.Options{Dialect: d}.WithSpecialZero(sz), nil
}
