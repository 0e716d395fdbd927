// Package check finds every Reshape in a model file (ONNX, OpenVINO IR, oneDNN Graph JSON), infers
// its output shape, and reports where the model disagrees with the spec and when it runs at all.
package check

import (
	"bytes"
	_ "embed"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape"
	"github.com/reshape-go/reshape/errcode"
	"github.com/reshape-go/reshape/graph"
	"github.com/reshape-go/reshape/ir"
	"github.com/reshape-go/reshape/shape"
	"github.com/reshape-go/reshape/sym"
)

// Where a Reshape's pattern comes from.
const (
	PatternConst    = "const"    // a constant: a Const layer, an s64[] attribute
	PatternComputed = "computed" // computed by a shape subgraph and evaluated here
	PatternUnknown  = "unknown"  // only known at run time: inferred with the values unknown
)

// Verdict is the outcome of checking one Reshape: OK, Mismatch, or the error code of an invalid
// reshape ("not-divisible", ..., errcode.Code), "error" for an error without a code. It is written as
// its string, in text and in JSON.
type Verdict string

// The verdicts besides the error codes.
const (
	OK       Verdict = "ok"       // the inferred shape is compatible with the declared one
	Mismatch Verdict = "mismatch" // the model declares an output shape the rules do not give
	// Unknown is the verdict of a node or tensor downstream of a node whose inputs break its rule:
	// nothing is inferred there (graph.NodeResult.Blocked), and the message names that node.
	Unknown Verdict = "unknown"
	// Stale is the verdict of a declaration that disagrees with the inferred shape when bindings
	// give the model other input shapes than it was exported with (--input, --batch-size, and
	// --dim for an IR network, whose ports hold numbers): the declaration is the shape for the old
	// inputs, so the two are not compared.
	Stale Verdict = "stale"
	// Avoidable is the verdict of a node whose inputs break its rule in a branch of an If that a
	// run can avoid (graph.NodeResult.Avoidable): the If's condition is known at run time only,
	// and its other branch runs at the bindings. It is not an error of the model there: the
	// message names the If and the branch that runs, and the error with its code.
	Avoidable Verdict = "avoidable"
)

// verdictOf returns the verdict of a failed inference: the error's code.
func verdictOf(err error) Verdict {
	if code := errcode.Code(err); code != "" {
		return Verdict(code)
	}
	return "error"
}

// failure returns the verdict and message of a node result whose inputs break its rule: the error's
// code and the error, or Avoidable when a run can avoid the node (graph.NodeResult.Avoidable), with
// the If that avoids it and the error's code in the message: "avoided when if_sr takes else_branch,
// which runs at these bindings (its condition is known at run time only); not-divisible: ...".
func failure(res *graph.Result, r *graph.NodeResult) (Verdict, string) {
	if !r.Avoidable {
		return verdictOf(r.Err), r.Err.Error()
	}
	return Avoidable, notes(avoidedBy(res, r.Scope), string(verdictOf(r.Err))+": "+r.Err.Error())
}

// avoidedBy says how a run avoids the nodes of the subgraph scope ("if_sr/then_branch"): the
// innermost If holding scope whose other branch has no node that breaks its rule, or, when each
// has one (an error a deeper If avoids), the If's condition alone.
func avoidedBy(res *graph.Result, scope string) string {
	byPath := make(map[string]*graph.NodeResult, len(res.Nodes))
	for i := range res.Nodes {
		byPath[res.Nodes[i].Path] = &res.Nodes[i]
	}
	for scope != "" {
		i := strings.LastIndex(scope, "/")
		if i < 0 {
			break
		}
		holder, ok := byPath[scope[:i]]
		if !ok {
			break
		}
		other := ""
		switch scope[i+1:] {
		case "then_branch":
			other = "else_branch"
		case "else_branch":
			other = "then_branch"
		}
		prefix := holder.Path + "/" + other + "/"
		if holder.Node.Op == "If" && other != "" && !slices.ContainsFunc(res.Nodes, func(n graph.NodeResult) bool {
			return n.Err != nil && strings.HasPrefix(n.Path, prefix)
		}) {
			return "avoided when " + holder.Path + " takes " + other + ", which runs at these bindings (its condition is known at run time only)"
		}
		scope = holder.Scope
	}
	return "avoided when an If that holds it takes its other branch (its condition is known at run time only)"
}

// IsError reports whether v is an error code: neither OK, Mismatch, Inferred, Unknown, Stale nor
// Avoidable, nor "" (not run).
func (v Verdict) IsError() bool {
	return v != OK && v != Mismatch && v != Inferred && v != Unknown && v != Stale && v != Avoidable && v != ""
}

// Row is the result of checking one Reshape, or one other node whose inputs break its rule (an ONNX
// node that a binding of the model's symbols makes invalid). In JSON, shapes are arrays of
// dimensions (numbers when static, strings of the notation otherwise: [2,"B*T","?","1..8"]) and
// null for a dynamic rank; the pattern is the array of its values, null when they are unknown,
// beside the pattern tensor's shape; inferred is left out when inference failed, declared when the
// model declares nothing; an ONNX row has allowzero where the others have special_zero.
type Row struct {
	File string `json:"file"`
	// ID is the node's index in its graph (an IR layer's id); Name its name, or for a node of a
	// subgraph its path ("If_3/then_branch/Reshape_1").
	ID            string          `json:"id"`
	Name          string          `json:"name"`
	Op            string          `json:"op"`
	Dialect       reshape.Dialect `json:"dialect"`
	Input         sym.Shape       `json:"input"`
	Pattern       Pattern         `json:"pattern"`
	PatternShape  shape.Shape     `json:"pattern_shape"` // [] for a scalar pattern
	PatternSource string          `json:"pattern_source"`
	// SpecialZero is the special_zero attribute of OpenVINO and oneDNN rows; AllowZero the
	// allowzero attribute of ONNX rows (its inverse). Exactly one is set.
	SpecialZero *bool      `json:"special_zero,omitempty"`
	AllowZero   *int64     `json:"allowzero,omitempty"`
	Inferred    *sym.Shape `json:"inferred,omitempty"` // nil when inference failed
	Declared    *sym.Shape `json:"declared,omitempty"` // nil when the model declares nothing
	// Verdict is OK or Mismatch when the model declares an output shape, Inferred when it declares
	// none, or the error code of a failed inference ("not-divisible", ...), Avoidable for one in
	// an If branch that a run avoids.
	Verdict Verdict `json:"verdict"`
	// Message explains a verdict other than OK, and for one that says something is wrong, where the
	// pattern comes from.
	Message string `json:"message,omitempty"`
	// Run is the verdict of running the reshape on a constant data input (Options.Run): OK when the
	// result has the declared shape and size, Mismatch, or an error code; "" when it was not run.
	Run Verdict `json:"run,omitempty"`
	// Stopped names the operators (with the node's path) that leave a dim of the row undetermined:
	// nodes without a shape rule, or whose inputs broke their rule, upstream of the Reshape.
	Stopped []string `json:"stopped_by,omitempty"`
}

// Zero returns the row's zero attribute as the model writes it: "special_zero=true", or
// "allowzero=0" for an ONNX row.
func (r *Row) Zero() string {
	switch {
	case r.AllowZero != nil:
		return "allowzero=" + strconv.FormatInt(*r.AllowZero, 10)
	case r.SpecialZero != nil:
		return "special_zero=" + strconv.FormatBool(*r.SpecialZero)
	}
	return "-"
}

// Pattern is a Reshape's pattern as a row shows it: its values in row-major order, each an integer,
// an expression in the model's symbols or an interval, or unknown altogether.
type Pattern struct {
	// Values is nil when the values are unknown (a run-time input).
	Values []sym.Dim
	// Scalar reports a rank-0 pattern tensor (OpenVINO's scalar pattern).
	Scalar bool
}

// patternOf returns the row's form of a pattern of package reshape.
func patternOf(p reshape.Pattern) Pattern {
	values, ok := p.Values()
	if !ok {
		return Pattern{Scalar: p.IsScalar()}
	}
	out := Pattern{Values: make([]sym.Dim, len(values)), Scalar: p.IsScalar()}
	for i, v := range values {
		out.Values[i] = sym.Interval(v.Lo, v.Hi)
	}
	return out
}

// String returns the values in brackets ("[0,-1,4]", "[B,T,4,16]"), a scalar pattern's value
// alone ("1"), or "-" when they are unknown.
func (p Pattern) String() string {
	switch {
	case p.Values == nil:
		return "-"
	case p.Scalar && len(p.Values) == 1:
		return p.Values[0].String()
	}
	return sym.ShapeOf(p.Values...).String()
}

// MarshalJSON implements json.Marshaler: the array of the values (numbers when static, strings of
// the notation otherwise), null when they are unknown.
func (p Pattern) MarshalJSON() ([]byte, error) {
	if p.Values == nil {
		return []byte("null"), nil
	}
	return sym.ShapeOf(p.Values...).MarshalJSON()
}

// site is one Reshape as a model describes it, ready to be checked.
type site struct {
	ID, Name, Op  string
	Input         shape.Shape
	Pattern       reshape.Pattern
	PatternSource string
	Options       reshape.Options
	Declared      shape.Shape
	Note          string // added to the row's message, e.g. where a non-constant pattern comes from
	// Err, when not nil, is a problem found while reading the site (a pattern constant over a limit);
	// it becomes the verdict instead of an inference.
	Err error
}

// Check infers the site's output shape and compares it with the declared one as the rows of every
// format are (compare): OK when the two are equal (a dim known only by its bounds meeting the other)
// and the declared shape may have the input's volume, Mismatch otherwise (also when the pattern's values are unknown: a reshape keeps the volume
// whatever they are), Inferred when the rules give an unknown rank, or the error code when
// inference fails.
func (s *site) Check(file string) Row {
	sz := s.Options.CopiesZeros()
	declared := sym.FromShapes(s.Declared)
	r := Row{
		File: file, ID: s.ID, Name: s.Name, Op: s.Op, Dialect: s.Options.Dialect, Input: sym.FromShapes(s.Input),
		Pattern: patternOf(s.Pattern), PatternShape: s.Pattern.TensorShape(), PatternSource: s.PatternSource, SpecialZero: &sz,
		Declared: &declared,
	}
	err := s.Err
	if err == nil {
		var out shape.Shape
		if out, err = reshape.InferPartial(s.Input, s.Pattern, s.Options); err == nil {
			inferred := sym.FromShapes(out)
			r.Inferred = &inferred
		}
	}
	if err != nil {
		r.Verdict, r.Message = verdictOf(err), notes(err.Error(), s.Note)
		return r
	}
	r.Verdict, r.Message = compare(newDeclarations(nil), r.Input, *r.Inferred, declared, s.Note)
	return r
}

// volumesMeet reports whether the shapes in and out may have the same volume: false only when their
// volume intervals are known and disjoint.
func volumesMeet(in, out shape.Shape) bool {
	vin, err1 := in.Volume()
	vout, err2 := out.Volume()
	return err1 != nil || err2 != nil || vin.Compatible(vout)
}

// Summary counts rows by verdict, and the rows run on constant data by their Run verdict, and
// gathers the models' constraints. Files counts the model files read; Unreadable, which Summarize
// leaves at 0, those that could not be.
type Summary struct {
	Total int `json:"reshapes"` // Reshape rows
	Nodes int `json:"nodes"`    // rows of other nodes, whose inputs break their rule
	// The verdicts of every row: OK, Mismatch, Inferred, and errors of any code, also counted by
	// code in Codes.
	OK       int            `json:"ok"`
	Mismatch int            `json:"mismatch"`
	Inferred int            `json:"inferred"`
	Error    int            `json:"error"`
	Codes    map[string]int `json:"codes,omitempty"`
	// Unknown counts the rows downstream of a node whose inputs break its rule, not inferred;
	// Stale the rows whose declaration is the shape for input shapes the bindings changed.
	Unknown int `json:"unknown"`
	Stale   int `json:"stale"`
	// Avoidable counts the rows of nodes that break their rule in a branch of an If whose other
	// branch runs (the verdict Avoidable): not errors of the model. Left out of JSON when 0.
	Avoidable int `json:"avoidable,omitempty"`

	Run   int `json:"run"`    // rows run on constant data
	RunOK int `json:"run_ok"` // of which OK

	// Stopped counts, by operator, the rows that a node without a shape rule (or whose inputs broke
	// its rule) leaves with an undetermined dim.
	Stopped map[string]int `json:"stopped_by,omitempty"`

	// Constraints lists the constraints of every model (Report.Constraints), in the order of the
	// files: a JSON array, empty when none imposes any. Valid is "never" when some model runs at no
	// binding of its symbols (an error row), "when constraints hold" when some model states
	// constraints, else "always" (Report.Valid). Fixed counts the constraints that force a symbol to
	// one value (Constraint.Fixes).
	Constraints []Constraint `json:"constraints"`
	Valid       string       `json:"valid"`
	Fixed       int          `json:"fixed"`

	Files      int `json:"files"`
	Unreadable int `json:"unreadable"`
	// Skipped counts the files of a directory that have a model's extension but are not models
	// (ModelFiles); Summarize leaves it at 0.
	Skipped int `json:"skipped"`
}

// Summarize counts the verdicts of the reports' rows, and gathers their constraints.
func Summarize(reports []*Report) Summary {
	s := Summary{Files: len(reports), Constraints: []Constraint{}, Valid: validAlways}
	for _, rep := range reports {
		s.Constraints = append(s.Constraints, rep.Constraints...)
		for _, c := range rep.Constraints {
			if len(c.Fixes) > 0 {
				s.Fixed++
			}
		}
		switch v := rep.Valid(); {
		case v == validNever, v == validWhen && s.Valid == validAlways:
			s.Valid = v
		}
		s.count(rep.Rows)
	}
	return s
}

// count counts the rows' verdicts.
func (s *Summary) count(rows []Row) {
	for _, r := range rows {
		if strings.HasPrefix(r.Op, "Reshape") || r.Op == "StaticReshape" || r.Op == "DynamicReshape" {
			s.Total++
		} else {
			s.Nodes++
		}
		switch r.Verdict {
		case OK:
			s.OK++
		case Mismatch:
			s.Mismatch++
		case Inferred:
			s.Inferred++
		case Unknown:
			s.Unknown++
		case Stale:
			s.Stale++
		case Avoidable:
			s.Avoidable++
		default:
			s.Error++
			if s.Codes == nil {
				s.Codes = map[string]int{}
			}
			s.Codes[string(r.Verdict)]++
		}
		if r.Run != "" {
			s.Run++
			if r.Run == OK {
				s.RunOK++
			}
		}
		for _, op := range r.Stopped {
			if s.Stopped == nil {
				s.Stopped = map[string]int{}
			}
			op, _, _ = strings.Cut(op, " ")
			s.Stopped[op]++
		}
	}
}

// AllOK reports whether every row is OK or Inferred (nothing declared to compare with), every run
// on constant data is OK, and every file was read. Constraints, even those that fix a symbol, do
// not count: Fixed says how many fix one.
func (s Summary) AllOK() bool {
	return s.Mismatch == 0 && s.Error == 0 && s.RunOK == s.Run && s.Unreadable == 0
}

// String returns "N reshapes in F files: A ok, B mismatch, C inferred, D error" (" in F files"
// when Files or Unreadable is set), followed by the count of each error code, ", U unknown" when
// some rows are downstream of an error, ", S stale" when some declarations are of old inputs,
// ", A avoidable" when some errors are in If branches a run avoids,
// "; C constraints, of which X fix a dim" when the models state some, "; R run on constant data:
// K ok" when some were run, the operators that leave dims undetermined, "; U files could not be
// read" when some could not, and "; K files skipped: not models".
func (s Summary) String() string {
	text := plural(s.Total, "reshape")
	if s.Nodes > 0 {
		text += " and " + plural(s.Nodes, "failing node")
	}
	if s.Files > 0 || s.Unreadable > 0 {
		text += " in " + plural(s.Files, "file")
	}
	text += fmt.Sprintf(": %d ok, %d mismatch, %d inferred, %d error", s.OK, s.Mismatch, s.Inferred, s.Error)
	if len(s.Codes) > 0 {
		codes := slices.Sorted(maps.Keys(s.Codes))
		for i, c := range codes {
			codes[i] = fmt.Sprintf("%d %s", s.Codes[c], c)
		}
		text += " (" + strings.Join(codes, ", ") + ")"
	}
	if s.Unknown > 0 {
		text += fmt.Sprintf(", %d unknown", s.Unknown)
	}
	if s.Stale > 0 {
		text += fmt.Sprintf(", %d stale", s.Stale)
	}
	if s.Avoidable > 0 {
		text += fmt.Sprintf(", %d avoidable", s.Avoidable)
	}
	if len(s.Constraints) > 0 {
		text += "; " + plural(len(s.Constraints), "constraint")
		switch {
		case s.Fixed == 1:
			text += ", of which 1 fixes a dim"
		case s.Fixed > 1:
			text += fmt.Sprintf(", of which %d fix a dim", s.Fixed)
		}
	}
	if s.Run > 0 {
		text += fmt.Sprintf("; %d run on constant data: %d ok", s.Run, s.RunOK)
	}
	if len(s.Stopped) > 0 {
		ops := slices.Sorted(maps.Keys(s.Stopped))
		for i, op := range ops {
			ops[i] = fmt.Sprintf("%s (%d)", op, s.Stopped[op])
		}
		text += "; undetermined dims stop at " + strings.Join(ops, ", ")
	}
	if s.Unreadable > 0 {
		text += "; " + plural(s.Unreadable, "file") + " could not be read"
	}
	if s.Skipped > 0 {
		text += "; " + plural(s.Skipped, "file") + " skipped: not models"
	}
	return text
}

// plural returns "1 file", "2 files".
func plural(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// Options configure File.
type Options struct {
	// BinPath is the .bin file of an IR model; "" means the .xml path with the extension .bin.
	BinPath string
	// MaxRank bounds ranks as reshape.Options.MaxRank does, and the number of pattern values read.
	MaxRank int
	// Run runs each IR Reshape whose data input is a Const (directly or through a Convert) on the
	// constant's bytes, and checks the result's shape and size against the declared output.
	Run bool
	// MaxBytes bounds the constant data read for Run; 0 means 1 GiB.
	MaxBytes int64
	// MaxFileSize bounds the bytes of a model file read into memory (errcode.ErrLimit beyond): a
	// whole IR .xml or oneDNN Graph JSON file, and of an ONNX model, which is mapped, the bytes its
	// shapes need (its structure, without the tensor values, and the values of the constants
	// inference reads), however large the file. 0 means 2 GiB, protobuf's bound on a model.
	MaxFileSize int64
	// Dims binds the model's symbols to values by name (graph.Options.Dims), for ONNX and IR
	// models.
	Dims map[string]int64
	// Inputs sets the shapes of graph inputs (ONNX) or Parameters (IR) by name
	// (graph.Options.Inputs).
	Inputs map[string]string
	// BatchSize, when positive, binds the batch dim of every graph input (or Parameter) whose
	// batch dim is dynamic, as OpenVINO's set_batch does (graph.Options.BatchSize).
	BatchSize int64
	// SharedBindings makes Dims and Inputs bindings meant for several models (a directory): a name
	// a model does not have is not an error (graph.Options.SharedDims).
	SharedBindings bool
}

// graphOptions returns the options of graph inference that opt sets: the bindings and the rank
// bound.
func (o *Options) graphOptions() graph.Options {
	return graph.Options{Dims: o.Dims, Inputs: o.Inputs, MaxRank: o.MaxRank, BatchSize: o.BatchSize, SharedDims: o.SharedBindings}
}

// rebinds reports whether the bindings of o give the model input shapes other than those it was
// exported with, so that the shapes it declares for the rest of its graph may be those of the old
// inputs: --input and --batch-size, and for an IR network, whose ports hold numbers, --dim too.
// (An ONNX model's symbols bind in its declarations as in its inputs.)
func (o *Options) rebinds(ir bool) bool {
	return len(o.Inputs) > 0 || o.BatchSize > 0 || ir && len(o.Dims) > 0
}

// staleDeclaration is the message of a declaration that disagrees with the inferred shape under
// bindings that rebind the model's inputs (Options.rebinds): the verdict is Stale, since the
// declaration is the model's shape for the inputs it was exported with.
func staleDeclaration(declared, inferred sym.Shape) string {
	return "the model declares " + declared.String() + " for the input shapes it was exported with; with the bindings given " +
		"(--input, --dim, --batch-size) the rules give " + inferred.String() + ", so the two are not compared"
}

// downstream is the message of a row or tensor downstream of the node at path, whose inputs break
// its rule.
func downstream(path string) string {
	return "not inferred: an input is unknown, downstream of the error at " + path
}

// defaultMaxBytes is the default bound on constant data read by Options.Run: 1 GiB.
const defaultMaxBytes = 1 << 30

func (o *Options) maxRank() int64 {
	switch {
	case o.MaxRank == 0:
		return reshape.DefaultMaxRank
	case o.MaxRank < 0:
		return 1 << 31
	}
	return int64(o.MaxRank)
}

// File checks every Reshape of the model file at path: OpenVINO IR (.xml, with its .bin), oneDNN
// Graph JSON (.json) or ONNX (.onnx); a file of another extension is recognised by its first bytes,
// and refused with an error wrapping errcode.ErrSyntax when they are none of these. It returns an
// error, naming the file and the place, when the file cannot be read or does not follow its format.
func File(path string, opt Options) (*Report, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if st.IsDir() {
		return nil, checkModelFile(path, st, opt)
	}
	var r io.ReadSeeker = f
	piped := !st.Mode().IsRegular()
	if piped { // a pipe, a terminal: read whole, within the bound, to be sniffed and read
		b, err := io.ReadAll(io.LimitReader(f, opt.fileLimit()+1))
		if err != nil {
			return nil, err
		}
		if int64(len(b)) > opt.fileLimit() {
			return nil, errcode.Errorf(errcode.ErrLimit, "%s: more than the limit of %d bytes read into memory", path, opt.fileLimit())
		}
		r = bytes.NewReader(b)
	}
	kind := strings.ToLower(filepath.Ext(path))
	if !isModelFile(path) {
		if kind = sniff(r); kind == "" {
			why := "want OpenVINO IR .xml, oneDNN Graph JSON .json or ONNX .onnx"
			if strings.EqualFold(filepath.Ext(path), ".bin") {
				why = "the weights of an OpenVINO IR model: check its .xml"
			}
			return nil, errcode.Errorf(errcode.ErrSyntax, "%s: not a model file: %s", path, why)
		}
	}
	if kind == ".onnx" && !piped {
		return onnxFile(path, opt) // mapped: bounded by the bytes read, not the file's size
	}
	if err := checkModelFile(path, st, opt); err != nil {
		return nil, err
	}
	rep, err := func() (*Report, error) {
		switch kind {
		case ".json":
			return readOneDNN(r, path, opt)
		case ".onnx":
			return readONNX(r, path, opt)
		}
		bin := opt.BinPath
		if bin == "" {
			bin = strings.TrimSuffix(path, filepath.Ext(path)) + ".bin"
		}
		return readIR(r, path, bin, opt)
	}()
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return rep, nil
}

// fileLimit returns the bound on the bytes of a model file read into memory.
func (o *Options) fileLimit() int64 {
	if o.MaxFileSize <= 0 {
		return maxModelBytes
	}
	return o.MaxFileSize
}

// checkModelFile refuses a directory, and a file over the size bound of opt (errcode.ErrLimit).
func checkModelFile(path string, st fs.FileInfo, opt Options) error {
	limit := opt.fileLimit()
	switch {
	case st.IsDir():
		return errcode.Errorf(errcode.ErrSyntax, "%s: a directory, not a model file (ModelFiles lists the model files in it)", path)
	case st.Size() > limit:
		return errcode.Errorf(errcode.ErrLimit, "%s: the file is %d bytes, more than the limit of %d", path, st.Size(), limit)
	}
	return nil
}

// isModelFile reports whether path names a model file by its extension, in any case: .xml, .json or
// .onnx.
func isModelFile(path string) bool {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".xml", ".json", ".onnx":
		return true
	}
	return false
}

// NotModel is a file of a directory tree that has a model's extension but is not a model: a
// package.json, a pom.xml. Why says what it is instead.
type NotModel struct {
	Path, Why string
}

// ModelFiles returns the model files in the directory tree at dir, in lexical order: the files
// with a model's extension (graph.ModelFile: .onnx, .xml, .json) whose first bytes are a model's (an ONNX file, an XML file
// whose root is an IR <net>, a JSON object with oneDNN Graph's "graph" key), and apart the files
// with a model's extension that are not (others, as graph.NotModel says), which File would refuse. A file that cannot be
// read, or is not even well-formed, counts as a model, so that File says what is wrong with it.
// Hidden directories (a name starting with ".", as .git) are skipped. The error is the first that
// reading a directory gives; a tree without any model file is an error wrapping errcode.ErrSyntax.
func ModelFiles(dir string) (models []string, others []NotModel, err error) {
	err = filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		switch {
		case err != nil:
			return err
		case d.IsDir() && path != dir && strings.HasPrefix(d.Name(), "."):
			return filepath.SkipDir
		case d.IsDir() || !graph.ModelFile(path):
			return nil
		}
		if why := graph.NotModel(path); why != "" {
			others = append(others, NotModel{path, why})
		} else {
			models = append(models, path)
		}
		return nil
	})
	if err == nil && len(models) == 0 {
		why := ""
		if len(others) > 0 {
			why = fmt.Sprintf(": the %d files with their extensions are not models", len(others))
		}
		err = errcode.Errorf(errcode.ErrSyntax, "%s: no model in its tree (.onnx, .xml of OpenVINO IR, .json of oneDNN Graph)%s", dir, why)
	}
	return models, others, err
}

// sniff guesses a model's format from its first bytes and rewinds the file: JSON starts with '{',
// XML with '<', and an ONNX model with the protobuf key of ModelProto.ir_version (field 1, varint).
// It returns "" for anything else.
func sniff(f io.ReadSeeker) string {
	var b [512]byte
	n, _ := io.ReadFull(f, b[:])
	f.Seek(0, io.SeekStart)
	t := bytes.TrimSpace(b[:n])
	switch {
	case len(t) > 0 && t[0] == '{':
		return ".json"
	case len(t) > 0 && t[0] == '<':
		return ".xml"
	case n > 0 && b[0] == 0x08:
		return ".onnx"
	}
	return ""
}

//go:embed model/spec_examples.xml
var builtinXML []byte

//go:embed model/spec_examples.bin
var builtinBin []byte

// builtinName is the file name Builtin reports its rows under.
const builtinName = "spec_examples.xml"

// Builtin checks the IR model built into the package: the five examples of the OpenVINO Reshape-1
// specification, each a Reshape layer fed by a Const pattern, under the file name spec_examples.xml.
// All five rows are OK.
func Builtin() (*Report, error) {
	net, err := ir.Decode(bytes.NewReader(builtinXML))
	if err != nil {
		return nil, err
	}
	w := ir.NewWeights(bytes.NewReader(builtinBin), int64(len(builtinBin)), "spec_examples.bin")
	return IR(net, w, builtinName, Options{})
}

// BuiltinFiles returns the built-in model's .xml and .bin contents.
func BuiltinFiles() (xml, bin []byte) { return builtinXML, builtinBin }
