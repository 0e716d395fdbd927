// The web app: a model dropped on the page is checked by reshape's engine compiled to WebAssembly
// (reshape.wasm, cmd/reshape-wasm), in the page: nothing is uploaded. The engine reads files through
// globalThis.fs, which this script provides before wasm_exec.js loads: the dropped File objects,
// read by slices (File.slice), so that a model of hundreds of MB is read only where the engine
// looks (its structure, and the constants shapes need).
"use strict";
var ReshapeApp = (function () {
  var DIR = "/models/";
  var files = {}; // path -> File
  var fds = {}; // fd -> {path, file, pos}
  var nextFD = 10;
  var stats = { reads: 0, bytes: 0 };
  // A cache of the slices read, so that the engine's several passes over a file's structure read
  // it once; slices above 8 MiB (values read for fix) are not kept.
  var cache = new Map(), cached = 0, CACHE_MAX = 256 << 20;

  function fsError(code, msg) {
    var e = new Error(msg + " (" + code + ")");
    e.code = code;
    return e;
  }
  function enosys(name) {
    return function () {
      arguments[arguments.length - 1](fsError("ENOSYS", name + " is not available in the browser"));
    };
  }
  function statOf(path) {
    var dir = path === DIR.slice(0, -1) || path === DIR;
    var f = files[path];
    if (!dir && !f) return null;
    var size = dir ? 0 : f.size, t = dir ? 0 : f.lastModified;
    return {
      dev: 1, ino: 1, mode: dir ? 0o40755 : 0o100644, nlink: 1, uid: 0, gid: 0, rdev: 0, size: size,
      blksize: 4096, blocks: Math.ceil(size / 512), atimeMs: t, mtimeMs: t, ctimeMs: t,
      isDirectory: function () { return dir; },
    };
  }

  var decoder = new TextDecoder("utf-8"), outBuf = "";
  globalThis.fs = {
    constants: { O_RDONLY: 0, O_WRONLY: 1, O_RDWR: 2, O_CREAT: 64, O_EXCL: 128, O_TRUNC: 512, O_APPEND: 1024, O_DIRECTORY: 65536 },
    writeSync: function (fd, buf) {
      outBuf += decoder.decode(buf);
      var nl = outBuf.lastIndexOf("\n");
      if (nl !== -1) {
        console.log(outBuf.substring(0, nl));
        outBuf = outBuf.substring(nl + 1);
      }
      return buf.length;
    },
    write: function (fd, buf, offset, length, position, cb) {
      if (fd !== 1 && fd !== 2) return cb(fsError("EBADF", "files are read only"));
      cb(null, this.writeSync(fd, buf.subarray(offset, offset + length)));
    },
    open: function (path, flags, mode, cb) {
      if (flags & 3) return cb(fsError("EROFS", path + ": read only"));
      var st = statOf(path);
      if (!st) return cb(fsError("ENOENT", path + ": no such file"));
      var fd = nextFD++;
      fds[fd] = { path: path, file: files[path], pos: 0 };
      cb(null, fd);
    },
    close: function (fd, cb) { delete fds[fd]; cb(null); },
    fstat: function (fd, cb) {
      var f = fds[fd];
      if (!f) return cb(fsError("EBADF", "bad file"));
      cb(null, statOf(f.path));
    },
    stat: function (path, cb) {
      var st = statOf(path);
      if (!st) return cb(fsError("ENOENT", path + ": no such file"));
      cb(null, st);
    },
    lstat: function (path, cb) { this.stat(path, cb); },
    readdir: function (path, cb) {
      if (path !== DIR && path !== DIR.slice(0, -1)) return cb(fsError("ENOENT", path + ": no such directory"));
      cb(null, Object.keys(files).map(function (p) { return p.slice(DIR.length); }));
    },
    read: function (fd, buffer, offset, length, position, cb) {
      var f = fds[fd];
      if (!f) return cb(fsError("EBADF", "bad file"));
      var pos = position === null ? f.pos : position;
      var end = Math.min(pos + length, f.file.size);
      if (pos >= end) return cb(null, 0);
      var key = f.path + ":" + pos + ":" + end;
      var hit = cache.get(key);
      function done(bytes) {
        buffer.set(bytes, offset);
        if (position === null) f.pos = pos + bytes.length;
        cb(null, bytes.length);
      }
      if (hit) return done(hit);
      stats.reads++;
      stats.bytes += end - pos;
      f.file.slice(pos, end).arrayBuffer().then(function (ab) {
        var bytes = new Uint8Array(ab);
        if (bytes.length <= 8 << 20 && cached + bytes.length <= CACHE_MAX) {
          cache.set(key, bytes);
          cached += bytes.length;
        }
        done(bytes);
      }, function (err) { cb(fsError("EIO", String(err))); });
    },
    fsync: function (fd, cb) { cb(null); },
    chmod: enosys("chmod"), chown: enosys("chown"), fchmod: enosys("fchmod"), fchown: enosys("fchown"),
    ftruncate: enosys("ftruncate"), lchown: enosys("lchown"), link: enosys("link"), mkdir: enosys("mkdir"),
    readlink: enosys("readlink"), rename: enosys("rename"), rmdir: enosys("rmdir"), symlink: enosys("symlink"),
    truncate: enosys("truncate"), unlink: enosys("unlink"), utimes: enosys("utimes"),
  };
  globalThis.process = {
    getuid: function () { return -1; }, getgid: function () { return -1; }, geteuid: function () { return -1; },
    getegid: function () { return -1; }, getgroups: function () { throw fsError("ENOSYS", "getgroups"); },
    pid: -1, ppid: -1, umask: function () { return 0o22; }, cwd: function () { return DIR; },
    chdir: function () { throw fsError("ENOSYS", "chdir"); },
  };

  var model = null; // the path of the model checked
  var status, dimsBox, report, fixOut, ready;

  function setStatus(text, error) {
    status.textContent = text;
    status.className = error ? "warn" : "note";
  }

  // pick returns the model among the dropped files: an ONNX model, else an IR .xml, else a .json.
  function pick() {
    var names = Object.keys(files);
    var order = [".onnx", ".xml", ".json"];
    for (var k = 0; k < order.length; k++) {
      for (var i = 0; i < names.length; i++) if (names[i].toLowerCase().endsWith(order[k])) return names[i];
    }
    return names[0] || null;
  }

  function load(list) {
    files = {};
    cache.clear();
    cached = 0;
    for (var i = 0; i < list.length; i++) files[DIR + list[i].name] = list[i];
    model = pick();
    dimsBox.textContent = "";
    fixOut.textContent = "";
    if (!model) return setStatus("No file dropped.", true);
    run({});
  }

  function dimValues() {
    var dims = {};
    dimsBox.querySelectorAll("input[data-symbol]").forEach(function (inp) {
      if (inp.value.trim() !== "") dims[inp.getAttribute("data-symbol")] = parseInt(inp.value, 10);
    });
    return dims;
  }

  function run(dims) {
    var t0 = performance.now(), r0 = stats.bytes;
    setStatus("Checking " + model.slice(DIR.length) + " (" + sizeText(files[model].size) + ") …");
    ready.then(function () {
      return globalThis.reshape.check(model, JSON.stringify({ dims: dims }));
    }).then(function (json) {
      var data = JSON.parse(json);
      var ms = performance.now() - t0;
      ReshapeReport.render(report, data);
      if (!Object.keys(dims).length) showDims(data);
      setStatus("Checked in " + (ms / 1000).toFixed(2) + " s; read " + sizeText(stats.bytes - r0) + " of " + sizeText(files[model].size) + ". Nothing was uploaded.");
      status.setAttribute("data-ms", Math.round(ms));
      status.setAttribute("data-read", stats.bytes - r0);
    }, function (err) {
      report.textContent = "";
      setStatus(String(err.message || err), true);
    });
  }

  function showDims(data) {
    dimsBox.textContent = "";
    if (!data.symbols || !data.symbols.length) return;
    dimsBox.appendChild(document.createTextNode("Bind symbols (--dim): "));
    data.symbols.forEach(function (s) {
      var inp = document.createElement("input");
      inp.type = "number";
      inp.min = "0";
      inp.setAttribute("data-symbol", s.name);
      inp.placeholder = s.name;
      var label = document.createElement("label");
      label.appendChild(document.createTextNode(s.name + " "));
      label.appendChild(inp);
      dimsBox.appendChild(label);
    });
    var again = document.createElement("button");
    again.id = "recheck";
    again.textContent = "Check again";
    again.addEventListener("click", function () { run(dimValues()); });
    dimsBox.appendChild(again);
  }

  function fix() {
    if (!model || !model.toLowerCase().endsWith(".onnx")) return setStatus("fix rewrites ONNX models: drop an .onnx file.", true);
    setStatus("Fixing " + model.slice(DIR.length) + " …");
    ready.then(function () {
      return globalThis.reshape.fix(model, JSON.stringify({ export: dimValues() }));
    }).then(function (res) {
      fixOut.textContent = "";
      var pre = document.createElement("pre");
      pre.id = "fix-text";
      pre.textContent = res.text;
      if (!res.model) {
        fixOut.appendChild(pre);
        return setStatus("Nothing to fix: no Reshape rewritten, so no model is offered (it would be the one dropped).");
      }
      var name = model.slice(DIR.length).replace(/\.onnx$/i, "") + ".fixed.onnx";
      var a = document.createElement("a");
      a.id = "download";
      a.download = name;
      a.href = URL.createObjectURL(new Blob([res.model], { type: "application/octet-stream" }));
      a.textContent = "Download " + name + " (" + sizeText(res.model.length) + ")";
      fixOut.appendChild(a);
      fixOut.appendChild(pre);
      setStatus("Fixed: " + res.rewrites + (res.rewrites === 1 ? " Reshape" : " Reshapes") + " rewritten. The fixed model was proven in the page.");
    }, function (err) { setStatus(String(err.message || err), true); });
  }

  function sizeText(n) {
    if (n >= 1 << 20) return (n / (1 << 20)).toFixed(1) + " MiB";
    if (n >= 1 << 10) return (n / (1 << 10)).toFixed(1) + " KiB";
    return n + " B";
  }

  function start() {
    status = document.getElementById("status");
    dimsBox = document.getElementById("dims");
    report = document.getElementById("report");
    fixOut = document.getElementById("fix-out");
    var drop = document.getElementById("drop"), input = document.getElementById("files");
    ready = new Promise(function (resolve, reject) {
      if (globalThis.reshape) return resolve();
      globalThis.addEventListener("reshape-ready", function () { resolve(); });
      var go = new Go();
      var wasm = fetch("reshape.wasm");
      var inst = WebAssembly.instantiateStreaming ? WebAssembly.instantiateStreaming(wasm, go.importObject).catch(function () {
        return fetch("reshape.wasm").then(function (r) { return r.arrayBuffer(); }).then(function (b) { return WebAssembly.instantiate(b, go.importObject); });
      }) : wasm.then(function (r) { return r.arrayBuffer(); }).then(function (b) { return WebAssembly.instantiate(b, go.importObject); });
      inst.then(function (r) { go.run(r.instance); }, reject);
    });
    ready.then(function () {
      document.getElementById("engine").textContent = globalThis.reshape.version;
      setStatus("Ready: drop a model.");
    }, function (err) { setStatus("The engine did not load: " + err, true); });
    input.addEventListener("change", function () { load(input.files); });
    drop.addEventListener("dragover", function (ev) { ev.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", function () { drop.classList.remove("over"); });
    drop.addEventListener("drop", function (ev) {
      ev.preventDefault();
      drop.classList.remove("over");
      load(ev.dataTransfer.files);
    });
    document.getElementById("fix").addEventListener("click", fix);
  }

  return { start: start, stats: stats };
})();
