// review.js: the overview table and one section per match (facts, source
// around the call sites, timeline, communication graph, adjacency matrix,
// patch and its verification), drawn from the page data.
"use strict";
(function () {
  var D = CZ.data, el = CZ.el, S = CZ.svg;
  var det = D.detection || null;
  // Fields of the wrong type (a hand-edited or foreign report) become empty
  // values, so one odd match cannot stop the others from being drawn.
  function normalize(m) {
    m = m && typeof m === "object" ? m : {};
    var num = function (v) { return typeof v === "number" && isFinite(v) ? v : null; };
    var out = {};
    for (var k in m) out[k] = m[k];
    out.kind = typeof m.kind === "string" ? m.kind : "?";
    out.status = typeof m.status === "string" ? m.status : "?";
    out.ranks = Array.isArray(m.ranks) ? m.ranks.filter(function (r) { return typeof r === "number"; }) : [];
    out.sites = Array.isArray(m.sites) ? m.sites.filter(function (x) { return x && typeof x === "object"; }).map(function (x) {
      return { id: String(x.id), kind: x.kind, role: String(x.role || "?"), file: typeof x.file === "string" ? x.file : null,
               line: num(x.line), callee: typeof x.callee === "string" ? x.callee : null, "function": typeof x["function"] === "string" ? x["function"] : null,
               caller: x.caller && typeof x.caller === "object" && typeof x.caller.file === "string" ? x.caller : null };
    }) : [];
    ["instances", "messages", "bytes_moved", "bytes_per_instance", "seconds_in_messages", "count", "coverage", "root", "root_world"].forEach(function (k) { out[k] = num(m[k]); });
    out.communicator = m.communicator && typeof m.communicator === "object" ? m.communicator : {};
    out.equivalent = typeof m.equivalent === "string" ? m.equivalent : "";
    return out;
  }
  var matches = det && Array.isArray(det.matches) ? det.matches.map(normalize) : [];
  var patches = D.patches && Array.isArray(D.patches.patches) ? D.patches.patches : [];
  var files = (D.patches && D.patches.files) || {};

  function q(v) { return v === null || v === undefined ? "?" : String(v); }
  function patchOf(i) {
    for (var k = 0; k < patches.length; k++) if (patches[k].match === i) return patches[k];
    return null;
  }
  function verifyOf(p) { return p && files[p.id] ? files[p.id].verify : null; }
  // The gain predicted from this machine's Hockney model (prediction.cpp),
  // or null when there is none (the reason is in .none).
  function predictionOf(i) {
    var p = (D.predictions || [])[i];
    return p && typeof p.gain_seconds === "number" && typeof p.mpi_us === "number" ? p : null;
  }
  // Seconds a run saves (measured), is predicted to save (model), or could
  // save at most (time in messages).
  function gainOf(i) {
    var m = matches[i], v = verifyOf(patchOf(i)), p = predictionOf(i);
    if (v && v.verdict === "verified" && v.original && v.patched)
      return { measured: true, seconds: v.original.median - v.patched.median, speedup: v.speedup,
               noise: withinSpread(v), prediction: p };
    if (p) return { measured: false, predicted: true, seconds: p.gain_seconds, prediction: p };
    return { measured: false, seconds: m.seconds_in_messages || 0 };
  }
  function predictedText(p) {
    return CZ.seconds(p.gain_seconds) + " predicted";
  }
  // The patched and original run times overlap: the difference of medians
  // is run-to-run spread, not a gain or a loss.
  function withinSpread(v) {
    var o = v.original, p = v.patched;
    if (typeof o.min !== "number" || typeof o.max !== "number" ||
        typeof p.min !== "number" || typeof p.max !== "number") return false;
    return o.min <= p.max && p.min <= o.max;
  }
  function verdictCell(i) {
    var p = patchOf(i), v = verifyOf(p);
    if (!D.patches) return el("span", { class: "verdict-none", text: "– no patches given" });
    if (!p) return el("span", { class: "verdict-none", text: "– no patch entry" });
    if (p.status === "none") return el("span", { class: "verdict-none", text: "– no patch: " + (p.reason || "") });
    if (!v) return el("span", { class: "verdict-none", text: "? " + p.status + ", not verified" });
    var ok = v.verdict === "verified";
    return el("span", { class: ok ? "verdict-ok" : "verdict-bad", text: (ok ? "✓ " : "✗ ") + v.verdict });
  }
  // "MPI_Comm_split at grid.c:40, color 1" when the trace says where the
  // communicator was made (two splits are told apart by it).
  function commText(c) {
    var t = (c && c.name) || "?", at = c && c.created_at;
    if (at && at.file) t += " at " + at.file.split("/").pop() + ":" + at.line;
    if (c && typeof c.color === "number") t += ", color " + c.color;
    return t;
  }
  function groupText(m) {
    var r = m.ranks || [], s = r.length > 8 ? r.slice(0, 8).join(",") + ",…" : r.join(",");
    return r.length + " ranks [" + s + "] of " + commText(m.communicator);
  }
  function order() {
    var idx = matches.map(function (_, i) { return i; });
    return idx.sort(function (a, b) {
      var ga = gainOf(a), gb = gainOf(b);
      if (ga.measured !== gb.measured) return ga.measured ? -1 : 1;
      if (!!ga.predicted !== !!gb.predicted) return ga.predicted ? -1 : 1; // like with like
      return gb.seconds - ga.seconds;
    });
  }

  function overview() {
    var body = document.getElementById("overview-body");
    body.textContent = "";
    // Inputs that were given but could not be used, named up front.
    var bad = (D.inputs || []).filter(function (i) { return i.status === "missing" || i.status === "malformed" || i.status === "partial"; });
    if (bad.length)
      body.appendChild(el("div", { class: "missing", role: "note", id: "input-problems" },
        bad.length + " input" + (bad.length > 1 ? "s" : "") + " could not be used fully: " + bad.map(function (i) { return i.name + " (" + i.status + ")"; }).join(", ") + ". ",
        el("a", { href: "#inputs", text: "Details under Inputs." })));
    if (!det) {
      var why = CZ.inputProblem("detection report");
      if (why && why.indexOf("not given") !== 0) { body.appendChild(CZ.missing("No detection report: it could not be read (" + why + "). The explorer, decision table and benchmarks below do not need it.")); return; }
      body.appendChild(CZ.missing("No detection report: there are no matches to review. Make one with `collectivize detect TRACE --sites SITES -o report.json` and pass it to `collectivize report`. The explorer, decision table and benchmarks below do not need it."));
      return;
    }
    var st = det.stats || {};
    body.appendChild(el("p", { text: matches.length + " hand-made collective" + (matches.length === 1 ? "" : "s") + " found in a trace of " + det.ranks + " ranks (" + (st.matched || 0) + " matched messages). Sorted by gain: measured (verified patches) first, then predicted (this machine's Hockney model for the MPI collective against the pattern's measured critical path), else the time spent in the match's messages, the most a replacement could save." }));
    if (det.warnings && det.warnings.length) {
      var ul = el("ul", { class: "small" });
      det.warnings.forEach(function (w) { ul.appendChild(el("li", { text: "detector warning: " + w })); });
      body.appendChild(ul);
    }
    if (!matches.length) { body.appendChild(CZ.missing("The detection report lists no matches.")); return; }
    var t = el("table", { id: "overview-table" },
      el("caption", { text: "Detected manual collectives" }),
      el("thead", {}, el("tr", {}, ["#", "Kind", "Status", "Group", "Root", "Instances", "Time in messages", "Verification", "Gain"].map(function (h) { return el("th", { scope: "col", text: h }); }))));
    var tb = el("tbody");
    order().forEach(function (i) {
      var m = matches[i], g = gainOf(i);
      var measured = CZ.seconds(g.seconds) + " per run (×" + (g.speedup || 0).toFixed(2) + ")";
      var gain = !g.measured ? (g.predicted ? predictedText(g.prediction) : "≤ " + CZ.seconds(g.seconds) + " (potential)")
                 : (g.noise ? "within run-to-run spread: " + measured : measured) +
                   (g.prediction ? "; " + predictedText(g.prediction) : "");
      tb.appendChild(el("tr", { "data-match": i },
        el("td", {}, el("a", { href: "#match-" + i, text: String(i + 1), onclick: function () { var b = document.querySelector("#match-" + i + " > button"); if (b) b.click(); } })),
        el("td", { "data-field": "kind", text: m.kind }),
        el("td", { "data-field": "status", text: m.status + (m.coverage !== undefined && m.coverage < 1 ? " (" + Math.round(m.coverage * 100) + "%)" : "") }),
        el("td", { "data-field": "group", text: groupText(m) }),
        el("td", { "data-field": "root", class: "num", text: m.root === null || m.root === undefined ? "—" : String(m.root) }),
        el("td", { "data-field": "instances", class: "num", text: q(m.instances) }),
        el("td", { "data-field": "seconds", class: "num", text: CZ.seconds(m.seconds_in_messages) }),
        el("td", { "data-field": "verdict" }, verdictCell(i)),
        el("td", { "data-field": "gain", class: "num", text: gain })));
    });
    t.appendChild(tb);
    body.appendChild(t);
  }

  function facts(m, i) {
    var dl = el("dl", { class: "facts" });
    function add(k, v) { dl.appendChild(el("dt", { text: k })); dl.appendChild(el("dd", {}, v)); }
    add("Equivalent call", el("code", { text: m.equivalent || "?" }));
    add("Group", groupText(m) + (m.subset ? " (a subset of the communicator)" : ""));
    add("Root", m.root === null || m.root === undefined ? "— (rootless)" : m.root + " (world rank " + m.root_world + ")");
    add("Instances", q(m.instances) + " instances, " + q(m.messages) + " messages, " + CZ.bytes(m.bytes_moved) + " moved");
    add("Per instance", CZ.bytes(m.bytes_per_instance) + " (" + q(m.count) + " × " + q(m.datatype) + ")");
    add("Time in messages", CZ.seconds(m.seconds_in_messages));
    var p = predictionOf(i), none = (D.predictions || [])[i];
    if (p)
      add("Predicted gain", el("span", { "data-field": "prediction", title: p.basis,
        text: "a prediction: " + CZ.seconds(p.gain_seconds) + " per run. The hand-made pattern's critical path (first send to last receive, waiting included) took " +
              p.manual_us.toFixed(1) + " µs per instance (mean of " + p.instances + " measured); the MPI collective is predicted at " + p.mpi_us.toFixed(1) +
              " µs from " + p.basis + ". The measured speedup of a verified patch is the evidence." }));
    else if (none && none.none) add("Predicted gain", el("span", { "data-field": "prediction", class: "small", text: "not predicted: " + none.none }));
    if (m.op) add("Operation", m.op);
    if (m.note) add("Note", m.note);
    var sites = (m.sites || []).map(function (s) {
      return (s.file ? s.file + ":" + s.line : "site " + s.id) + " (" + s.role + (s.callee ? ", " + s.callee : "") + (s.function ? " in " + s.function : "") + ")" +
             (s.caller ? " called from " + s.caller.file + ":" + s.caller.line + (typeof s.caller["function"] === "string" ? " in " + s.caller["function"] : "") : "");
    });
    add("Call sites", sites.length ? sites.join("; ") : "none recorded");
    return dl;
  }

  // Light C/C++ highlighting: comments, strings, keywords, MPI names. A
  // comment that spans lines is only recognised on its first line.
  var tokenRe = /(\/\/.*$|\/\*.*?(\*\/|$)|"(?:\\.|[^"\\])*"|'(?:\\.|[^'\\])*'|\b(?:if|else|for|while|do|switch|case|default|return|break|continue|int|double|float|char|void|long|short|unsigned|const|static|struct|sizeof|auto|template|class|namespace|using)\b|\b(?:MPI|PMPI|cz)_\w+)/g;
  function highlightC(text) {
    var out = [], last = 0, m;
    tokenRe.lastIndex = 0;
    while ((m = tokenRe.exec(text)) !== null) {
      if (!m[0].length) { tokenRe.lastIndex++; continue; }
      if (m.index > last) out.push(text.slice(last, m.index));
      var t = m[0], cls = t[0] === "/" ? "tk-com" : t[0] === '"' || t[0] === "'" ? "tk-str" : /^(MPI|PMPI|cz)_/.test(t) ? "tk-mpi" : "tk-kw";
      out.push(el("span", { class: cls, text: t }));
      last = m.index + t.length;
    }
    if (last < text.length) out.push(text.slice(last));
    return out;
  }

  function sources(i) {
    var box = el("div", { class: "sources" }, el("h3", { text: "Source around the call sites" }));
    var list = (D.sources || [])[i];
    if (!list || !list.length) {
      box.appendChild(CZ.missing("No source lines: the report has no file:line for this match's sites (uninstrumented binary without debug information?) or no detection report."));
      return box;
    }
    list.forEach(function (f) {
      box.appendChild(el("p", {}, el("code", { text: f.file }), f.path && f.path !== f.file ? el("span", { class: "small", text: "  " + f.path }) : null));
      if (!f.chunks) { box.appendChild(CZ.missing(f.file + ": " + (f.missing || "not found"))); return; }
      if (f.changed) box.appendChild(CZ.missing(f.file + " " + f.changed));
      var marks = {};
      (f.marks || []).forEach(function (l) { marks[l] = true; });
      var pre = el("pre", { class: "src", "data-file": f.file });
      f.chunks.forEach(function (c, k) {
        if (k) pre.appendChild(el("span", { class: "gap", text: "⋮" }));
        c.lines.forEach(function (text, j) {
          var n = c.first + j;
          pre.appendChild(el("span", { class: "line" + (marks[n] ? " hit" : ""), "data-line": n },
            el("span", { class: "ln", text: String(n) }), highlightC(text)));
        });
      });
      box.appendChild(pre);
    });
    return box;
  }

  function timeline(i, t) {
    var box = el("div", {}, el("h3", { text: "Timeline" }));
    if (!t) {
      box.appendChild(CZ.missing("No timeline: it needs the trace (" + timelineReason() + ")."));
      return box;
    }
    var ranks = t.ranks.length, W = 960, left = 64, right = 16, rowH = Math.max(16, Math.min(34, 420 / ranks));
    var H = 30 + ranks * rowH + 20, span = Math.max(t.span_us, 1e-3);
    var x = function (us) { return left + (W - left - right) * Math.max(0, Math.min(us, span)) / span; };
    var y = function (r) { return 20 + r * rowH + rowH / 2; };
    var svg = S("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, role: "img", class: "timeline", "aria-label": "Timeline of the first " + t.instances_shown + " instances: " + t.messages.length + " messages of the match, " + t.other.length + " other messages" });
    var defs = S("defs");
    [["own" + i, "#0072b2"], ["oth" + i, "#9a9a9a"]].forEach(function (d) {
      defs.appendChild(S("marker", { id: "ah-" + d[0], viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 6, markerHeight: 6, orient: "auto-start-reverse" }, S("path", { d: "M0,0 L10,5 L0,10 z", fill: d[1] })));
    });
    svg.appendChild(defs);
    for (var r = 0; r < ranks; r++) {
      svg.appendChild(S("line", { x1: left, x2: W - right, y1: y(r), y2: y(r), stroke: "#d0d4da" }));
      svg.appendChild(S("text", { x: 4, y: y(r) + 4, text: "rank " + t.ranks[r] }));
    }
    for (var k = 0; k <= 5; k++) {
      var us = span * k / 5, tx = x(us);
      svg.appendChild(S("line", { x1: tx, x2: tx, y1: 16, y2: H - 16, stroke: "#eef0f3" }));
      svg.appendChild(S("text", { x: k === 5 ? tx - 60 : tx + 2, y: 12, text: CZ.seconds(us * 1e-6) }));
    }
    function arrows(list, own) {
      list.forEach(function (m) {
        var a = S("line", { x1: x(m[2]), y1: y(m[0]), x2: x(Math.max(m[3], m[2])), y2: y(m[1]),
          stroke: own ? "#0072b2" : "#9a9a9a", "stroke-width": own ? 2 : 1, "stroke-dasharray": own ? null : "4 3",
          "marker-end": "url(#ah-" + (own ? "own" : "oth") + i + ")", class: own ? "msg-own" : "msg-other" });
        a.appendChild(S("title", { text: (own ? "match" : "other traffic") + ": rank " + m[0] + " → " + m[1] + ", " + CZ.bytes(m[4]) + ", tag " + m[5] + ", sent at " + m[2].toFixed(2) + " µs, received " + m[3].toFixed(2) + " µs" }));
        svg.appendChild(a);
      });
    }
    arrows(t.other, false);
    arrows(t.messages, true);
    box.appendChild(el("p", { class: "legend" }, el("span", { class: "sw" }), "messages of this match (solid, with arrow)", el("span", { class: "sw other" }), "unrelated traffic in the same window (grey, dashed)"));
    box.appendChild(el("div", { class: "timeline-wrap" }, svg));
    if (t.shared_sites > 1) box.appendChild(CZ.missing(t.shared_sites + " matches share this communicator and these call sites, and the trace cannot tell their messages apart: the arrows include the others' messages."));
    box.appendChild(el("p", { class: "small", text: "First " + t.instances_shown + " instance(s): " + t.messages.length + " of the match's " + t.match_messages_total + " messages, and " + t.other.length + " of " + t.other_in_window + " other messages in that window. Hover an arrow for its details." }));
    return box;
  }
  function timelineReason() {
    var why = "";
    (D.inputs || []).forEach(function (s) { if (s.name.indexOf("trace") === 0 && s.status !== "ok") why = s.message; });
    return why || "no messages of this match were found in the trace";
  }

  function pairs(t) {
    var map = {};
    t.messages.forEach(function (m) {
      var k = m[0] + ">" + m[1];
      map[k] = map[k] || { from: m[0], to: m[1], count: 0, bytes: 0 };
      map[k].count++; map[k].bytes += m[4];
    });
    return Object.keys(map).map(function (k) { return map[k]; });
  }

  function graph(i, m, t) {
    var box = el("div", {}, el("h3", { text: "Communication graph" }));
    if (!t) { box.appendChild(CZ.missing("No graph: it is drawn from the trace's messages (" + timelineReason() + ").")); return box; }
    var nodes = m.ranks || [], n = nodes.length, R = Math.max(90, Math.min(200, n * 14)), W = 2 * R + 80, c = W / 2;
    var pos = {};
    nodes.forEach(function (r, k) { var a = 2 * Math.PI * k / n - Math.PI / 2; pos[r] = [c + R * Math.cos(a), c + R * Math.sin(a)]; });
    var svg = S("svg", { width: W, height: W, viewBox: "0 0 " + W + " " + W, role: "img", class: "graph", "aria-label": "Who sends to whom in the match" });
    svg.appendChild(S("defs", {}, S("marker", { id: "gh" + i, viewBox: "0 0 10 10", refX: 10, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto" }, S("path", { d: "M0,0 L10,5 L0,10 z", fill: "#0072b2" }))));
    var ps = pairs(t), max = 1;
    ps.forEach(function (p) { max = Math.max(max, p.count); });
    ps.forEach(function (p) {
      var a = pos[p.from], b = pos[p.to];
      if (!a || !b) return;
      var dx = b[0] - a[0], dy = b[1] - a[1], len = Math.sqrt(dx * dx + dy * dy) || 1, r = 13;
      // Bend each direction to its own side so A->B and B->A stay apart.
      var mx = (a[0] + b[0]) / 2 - dy / len * 12, my = (a[1] + b[1]) / 2 + dx / len * 12;
      var path = S("path", { d: "M" + (a[0] + dx / len * r) + "," + (a[1] + dy / len * r) + " Q" + mx + "," + my + " " + (b[0] - dx / len * r) + "," + (b[1] - dy / len * r),
        fill: "none", stroke: "#0072b2", "stroke-width": 1 + 3 * p.count / max, "marker-end": "url(#gh" + i + ")", class: "edge" });
      path.appendChild(S("title", { text: "rank " + p.from + " → " + p.to + ": " + p.count + " messages, " + CZ.bytes(p.bytes) }));
      svg.appendChild(path);
    });
    nodes.forEach(function (r) {
      var root = r === m.root_world;
      svg.appendChild(S("circle", { cx: pos[r][0], cy: pos[r][1], r: 12, fill: root ? "#e69f00" : "#fff", stroke: "#1a1a1a", "stroke-width": root ? 3 : 1.5 }));
      svg.appendChild(S("text", { x: pos[r][0], y: pos[r][1] + 4, "text-anchor": "middle", text: String(r) }));
    });
    box.appendChild(el("div", { class: "graph-wrap" }, svg));
    box.appendChild(el("p", { class: "small", text: "Nodes: world ranks of the group" + (m.root_world !== null && m.root_world !== undefined ? " (root " + m.root_world + ": orange, thick outline)" : "") + ". Edge width: messages in the instances shown." }));
    return box;
  }

  function matrix(i, m, t) {
    var box = el("div", {}, el("h3", { text: "Send/receive matrix" }));
    if (!t) { box.appendChild(CZ.missing("No matrix: it is counted from the trace's messages (" + timelineReason() + ").")); return box; }
    var nodes = m.ranks || [], cell = {}, max = 1;
    pairs(t).forEach(function (p) { cell[p.from + ">" + p.to] = p; max = Math.max(max, p.count); });
    var tbl = el("table", { class: "matrix", "data-match": i }, el("caption", { text: "Messages sender (row) → receiver (column), first " + t.instances_shown + " instance(s)" }));
    var head = el("tr", {}, el("th", { scope: "col", text: "from \\ to" }));
    nodes.forEach(function (r) { head.appendChild(el("th", { scope: "col", text: String(r) })); });
    tbl.appendChild(el("thead", {}, head));
    var tb = el("tbody");
    nodes.forEach(function (a) {
      var tr = el("tr", {}, el("th", { scope: "row", text: String(a) }));
      nodes.forEach(function (b) {
        var p = cell[a + ">" + b], v = p ? p.count : 0;
        var shade = v ? "rgba(0,114,178," + (0.12 + 0.5 * v / max).toFixed(2) + ")" : "";
        tr.appendChild(el("td", { style: shade ? "background:" + shade : null, title: p ? p.count + " messages, " + CZ.bytes(p.bytes) : "none", "data-from": a, "data-to": b, text: v ? String(v) : "·" }));
      });
      tb.appendChild(tr);
    });
    tbl.appendChild(tb);
    box.appendChild(tbl);
    return box;
  }

  function patch(i) {
    var box = el("div", {}, el("h3", { text: "Patch" }));
    if (!D.patches) { box.appendChild(CZ.missing("No patch directory was given (`collectivize rewrite report.json -o PATCH_DIR`, then `collectivize report --patches PATCH_DIR`).")); return box; }
    var p = patchOf(i);
    if (!p) { box.appendChild(CZ.missing("patches.json has no entry for this match.")); return box; }
    var f = files[p.id] || {}, v = f.verify;
    box.appendChild(el("p", {}, el("strong", { text: p.id + ": " + p.status }), p.reason ? " — " + p.reason : "", p.replacement ? el("span", {}, " → ", el("code", { text: p.replacement })) : null));
    if (p.suggestion && p.suggestion.call) {
      // Fortran: a call written from the sites' source text, never a patch.
      var sg = el("div", { class: "suggestion" }, el("p", {}, el("strong", { text: "Suggestion, not a patch: " }), el("code", { text: p.suggestion.call })));
      (p.suggestion.replaces || []).forEach(function (r) {
        sg.appendChild(el("p", { text: "in place of " + r.file + " line" + (r.first_line === r.last_line ? " " + r.first_line : "s " + r.first_line + "-" + r.last_line) + ":" }));
        sg.appendChild(el("pre", { class: "diff", text: r.text }));
      });
      box.appendChild(sg);
    }
    if (f.diff) {
      var pre = el("pre", { class: "diff", "aria-label": "unified diff" });
      f.diff.split("\n").forEach(function (l) {
        var cls = /^(\+\+\+|---|diff )/.test(l) ? "file" : l[0] === "+" ? "add" : l[0] === "-" ? "del" : l.slice(0, 2) === "@@" ? "hunk" : "";
        pre.appendChild(el("span", { class: cls, text: l || " " }));
      });
      box.appendChild(pre);
    } else if (p.status !== "none") {
      box.appendChild(CZ.missing("The diff file " + (p.diff || "(none named)") + " is missing from the patch directory."));
    }
    if (v) {
      var dl = el("dl", { class: "facts" });
      function add(k, val) { dl.appendChild(el("dt", { text: k })); dl.appendChild(el("dd", {}, val)); }
      add("Verdict", el("span", { class: v.verdict === "verified" ? "verdict-ok" : "verdict-bad", text: (v.verdict === "verified" ? "✓ " : "✗ ") + v.verdict }));
      add("Evidence", v.evidence || "");
      if (v.original && v.patched) add("Run time", "original median " + CZ.seconds(v.original.median) + ", patched " + CZ.seconds(v.patched.median) + " over " + v.runs + " runs (speedup ×" + (v.speedup || 0).toFixed(2) + ")" +
        (withinSpread(v) ? "; the two sets of run times overlap (original " + CZ.seconds(v.original.min) + "–" + CZ.seconds(v.original.max) + ", patched " + CZ.seconds(v.patched.min) + "–" + CZ.seconds(v.patched.max) + "), so the difference is within run-to-run spread" : ""));
      if (v.retrace) add("Re-traced", JSON.stringify(v.retrace.collectives || {}) + ", manual collectives left: " + v.retrace.matches_left);
      box.appendChild(dl);
    } else if (p.status !== "none") {
      box.appendChild(CZ.missing("Not verified yet: `collectivize verify PATCH_DIR -- CMD` writes " + p.id + ".verify.json."));
    }
    if (f.rationale) box.appendChild(el("details", {}, el("summary", { text: "Rationale (" + p.rationale + ")" }), el("pre", { class: "diff", text: f.rationale })));
    return box;
  }

  function sectionsFor() {
    var body = document.getElementById("matches-body");
    if (!det) { body.appendChild(CZ.missing("No detection report, so no matches.")); return; }
    if (!matches.length) { body.appendChild(el("p", { text: "No matches." })); return; }
    // Big reports stay quick: the first sections are drawn, the rest on demand.
    var drawnAtOnce = 40;
    order().forEach(function (i, rank) {
      var m = matches[i];
      var sec = el("section", { class: "match", id: "match-" + i, "data-match": i, "aria-labelledby": "match-h-" + i },
        el("h3", { id: "match-h-" + i, text: "#" + (i + 1) + " " + m.kind + " (" + m.status + ") — " + (m.equivalent || "") }));
      body.appendChild(sec);
      if (rank < drawnAtOnce) { drawMatch(sec, i); return; }
      var more = el("button", { type: "button", text: "Draw this match's details", onclick: function () { sec.removeChild(more); drawMatch(sec, i); } });
      sec.appendChild(more);
    });
  }

  function drawMatch(sec, i) {
    {
      var m = matches[i], t = (D.timelines || [])[i] || null;
      CZ.part("match " + (i + 1) + " facts", function () { sec.appendChild(facts(m, i)); });
      CZ.part("match " + (i + 1) + " sources", function () { sec.appendChild(sources(i)); });
      CZ.part("match " + (i + 1) + " timeline", function () { sec.appendChild(timeline(i, t)); });
      var row = el("div", { class: "grid2" });
      CZ.part("match " + (i + 1) + " graph", function () { row.appendChild(graph(i, m, t)); });
      CZ.part("match " + (i + 1) + " matrix", function () { row.appendChild(matrix(i, m, t)); });
      sec.appendChild(row);
      CZ.part("match " + (i + 1) + " patch", function () { sec.appendChild(patch(i)); });
    }
  }

  CZ.part("overview", overview);
  CZ.part("matches", sectionsFor);
})();
