// The page of a model's report: reshape report writes it with the model's data, and the web app
// renders the same from the data its WebAssembly engine computes. ReshapeReport.render(root, data)
// builds it; data is report.Model as JSON (see report/model.go).
"use strict";
var ReshapeReport = (function () {
  var TABLE_PAGE = 250; // rows of the tensor table shown at once, and added by "show more"
  var GRAPH_ALL = 160; // graphs with at most this many nodes are shown whole
  var NEIGHBOURS = 80; // the nodes of a neighbourhood at most

  function el(tag, attrs, children) {
    var e = document.createElement(tag);
    if (attrs) {
      for (var k in attrs) {
        if (k === "text") e.textContent = attrs[k];
        else if (k === "cls") e.className = attrs[k];
        else if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), attrs[k]);
        else e.setAttribute(k, attrs[k]);
      }
    }
    (children || []).forEach(function (c) {
      if (c == null) return;
      e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
    });
    return e;
  }

  // shapeText writes a shape as the command line does: [N,3,H,W], [...] for a dynamic rank.
  function shapeText(s) {
    if (s === null || s === undefined) return "[...]";
    return "[" + s.join(",") + "]";
  }

  function section(id, title, children) {
    return el("section", { id: id }, [el("h2", { text: title })].concat(children));
  }

  function table(headers, rows) {
    var thead = el("thead", null, [el("tr", null, headers.map(function (h) { return el("th", { text: h }); }))]);
    return el("table", null, [thead, el("tbody", null, rows)]);
  }

  function render(root, d) {
    root.textContent = "";
    var page = new Page(root, d);
    page.build();
    return page;
  }

  function Page(root, d) {
    this.root = root;
    this.d = d;
    this.nodes = d.nodes || [];
    this.tensors = d.tensors || [];
    this.producer = []; // tensor index -> node index
    this.consumers = []; // tensor index -> node indices
    var self = this;
    this.nodes.forEach(function (n, i) {
      n.out.forEach(function (t) { if (t >= 0) self.producer[t] = i; });
      n.in.forEach(function (t) {
        if (t < 0) return;
        (self.consumers[t] = self.consumers[t] || []).push(i);
      });
    });
    this.byPath = {};
    this.nodes.forEach(function (n, i) { self.byPath[n.path] = i; });
  }

  Page.prototype.build = function () {
    var d = this.d, root = this.root;
    var main = el("main");
    main.appendChild(el("h1", { id: "verdict", "data-kind": d.verdict.kind, text: d.verdict.text }));
    main.appendChild(el("div", { cls: "file" }, [d.file + " · " + summaryText(d.summary) + " · " + d.version]));
    main.appendChild(el("nav", { cls: "sections" }, ["map", "conditions", "inputs", "check", "tensors", "graph"].map(function (s) {
      return el("a", { href: "#" + s, text: s });
    })));
    (d.notes || []).forEach(function (n) { main.appendChild(el("p", { cls: "warn", text: n })); });
    main.appendChild(this.mapSection());
    main.appendChild(this.conditionsSection());
    main.appendChild(this.inputsSection());
    main.appendChild(this.checkSection());
    main.appendChild(this.tensorsSection());
    main.appendChild(this.graphSection());
    root.appendChild(main);
    this.showGraph(this.startNode());
  };

  function summaryText(s) {
    var parts = [s.reshapes + " reshapes", s.ok + " ok", s.mismatch + " mismatch", s.inferred + " inferred", s.error + " error"];
    if (s.nodes) parts[0] = s.reshapes + " reshapes and " + s.nodes + " failing nodes";
    return parts.join(", ") + "; " + (s.constraints ? s.constraints.length : 0) + " constraints";
  }

  Page.prototype.mapSection = function () {
    var d = this.d, self = this;
    if (!d.map) {
      return section("map", "Where it runs", [el("p", { cls: "note", text: d.symbols && d.symbols.length ? "No map." : "No map: the model has no symbols left free; it runs at one size." })]);
    }
    var box = el("div", { id: "map-box" });
    box.innerHTML = d.map.svg;
    var info = el("div", { id: "map-cell", text: "Point at a cell for its sizes; click a coloured cell to find its node in the graph." });
    box.addEventListener("mouseover", function (ev) {
      var r = ev.target;
      if (!r.hasAttribute || !r.hasAttribute("data-runs")) return;
      info.textContent = self.cellText(r);
    });
    box.addEventListener("click", function (ev) {
      var r = ev.target;
      var i = r.getAttribute && r.getAttribute("data-cond");
      if (i === null || i === undefined) {
        var g = r.closest && r.closest("g.legend");
        i = g ? g.getAttribute("data-cond") : null;
      }
      if (i !== null && i !== undefined && +i >= 0) self.selectMapCondition(+i);
    });
    return section("map", "Where it runs", [el("p", { cls: "note", text: d.map.text }), box, info]);
  };

  Page.prototype.cellText = function (r) {
    var d = this.d, x = r.getAttribute("data-x"), x1 = r.getAttribute("data-x1");
    var y = r.getAttribute("data-y"), y1 = r.getAttribute("data-y1");
    var where = d.map.x + "=" + (x === x1 ? x : x + ".." + x1);
    if (d.map.y) where += ", " + d.map.y + "=" + (y === y1 ? y : y + ".." + y1);
    var runs = r.getAttribute("data-runs");
    if (runs === "true") return where + ": runs";
    if (runs === "maybe") return where + ": every stated condition holds (they may be incomplete)";
    var c = d.map.conditions[+r.getAttribute("data-cond")];
    return where + ": fails " + c.holds + " at " + c.node + " (" + c.op + ")";
  };

  Page.prototype.conditionsSection = function () {
    var d = this.d, self = this, kids = [], limits = d.limits || [];
    if (!d.conditions.length) {
      kids.push(el("p", { text: d.symbols && d.symbols.length ? "No condition: the rules impose none on the symbols." : "No condition: every shape is static." }));
    } else {
      var rows = d.conditions.map(function (c, i) {
        var j = d.map ? d.map.conditions.findIndex(function (m) { return m.cond === i; }) : -1;
        var color = j >= 0 ? el("span", { cls: "swatch", style: "background:" + palette(j) }) : null;
        return el("tr", { "data-cond": i, "data-node": c.node }, [
          el("td", null, [color, String(i + 1)]),
          el("td", { cls: "mono holds", text: c.holds }),
          el("td", { cls: "mono path" }, [self.nodeLink(c.node)]),
          el("td", { text: c.op }),
          el("td", { text: c.why + (c.fixes ? "; fixes " + c.fixes.join(", ") : "") }),
        ]);
      });
      kids.push(el("p", { cls: "note", text: "In the order inference meets their nodes: the first a binding breaks names the node where a run stops." }));
      kids.push(table(["#", "holds", "node", "op", "why"], rows));
    }
    if (limits.length) {
      kids.push(el("h3", { text: "Limits: at sizes of 2^31 or more, only when" }));
      kids.push(el("p", { cls: "note", text: "Conditions that hold wherever every size is below 2^31 (a size cast to int32): the model runs where these hold too." }));
      kids.push(table(["holds", "node", "op", "why"], limits.map(function (c) {
        return el("tr", { "data-node": c.node }, [
          el("td", { cls: "mono holds", text: c.holds }),
          el("td", { cls: "mono path" }, [self.nodeLink(c.node)]),
          el("td", { text: c.op }),
          el("td", { text: c.why }),
        ]);
      })));
    }
    if (d.complete === false) {
      kids.push(el("p", { cls: "warn", text: "These conditions may be incomplete: precision is lost at " + d.lost.length + " " + (d.lost.length === 1 ? "node" : "nodes") + "." }));
      kids.push(table(["node", "op", "why"], d.lost.map(function (l) {
        return el("tr", { cls: "lost" }, [el("td", { cls: "mono path" }, [self.nodeLink(l.node)]), el("td", { text: l.op }), el("td", { text: l.why })]);
      })));
    } else if (d.complete === true) {
      kids.push(el("p", { text: "Complete: at every binding that satisfies these conditions" + (limits.length ? " and limits" : "") + " the model runs." }));
    }
    kids.push(el("h3", { text: "Valid sizes" }));
    if (d.sizes) {
      kids.push(table(["symbol", "values"], Object.keys(d.sizes).map(function (k) {
        return el("tr", null, [el("td", { cls: "mono", text: k }), el("td", { text: d.sizes[k] })]);
      })));
    } else {
      kids.push(el("p", { cls: "note", text: "Not stated by this version of the engine: the map shows them over its range." }));
    }
    return section("conditions", "Conditions", kids);
  };

  function palette(i) {
    var p = ["#d62728", "#ff7f0e", "#9467bd", "#1f77b4", "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"];
    return p[i % p.length];
  }

  Page.prototype.nodeLink = function (path) {
    var self = this;
    if (!(path in this.byPath)) return document.createTextNode(path);
    return el("a", { cls: "node-link", "data-node": path, text: path, onclick: function () { self.select(self.byPath[path], true); } });
  };

  Page.prototype.inputsSection = function () {
    var d = this.d;
    var inputs = table(["input", "type", "shape"], (d.inputs || []).map(function (i) {
      return el("tr", null, [el("td", { cls: "mono", text: i.name }), el("td", { text: i.type }), el("td", { cls: "mono", text: shapeText(i.shape) })]);
    }));
    var symbols = table(["symbol", "bounds", "on the map"], (d.symbols || []).map(function (s) {
      var onMap = "";
      if (d.map && (s.name === d.map.x || s.name === d.map.y)) onMap = "axis";
      else if (s.value !== undefined) onMap = "= " + s.value;
      return el("tr", null, [el("td", { cls: "mono", text: s.name }), el("td", { text: s.lo + ".." + (s.hi === null ? "" : s.hi) }), el("td", { text: onMap })]);
    }));
    return section("inputs", "Inputs and symbols", [inputs, el("p"), symbols]);
  };

  Page.prototype.checkSection = function () {
    var self = this, rows = this.d.rows || [];
    if (!rows.length) return section("check", "Check: every Reshape, and every node that fails", [el("p", { text: "No Reshape and no failing node." })]);
    var table = pagedTable("check", ["id", "name", "op", "input", "pattern", "inferred", "declared", "verdict", "message"], rows,
      "filter: name, op, shape, verdict",
      function (r) {
        return [r.id, r.name, r.op, shapeText(r.input), patternText(r), r.inferred === undefined ? "-" : shapeText(r.inferred),
          r.declared === undefined ? "-" : shapeText(r.declared), r.verdict, r.message || ""].join(" ");
      },
      function (r) {
        return el("tr", { "data-name": r.name }, [
          el("td", { text: r.id }), el("td", { cls: "mono path" }, [self.nodeLink(r.name)]), el("td", { text: r.op }),
          el("td", { cls: "mono", text: shapeText(r.input) }), el("td", { cls: "mono", text: patternText(r) }),
          el("td", { cls: "mono", text: r.inferred === undefined ? "-" : shapeText(r.inferred) }),
          el("td", { cls: "mono", text: r.declared === undefined ? "-" : shapeText(r.declared) }),
          el("td", { cls: "verdict verdict-" + verdictClass(r.verdict), text: r.verdict }),
          el("td", { text: r.message || "" }),
        ]);
      });
    return section("check", "Check: every Reshape, and every node that fails", table.children);
  };

  function patternText(r) {
    return r.pattern === null ? "unknown" : shapeText(r.pattern) + (r.pattern_source === "computed" ? " (computed)" : "");
  }

  function verdictClass(v) {
    if (v === "ok" || v === "inferred" || v === "mismatch" || v === "unknown" || v === "stale" || v === "avoidable") return v;
    return "error";
  }

  // pagedTable is a table of items (id: its element's id) that filters as one types (every word
  // in text(item)) and shows TABLE_PAGE rows at a time, "show more" adding as many: a page stays
  // quick with 20,000 rows. It returns the table's elements, and setFilter.
  function pagedTable(id, headers, items, placeholder, text, row) {
    var input = el("input", { id: id + "-filter", cls: "filter", type: "search", placeholder: placeholder });
    var count = el("span", { cls: "note" });
    var body = el("tbody");
    var more = el("button", { text: "show more", style: "display:none" });
    var head = el("thead", null, [el("tr", null, headers.map(function (h) { return el("th", { text: h }); }))]);
    var shown = TABLE_PAGE, matches = [];
    var texts = items.map(function (it) { return text(it).toLowerCase(); });
    function fill() {
      body.textContent = "";
      var frag = document.createDocumentFragment();
      matches.slice(0, shown).forEach(function (i) { frag.appendChild(row(items[i], i)); });
      body.appendChild(frag);
      count.textContent = " " + matches.length + " of " + items.length + (matches.length > shown ? ", " + shown + " shown" : "");
      more.style.display = matches.length > shown ? "" : "none";
    }
    function filter() {
      var q = input.value.trim().toLowerCase().split(/\s+/).filter(Boolean);
      matches = [];
      for (var i = 0; i < texts.length; i++) {
        if (q.every(function (w) { return texts[i].indexOf(w) >= 0; })) matches.push(i);
      }
      shown = TABLE_PAGE;
      fill();
    }
    input.addEventListener("input", filter);
    more.addEventListener("click", function () { shown += TABLE_PAGE; fill(); });
    filter();
    return {
      children: [el("div", null, [input, count]), el("div", { cls: "scroll" }, [el("table", { id: id + "-table" }, [head, body])]), more],
      setFilter: function (q) { input.value = q; filter(); },
    };
  }

  Page.prototype.tensorsSection = function () {
    var self = this;
    var table = pagedTable("tensor", ["graph", "tensor", "node", "op", "type", "shape", "declared", "verdict", "message"], this.tensors,
      "filter: name, node, op, shape, verdict",
      function (t) {
        return [t.graph || "", t.name, t.node || "", t.op || "", t.type, shapeText(t.shape), t.declared ? shapeText(t.declared) : "", t.verdict, t.message || ""].join(" ");
      },
      function (t, i) {
        return el("tr", { "data-tensor": i, "data-name": t.name }, [
          el("td", { cls: "mono path", text: t.graph || "" }), el("td", { cls: "mono path", text: t.name }),
          el("td", { cls: "mono path" }, [t.node ? self.nodeLink(t.node) : null]), el("td", { text: t.op || "" }),
          el("td", { text: t.type }), el("td", { cls: "mono", text: shapeText(t.shape) }),
          el("td", { cls: "mono", text: t.declared ? shapeText(t.declared) : "-" }),
          el("td", { cls: "verdict verdict-" + verdictClass(t.verdict), text: t.verdict }), el("td", { text: t.message || "" }),
        ]);
      });
    this.setTensorFilter = table.setFilter;
    return section("tensors", "Tensors", table.children);
  };

  Page.prototype.graphSection = function () {
    var self = this;
    var search = el("input", { id: "graph-search", type: "search", placeholder: "find a node: name or op" });
    var results = el("div", { id: "graph-results" });
    var radius = el("select", { id: "graph-radius" }, [1, 2, 3, 4, 6].map(function (r) { return el("option", { value: r, text: "neighbourhood " + r }); }));
    radius.value = "2";
    radius.addEventListener("change", function () { self.showGraph(self.selected); });
    search.addEventListener("input", function () {
      var q = search.value.trim().toLowerCase();
      results.textContent = "";
      if (!q) return;
      var hits = 0;
      for (var i = 0; i < self.nodes.length && hits < 30; i++) {
        var n = self.nodes[i];
        if (n.path.toLowerCase().indexOf(q) >= 0 || n.op.toLowerCase() === q) {
          hits++;
          (function (i) {
            results.appendChild(el("a", { cls: "node-link", text: self.nodes[i].path + " (" + self.nodes[i].op + ")", onclick: function () { self.select(i, true); } }));
          })(i);
          results.appendChild(document.createTextNode("  "));
        }
      }
      if (!hits) results.textContent = "no node matches";
    });
    this.radius = radius;
    this.canvas = el("div", { id: "graph-canvas" });
    this.panel = el("div", { id: "node-panel" }, [el("p", { cls: "note", text: "Choose a node to see its tensors." })]);
    var marks = el("p", { cls: "legend-marks note" }, [
      el("span", null, [el("span", { cls: "swatch", style: "border:3px solid var(--mark-condition)" }), "imposes a condition"]),
      el("span", null, [el("span", { cls: "swatch", style: "border:3px solid var(--mark-error);background:#fde8e8" }), "fails"]),
      el("span", null, [el("span", { cls: "swatch", style: "border:3px dashed var(--mark-lost)" }), "no shape rule (precision lost)"]),
      el("span", null, [el("span", { cls: "swatch", style: "background:#f0f0f0" }), "not inferred"]),
    ]);
    var note = this.nodes.length > GRAPH_ALL ? this.nodes.length + " nodes: the view shows the neighbourhood of the chosen node; search to move." : this.nodes.length + " nodes.";
    if (!this.nodes.length) return section("graph", "Graph", [el("p", { cls: "note", text: "No graph." })]);
    return section("graph", "Graph", [el("div", null, [search, " ", radius]), results, marks, el("p", { cls: "note", text: note }),
      el("div", { id: "graph-wrap" }, [this.canvas, this.panel])]);
  };

  // startNode is the node the graph view shows first: the first that fails, else the first that
  // imposes a condition or loses precision, else the first.
  Page.prototype.startNode = function () {
    var order = ["error", "condition", "lost"];
    for (var k = 0; k < order.length; k++) {
      for (var i = 0; i < this.nodes.length; i++) if (this.nodes[i].mark === order[k]) return i;
    }
    return 0;
  };

  Page.prototype.neighbours = function (i) {
    var self = this, out = [];
    this.nodes[i].in.forEach(function (t) { if (t >= 0 && self.producer[t] !== undefined) out.push(self.producer[t]); });
    this.nodes[i].out.forEach(function (t) { if (t >= 0) (self.consumers[t] || []).forEach(function (c) { out.push(c); }); });
    return out;
  };

  // visible returns the nodes the view shows around node i: all of a small graph, else those within
  // the radius, nearest first, NEIGHBOURS at most; and whether some were left out.
  Page.prototype.visible = function (i) {
    if (this.nodes.length <= GRAPH_ALL) return { set: this.nodes.map(function (_, k) { return k; }), cut: false };
    var r = +this.radius.value, seen = {}, order = [i], depth = {};
    seen[i] = true; depth[i] = 0;
    var cut = false;
    for (var q = 0; q < order.length; q++) {
      var n = order[q];
      if (depth[n] >= r) continue;
      var ns = this.neighbours(n);
      for (var k = 0; k < ns.length; k++) {
        if (seen[ns[k]]) continue;
        if (order.length >= NEIGHBOURS) { cut = true; break; }
        seen[ns[k]] = true; depth[ns[k]] = depth[n] + 1; order.push(ns[k]);
      }
    }
    return { set: order, cut: cut };
  };

  Page.prototype.showGraph = function (i) {
    if (!this.nodes.length) return;
    this.selected = i;
    var self = this, vis = this.visible(i), inSet = {};
    vis.set.forEach(function (k) { inSet[k] = true; });
    var g = new dagre.graphlib.Graph({ multigraph: true });
    g.setGraph({ rankdir: "TB", nodesep: 24, ranksep: 40, edgesep: 6, marginx: 8, marginy: 8 });
    g.setDefaultEdgeLabel(function () { return {}; });
    var hidden = {};
    vis.set.forEach(function (k) {
      var n = self.nodes[k], label = n.op, sub = short(n.path);
      g.setNode("n" + k, { width: Math.max(label.length, sub.length) * 6.6 + 16, height: 34, k: k });
      self.neighbours(k).forEach(function (o) { if (!inSet[o]) hidden[k] = (hidden[k] || 0) + 1; });
    });
    vis.set.forEach(function (k) {
      self.nodes[k].out.forEach(function (t) {
        if (t < 0) return;
        (self.consumers[t] || []).forEach(function (c) {
          if (!inSet[c]) return;
          g.setEdge("n" + k, "n" + c, { label: clip(shapeText(self.tensors[t].shape), 40), t: t }, "t" + t + ">" + c);
        });
      });
    });
    dagre.layout(g);
    var gg = g.graph(), ns = "http://www.w3.org/2000/svg";
    var svg = document.createElementNS(ns, "svg");
    svg.setAttribute("width", Math.ceil(gg.width));
    svg.setAttribute("height", Math.ceil(gg.height));
    g.edges().forEach(function (e) {
      var ed = g.edge(e), grp = document.createElementNS(ns, "g");
      grp.setAttribute("class", "edge");
      var p = document.createElementNS(ns, "path");
      p.setAttribute("d", ed.points.map(function (pt, j) { return (j ? "L" : "M") + pt.x.toFixed(1) + " " + pt.y.toFixed(1); }).join(""));
      grp.appendChild(p);
      // The label at the middle of the edge: dagre lays out no label, which keeps it fast.
      var mid = ed.points[Math.floor(ed.points.length / 2)];
      var tx = document.createElementNS(ns, "text");
      tx.setAttribute("x", mid.x + 3); tx.setAttribute("y", mid.y - 2);
      tx.textContent = ed.label;
      grp.appendChild(tx);
      svg.appendChild(grp);
    });
    var selectedPos = null;
    g.nodes().forEach(function (id) {
      var nd = g.node(id), k = nd.k, n = self.nodes[k];
      var grp = document.createElementNS(ns, "g");
      grp.setAttribute("class", "node" + (n.mark ? " mark-" + n.mark : "") + (k === i ? " selected" : "") + (hidden[k] ? " more" : ""));
      grp.setAttribute("data-path", n.path);
      grp.setAttribute("transform", "translate(" + (nd.x - nd.width / 2).toFixed(1) + "," + (nd.y - nd.height / 2).toFixed(1) + ")");
      var r = document.createElementNS(ns, "rect");
      r.setAttribute("width", nd.width); r.setAttribute("height", nd.height);
      grp.appendChild(r);
      [[n.op, 14, "bold"], [short(n.path) + (hidden[k] ? " +" + hidden[k] : ""), 27, ""]].forEach(function (l) {
        var t = document.createElementNS(ns, "text");
        t.setAttribute("x", nd.width / 2); t.setAttribute("y", l[1]); t.setAttribute("text-anchor", "middle");
        if (l[2]) t.setAttribute("font-weight", l[2]);
        t.textContent = l[0];
        grp.appendChild(t);
      });
      var title = document.createElementNS(ns, "title");
      title.textContent = n.path + (n.message ? "\n" + n.message : "");
      grp.appendChild(title);
      grp.addEventListener("click", function () { self.select(k, false); });
      svg.appendChild(grp);
      if (k === i) selectedPos = nd;
    });
    this.canvas.textContent = "";
    this.canvas.appendChild(svg);
    if (selectedPos) {
      this.canvas.scrollLeft = Math.max(0, selectedPos.x - this.canvas.clientWidth / 2);
      this.canvas.scrollTop = Math.max(0, selectedPos.y - this.canvas.clientHeight / 2);
    }
    this.showPanel(i);
  };

  function short(path) {
    return path.length > 34 ? "…" + path.slice(path.length - 33) : path;
  }

  // clip shortens text to n characters at most, in the middle.
  function clip(text, n) {
    if (text.length <= n) return text;
    var half = Math.floor((n - 1) / 2);
    return text.slice(0, half) + "…" + text.slice(text.length - half);
  }

  // select chooses node i: the view centres on it and the panel shows its tensors; scroll brings
  // the graph into view.
  Page.prototype.select = function (i, scroll) {
    this.showGraph(i);
    if (scroll) document.getElementById("graph").scrollIntoView({ block: "start" });
  };

  Page.prototype.selectCondition = function (c) {
    var k = this.d.conditions[c].node_index;
    if (k >= 0) this.select(k, true);
  };

  // selectMapCondition chooses the node of the map's condition c (its legend's, a cell's
  // data-cond): a condition the page lists, or one the listed conditions imply.
  Page.prototype.selectMapCondition = function (c) {
    var m = this.d.map.conditions[c];
    if (m.cond >= 0) this.selectCondition(m.cond);
    else if (m.node in this.byPath) this.select(this.byPath[m.node], true);
  };

  Page.prototype.showPanel = function (i) {
    var self = this, n = this.nodes[i], d = this.d;
    var kids = [el("h3", { cls: "mono", id: "panel-node", text: n.path }), el("p", null, [el("b", { text: n.op }), n.scope ? " in " + n.scope : ""])];
    if (n.message) kids.push(el("p", { cls: n.mark === "error" ? "warn" : "note", text: n.message }));
    var conds = d.conditions.concat(d.limits || []).filter(function (c) { return c.node_index === i; });
    if (conds.length) {
      kids.push(el("p", null, ["Imposes:"]));
      kids.push(el("ul", null, conds.map(function (c) { return el("li", { cls: "mono", text: c.holds + (c.why ? "  (" + c.why + ")" : "") }); })));
    }
    function rows(list) {
      return list.map(function (t) {
        if (t < 0) return el("tr", null, [el("td", { colspan: 3, cls: "note", text: "a constant or initializer" })]);
        var tt = self.tensors[t];
        return el("tr", { "data-tensor": t }, [
          el("td", { cls: "mono path" }, [el("a", { cls: "node-link", text: tt.name, onclick: function () { self.setTensorFilter(tt.name); document.getElementById("tensors").scrollIntoView(); } })]),
          el("td", { cls: "mono", text: shapeText(tt.shape) }), el("td", { cls: "verdict verdict-" + verdictClass(tt.verdict), text: tt.verdict })]);
      });
    }
    kids.push(el("p", null, ["Inputs"]), table(["tensor", "shape", "verdict"], rows(n.in)));
    kids.push(el("p", null, ["Outputs"]), table(["tensor", "shape", "verdict"], rows(n.out)));
    this.panel.textContent = "";
    kids.forEach(function (k) { self.panel.appendChild(k); });
  };

  return { render: render, shapeText: shapeText };
})();
