package ir

import (
	"bytes"
	"encoding/xml"
	"errors"
	"io"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/reshape-go/reshape/errcode"
)

// Edit is a change of a network's top-level layers and edges (layers inside bodies are left as
// they are): what reshape fix makes of an IR model. Net.Edit applies it to a network, WriteEdit to
// the .xml file's bytes.
type Edit struct {
	// Layers are new layers, after the network's; their ids must be new.
	Layers []Layer
	// Edges are new edges. One into an input port that an edge of the network feeds replaces
	// that edge.
	Edges []Edge
	// Remove holds the ids of layers left out, with the edges from and to them.
	Remove []string
	// Data sets attributes of layers' <data> elements, by layer id: the value of an attribute the
	// element has is replaced where it stands, another is added after the element's.
	Data map[string][]xml.Attr
}

// replaces reports whether one of e's edges feeds the input port that edge x feeds, or x touches a
// layer e removes.
func (e *Edit) replaces(x Edge) bool {
	return slices.Contains(e.Remove, x.FromLayer) || slices.Contains(e.Remove, x.ToLayer) ||
		slices.ContainsFunc(e.Edges, func(y Edge) bool { return y.ToLayer == x.ToLayer && y.ToPort == x.ToPort })
}

// Edit returns a new network: n with the edit e applied, indexed and checked as Decode checks a
// network (errcode.ErrSyntax for an id used twice, an edge between ports that do not exist, two
// edges into one input port, a cycle). n is not changed.
func (n *Net) Edit(e *Edit) (*Net, error) {
	out := &Net{Name: n.Name, Version: n.Version}
	for _, l := range n.Layers {
		if slices.Contains(e.Remove, l.ID) {
			continue
		}
		if set, ok := e.Data[l.ID]; ok {
			l.Data = setAttrs(slices.Clone(l.Data), set)
		}
		out.Layers = append(out.Layers, l)
	}
	out.Layers = append(out.Layers, e.Layers...)
	for _, x := range n.Edges {
		if !e.replaces(x) {
			out.Edges = append(out.Edges, x)
		}
	}
	out.Edges = append(out.Edges, e.Edges...)
	return out, out.index()
}

// setAttrs returns attrs with the values of set: replaced where attrs has the name, else appended.
func setAttrs(attrs, set []xml.Attr) []xml.Attr {
	for _, a := range set {
		if i := slices.IndexFunc(attrs, func(b xml.Attr) bool { return b.Name.Local == a.Name.Local }); i >= 0 {
			attrs[i].Value = a.Value
			continue
		}
		attrs = append(attrs, a)
	}
	return attrs
}

// span is a run of bytes of the .xml file, from start to end (excluded).
type span struct{ start, end int }

// WriteEdit writes the .xml file src with the edit e applied: every byte as it is, except the
// <edge> elements of the edges e replaces and of the layers it removes, and those layers' <layer>
// elements, which are left out (with their lines where they stand alone on them); the <data>
// attributes e sets, whose values are written in place; the new layers before </layers> and the
// new edges before </edges>, indented as the file indents its layers and edges. The new layers are
// written with their attributes and ports in the order OpenVINO's serializer writes them (id,
// name, type, version; <data>; <input>; <output>; a port's dim that is not static as -1). It
// returns the bytes written; the errors are w's, and errcode.ErrSyntax for a file encoding/xml
// cannot read or that has no top-level layer of <data> that e.Data names (nothing is written then).
func WriteEdit(w io.Writer, src []byte, e *Edit) (int64, error) {
	d := xml.NewDecoder(bytes.NewReader(src))
	var (
		stack   []string // the local names of the open elements
		edits   []edit   // the replacements, in file order once sorted
		layer   string   // the id of the top-level layer open, "" outside one
		at      int      // the start of the top-level <layer> or <edge> open
		dataSet = map[string]bool{}
		indent  = map[string]string{}
		cut     bool // the element open is left out
	)
	off := 0
	for root := false; !root; {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return 0, errcode.Errorf(errcode.ErrSyntax, "the .xml: %v", err)
		}
		start, end := off, int(d.InputOffset())
		off = end
		switch t := tok.(type) {
		case xml.StartElement:
			stack = append(stack, t.Name.Local)
			switch strings.Join(stack, "/") {
			case "net/layers/layer":
				layer, at = attrValue(t, "id"), start
				cut = slices.Contains(e.Remove, layer)
				indent["layer"] = lineIndent(src, start)
			case "net/edges/edge":
				at, indent["edge"] = start, lineIndent(src, start)
				cut = e.replaces(Edge{FromLayer: attrValue(t, "from-layer"), FromPort: attrValue(t, "from-port"),
					ToLayer: attrValue(t, "to-layer"), ToPort: attrValue(t, "to-port")})
			case "net/layers/layer/data":
				if set, ok := e.Data[layer]; ok && !dataSet[layer] {
					dataSet[layer] = true
					edits = append(edits, dataEdits(src, start, end, set)...)
				}
			case "net/layers":
				indent["layers"] = lineIndent(src, start)
			}
		case xml.EndElement:
			// RawToken leaves the pairing of tags to its caller.
			if len(stack) == 0 || stack[len(stack)-1] != t.Name.Local {
				return 0, errcode.Errorf(errcode.ErrSyntax, "the .xml: element </%s> at offset %d closes no element open", t.Name.Local, start)
			}
			switch strings.Join(stack, "/") {
			case "net/layers/layer", "net/edges/edge":
				if cut {
					c := wholeLines(src, span{at, end})
					edits = append(edits, edit{at: c.start, end: c.end})
				}
				layer, cut = "", false
			case "net/layers":
				edits = append(edits, insert(src, start, layersXML(e.Layers, indent["layer"], unit(indent["layers"], indent["layer"]))))
			case "net/edges":
				edits = append(edits, insert(src, start, edgesXML(e.Edges, indent["edge"])))
			}
			stack = stack[:len(stack)-1]
			root = len(stack) == 0 // what follows the root element is written as it is, as Decode reads none of it
		}
	}
	for _, id := range slices.Sorted(maps.Keys(e.Data)) {
		if !dataSet[id] {
			return 0, errcode.Errorf(errcode.ErrSyntax, "the .xml has no top-level layer %q with a <data> element", id)
		}
	}
	slices.SortStableFunc(edits, func(a, b edit) int { return a.at - b.at })
	at = 0
	var n int64
	for _, x := range edits {
		k, err := w.Write(src[at:x.at])
		if n += int64(k); err != nil {
			return n, err
		}
		if k, err = io.WriteString(w, x.text); err != nil {
			return n + int64(k), err
		}
		n += int64(k)
		at = max(x.at, x.end)
	}
	k, err := w.Write(src[at:])
	return n + int64(k), err
}

// insert returns the edit that writes the lines text before the end tag at offset at: at the
// start of its line when only white space comes before it there, else after a new line.
func insert(src []byte, at int, text string) edit {
	if text == "" {
		return edit{at: at}
	}
	lo := at - len(lineIndent(src, at))
	if lo > 0 && src[lo-1] != '\n' {
		return edit{at: at, text: "\n" + text}
	}
	return edit{at: lo, text: text}
}

// edit replaces src[at:end] (end 0: nothing) with text.
type edit struct {
	at, end int
	text    string
}

// attrValue returns the value of the attribute name of the start element t.
func attrValue(t xml.StartElement, name string) string {
	for _, a := range t.Attr {
		if a.Name.Local == name {
			return a.Value
		}
	}
	return ""
}

// dataEdits returns the edits of the <data> start tag src[start:end] that set the attributes set:
// a value replaced between its quotes, or an attribute added before the tag's end.
func dataEdits(src []byte, start, end int, set []xml.Attr) []edit {
	tag := src[start:end]
	var out []edit
	for _, a := range set {
		if lo, hi, ok := attrSpan(tag, a.Name.Local); ok {
			out = append(out, edit{at: start + lo, end: start + hi, text: escape(a.Value)})
			continue
		}
		at := end - 1
		if tag[len(tag)-2] == '/' {
			at--
		}
		for at > start && (src[at-1] == ' ' || src[at-1] == '\t' || src[at-1] == '\n') {
			at--
		}
		out = append(out, edit{at: at, end: at, text: " " + a.Name.Local + `="` + escape(a.Value) + `"`})
	}
	return out
}

// attrSpan returns where the value of the attribute name lies in the start tag tag, between its
// quotes.
func attrSpan(tag []byte, name string) (lo, hi int, ok bool) {
	for i := 0; i+len(name) < len(tag); i++ {
		if tag[i] != ' ' && tag[i] != '\t' && tag[i] != '\n' || !bytes.HasPrefix(tag[i+1:], []byte(name)) {
			continue
		}
		j := i + 1 + len(name)
		for j < len(tag) && (tag[j] == ' ' || tag[j] == '\t' || tag[j] == '\n') {
			j++
		}
		if j >= len(tag) || tag[j] != '=' {
			continue
		}
		j++
		for j < len(tag) && (tag[j] == ' ' || tag[j] == '\t' || tag[j] == '\n') {
			j++
		}
		if j >= len(tag) || tag[j] != '"' && tag[j] != '\'' {
			continue
		}
		k := bytes.IndexByte(tag[j+1:], tag[j])
		if k < 0 {
			return 0, 0, false
		}
		return j + 1, j + 1 + k, true
	}
	return 0, 0, false
}

// lineIndent returns the white space before offset at on its line.
func lineIndent(src []byte, at int) string {
	i := at
	for i > 0 && (src[i-1] == ' ' || src[i-1] == '\t') {
		i--
	}
	if i > 0 && src[i-1] != '\n' {
		return ""
	}
	return string(src[i:at])
}

// unit returns the indentation one level adds: child's past parent's, a tab when they tell none.
func unit(parent, child string) string {
	if u, ok := strings.CutPrefix(child, parent); ok && u != "" {
		return u
	}
	if child == "" && parent == "" {
		return ""
	}
	return "\t"
}

// wholeLines widens the span c to its whole lines when it stands alone on them: the white space
// before it on its line, and the line's end after it.
func wholeLines(src []byte, c span) span {
	lo := c.start - len(lineIndent(src, c.start))
	hi := c.end
	for hi < len(src) && (src[hi] == ' ' || src[hi] == '\t' || src[hi] == '\r') {
		hi++
	}
	if (lo == 0 || src[lo-1] == '\n') && hi < len(src) && src[hi] == '\n' {
		return span{lo, hi + 1}
	}
	return c
}

// layersXML returns the layers' elements, a line each tag, indented by ind and unit per level.
func layersXML(layers []Layer, ind, unit string) string {
	var b strings.Builder
	for i := range layers {
		l := &layers[i]
		b.WriteString(ind + `<layer id="` + escape(l.ID) + `" name="` + escape(l.Name) + `" type="` + escape(l.Type) + `" version="` + escape(l.Version) + `">` + "\n")
		if l.Data != nil {
			b.WriteString(ind + unit + "<data")
			for _, a := range l.Data {
				b.WriteString(" " + a.Name.Local + `="` + escape(a.Value) + `"`)
			}
			b.WriteString("/>\n")
		}
		for _, ports := range []struct {
			tag   string
			ports []Port
		}{{"input", l.Inputs}, {"output", l.Outputs}} {
			if len(ports.ports) == 0 {
				continue
			}
			b.WriteString(ind + unit + "<" + ports.tag + ">\n")
			for _, p := range ports.ports {
				b.WriteString(ind + unit + unit + `<port id="` + escape(p.ID) + `"`)
				if p.Precision != "" {
					b.WriteString(` precision="` + escape(p.Precision) + `"`)
				}
				if p.Names != "" {
					b.WriteString(` names="` + escape(p.Names) + `"`)
				}
				if len(p.Shape.Dims) == 0 {
					b.WriteString("/>\n")
					continue
				}
				b.WriteString(">\n")
				for _, d := range p.Shape.Dims {
					text := "-1" // a dynamic dim or an interval, as OpenVINO writes them in ports
					if n, ok := d.Static(); ok {
						text = strconv.FormatInt(n, 10)
					}
					b.WriteString(ind + unit + unit + unit + "<dim>" + text + "</dim>\n")
				}
				b.WriteString(ind + unit + unit + "</port>\n")
			}
			b.WriteString(ind + unit + "</" + ports.tag + ">\n")
		}
		b.WriteString(ind + "</layer>\n")
	}
	return b.String()
}

// edgesXML returns the edges' elements, a line each, indented by ind.
func edgesXML(edges []Edge, ind string) string {
	var b strings.Builder
	for _, x := range edges {
		b.WriteString(ind + `<edge from-layer="` + escape(x.FromLayer) + `" from-port="` + escape(x.FromPort) +
			`" to-layer="` + escape(x.ToLayer) + `" to-port="` + escape(x.ToPort) + `"/>` + "\n")
	}
	return b.String()
}

// escape returns s with the characters XML attribute values and text must not hold escaped.
func escape(s string) string {
	var b strings.Builder
	if err := xml.EscapeText(&b, []byte(s)); err != nil {
		return strconv.Quote(s) // EscapeText fails only on its writer's errors: none here
	}
	return b.String()
}
