// decision.js: the decision table as area plots (process count x message
// size -> algorithm; click an area to open it in the explorer) and the
// benchmark plots (latency vs message size per algorithm, one line per P).
"use strict";
(function () {
  var D = CZ.data, el = CZ.el, S = CZ.svg;
  // Algorithms the explorer has, by the runtime's names.
  function explorerId(coll, name) {
    if (coll === "alltoall" && name === "bruck") return "alltoall:bruck";
    if (coll === "alltoall" && /^bruck:\d+$/.test(name)) return "alltoall:" + name;
    if (coll === "alltoall" && (name === "spread_out" || name === "pairwise")) return "alltoall:" + name;
    if (coll === "allgather" && /^(gather_bcast|recursive_doubling|ring)$/.test(name)) return "allgather:" + name;
    return null;
  }
  function sizeLabel(b) { return b >= 1048576 ? b / 1048576 + "M" : b >= 1024 ? b / 1024 + "K" : String(b); }
  // Fill patterns so areas differ by more than colour.
  function patterns(defs, id, k, colour) {
    var pat = S("pattern", { id: id, patternUnits: "userSpaceOnUse", width: 8, height: 8 });
    pat.appendChild(S("rect", { width: 8, height: 8, fill: colour, "fill-opacity": 0.55 }));
    var marks = ["", "M0,8 L8,0", "M0,0 L8,8", "M4,0 L4,8", "M0,4 L8,4", "M0,0 L8,8 M0,8 L8,0"];
    if (marks[k % marks.length]) pat.appendChild(S("path", { d: marks[k % marks.length], stroke: "#000", "stroke-opacity": 0.45, "stroke-width": 1 }));
    else pat.appendChild(S("circle", { cx: 4, cy: 4, r: 1.2, fill: "#000", "fill-opacity": 0.45 }));
    defs.appendChild(pat);
  }

  function areaPlot(g, note) {
    var procs = g.procs, bytes = g.bytes, cw = 16, ch = 6, left = 46, top = 10;
    var W = left + bytes.length * cw + 10, H = top + procs.length * ch + 40;
    var algs = [];
    g.grid.forEach(function (row) { row.forEach(function (a) { if (algs.indexOf(a) < 0) algs.push(a); }); });
    var svg = S("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, class: "area", role: "group", "aria-label": g.collective + " decision areas", "data-collective": g.collective });
    var defs = S("defs");
    algs.forEach(function (a, k) { patterns(defs, "pat-" + g.collective + "-" + k, k, CZ.palette[k % CZ.palette.length]); });
    svg.appendChild(defs);
    // Runs of equal cells along a row become one rectangle.
    procs.forEach(function (p, r) {
      var row = g.grid[r], c = 0;
      while (c < row.length) {
        var e = c;
        while (e + 1 < row.length && row[e + 1] === row[c]) e++;
        var a = row[c], k = algs.indexOf(a), ex = explorerId(g.collective, a);
        var rect = S("rect", { x: left + c * cw, y: top + (procs.length - 1 - r) * ch, width: (e - c + 1) * cw, height: ch,
          fill: "url(#pat-" + g.collective + "-" + k + ")", "data-algorithm": a, "data-procs": p,
          "aria-label": g.collective + " P=" + p + ", " + sizeLabel(bytes[c]) + "–" + sizeLabel(bytes[e]) + " B: " + a + (ex ? " (open in the explorer)" : "") });
        rect.appendChild(S("title", { text: g.collective + ", P = " + p + ", " + sizeLabel(bytes[c]) + "–" + sizeLabel(bytes[e]) + " bytes: " + a + (ex ? " — click to open in the explorer" : "") }));
        var open = function (a2, p2) { return function (ev) {
          if (ev.type === "keydown" && ev.key !== "Enter" && ev.key !== " ") return;
          var id = explorerId(g.collective, a2);
          if (id && CZ.openAlgorithm) CZ.openAlgorithm(id, Math.min(32, p2));
          else note.textContent = a2 + ": " + (a2 === "mpi" ? "the MPI library's own collective" : "not in the explorer") + " (P = " + p2 + ").";
        }; }(a, p);
        rect.addEventListener("click", open);
        svg.appendChild(rect);
        c = e + 1;
      }
    });
    for (var c2 = 0; c2 < bytes.length; c2 += 4)
      svg.appendChild(S("text", { x: left + c2 * cw, y: top + procs.length * ch + 14, text: sizeLabel(bytes[c2]) }));
    svg.appendChild(S("text", { x: left, y: top + procs.length * ch + 30, text: g.collective === "bcast" || g.collective === "allreduce" ? "message bytes →" : "bytes per block →" }));
    for (var r2 = 0; r2 < procs.length; r2++)
      if (procs[r2] === 2 || procs[r2] % 8 === 0)
        svg.appendChild(S("text", { x: 4, y: top + (procs.length - 1 - r2) * ch + 5, text: "P=" + procs[r2] }));
    var legend = el("ul", { class: "small" });
    algs.forEach(function (a, k) {
      var sw = S("svg", { width: 22, height: 14 }, S("rect", { width: 22, height: 14, fill: "url(#pat-" + g.collective + "-" + k + ")", stroke: "#555" }));
      sw.insertBefore(defs.cloneNode(true), sw.firstChild);
      // Keyboard users open an algorithm from its legend entry.
      var id = explorerId(g.collective, a), minP = null;
      g.grid.forEach(function (row, r) { if (minP === null && row.indexOf(a) >= 0) minP = procs[r]; });
      legend.appendChild(el("li", {}, sw, " ", id ? el("button", { type: "button", class: "linkish", text: a + " → explorer", onclick: function () { CZ.openAlgorithm(id, Math.min(32, minP || 8)); } }) : a + " (no explorer view)"));
    });
    return el("figure", {}, el("figcaption", {}, el("strong", { text: g.collective })), svg, legend);
  }

  CZ.part("decision table", function () {
    var body = document.getElementById("decision-body"), dec = D.decision;
    if (!dec || !dec.collectives) { body.appendChild(CZ.missing("No decision table data.")); return; }
    body.appendChild(el("p", { text: "Which algorithm cz_<collective> runs, by process count (up) and size (right), as the runtime itself selects it from " + dec.source + ". Click an area to step through that algorithm in the explorer." }));
    var note = el("p", { class: "small", id: "decision-note", "aria-live": "polite" });
    var wrap = el("div", { class: "decision-grid" });
    dec.collectives.forEach(function (g) { wrap.appendChild(areaPlot(g, note)); });
    body.appendChild(wrap);
    body.appendChild(note);
  });

  var markers = ["circle", "square", "triangle", "diamond", "cross"];
  function marker(kind, x, y, colour) {
    if (kind === "circle") return S("circle", { cx: x, cy: y, r: 3.5, fill: colour });
    if (kind === "square") return S("rect", { x: x - 3, y: y - 3, width: 6, height: 6, fill: colour });
    if (kind === "triangle") return S("path", { d: "M" + x + "," + (y - 4) + " L" + (x + 4) + "," + (y + 3) + " L" + (x - 4) + "," + (y + 3) + "z", fill: colour });
    if (kind === "diamond") return S("path", { d: "M" + x + "," + (y - 4) + " L" + (x + 4) + "," + y + " L" + x + "," + (y + 4) + " L" + (x - 4) + "," + y + "z", fill: colour });
    return S("path", { d: "M" + (x - 3) + "," + (y - 3) + " L" + (x + 3) + "," + (y + 3) + " M" + (x - 3) + "," + (y + 3) + " L" + (x + 3) + "," + (y - 3), stroke: colour, "stroke-width": 2 });
  }

  function benchPlot(coll, alg, rows, procsAll, yRange, xRange) {
    var W = 380, H = 250, l = 56, r = 60, t = 24, b = 36;
    var lx = function (v) { return l + (W - l - r) * (Math.log2(v) - xRange[0]) / Math.max(1e-9, xRange[1] - xRange[0]); };
    var ly = function (v) { return H - b - (H - t - b) * (Math.log10(v) - yRange[0]) / Math.max(1e-9, yRange[1] - yRange[0]); };
    var svg = S("svg", { width: W, height: H, viewBox: "0 0 " + W + " " + H, class: "plot", role: "img", "data-collective": coll, "data-algorithm": alg, "aria-label": coll + " " + alg + ": latency against message size, one line per process count" });
    svg.appendChild(S("text", { x: l, y: 14, text: coll + " — " + alg, "font-weight": "bold" }));
    for (var e = Math.ceil(yRange[0]); e <= Math.floor(yRange[1]); e++) {
      svg.appendChild(S("line", { x1: l, x2: W - r, y1: ly(Math.pow(10, e)), y2: ly(Math.pow(10, e)), stroke: "#e3e6ea" }));
      svg.appendChild(S("text", { x: 4, y: ly(Math.pow(10, e)) + 4, text: CZ.seconds(Math.pow(10, e) * 1e-6) }));
    }
    for (var x = Math.ceil(xRange[0]); x <= xRange[1]; x += 4)
      svg.appendChild(S("text", { x: lx(Math.pow(2, x)) - 8, y: H - b + 14, text: sizeLabel(Math.pow(2, x)) }));
    svg.appendChild(S("text", { x: l, y: H - 6, text: (coll === "bcast" || coll === "allreduce" ? "message" : "block") + " bytes (log)" }));
    procsAll.forEach(function (p, k) {
      var pts = rows.filter(function (row) { return row[1] === p && row[7] === "ok"; }).sort(function (a, c) { return a[2] - c[2]; });
      if (!pts.length) return;
      var colour = CZ.palette[k % CZ.palette.length], d = "";
      pts.forEach(function (row, j) { d += (j ? " L" : "M") + lx(Math.max(row[2], 1)) + "," + ly(row[4]); });
      svg.appendChild(S("path", { d: d, fill: "none", stroke: colour, "stroke-width": 2, "stroke-dasharray": ["", "6 3", "2 2", "8 2 2 2"][k % 4] || null }));
      pts.forEach(function (row) {
        var m = marker(markers[k % markers.length], lx(Math.max(row[2], 1)), ly(row[4]), colour);
        m.appendChild(S("title", { text: "P=" + p + ", " + CZ.bytes(row[2]) + ": " + row[4] + " µs (min " + row[5] + ", max " + row[6] + ")" }));
        svg.appendChild(m);
      });
      var last = pts[pts.length - 1];
      svg.appendChild(S("text", { x: lx(Math.max(last[2], 1)) + 6, y: ly(last[4]) + 4, fill: colour, text: "P=" + p }));
    });
    return svg;
  }

  CZ.part("benchmarks", function () {
    var body = document.getElementById("bench-body"), B = D.bench;
    var why = CZ.inputProblem("benchmark CSV");
    if ((!B || !B.rows) && why && why.indexOf("not given") !== 0) { body.appendChild(CZ.missing("No benchmark data: the CSV is " + why)); return; }
    if (!B || !B.rows) { body.appendChild(CZ.missing("No benchmark data: give `--bench DIR/bench.csv` from `collectivize bench --collective all --procs 2,4,8 --sizes 8:1M -o DIR`.")); return; }
    if (!B.rows.length) { body.appendChild(CZ.missing("The benchmark CSV has no measurements.")); return; }
    var colls = [];
    B.rows.forEach(function (row) { if (colls.indexOf(row[0]) < 0) colls.push(row[0]); });
    var pick = el("select", { id: "bench-collective" });
    colls.forEach(function (c) { pick.appendChild(el("option", { value: c, text: c })); });
    var plots = el("div", { class: "plots", id: "bench-plots" });
    function draw() {
      plots.textContent = "";
      var rows = B.rows.filter(function (row) { return row[0] === pick.value && row[4] > 0; });
      var algs = [], procs = [], ys = [], xs = [];
      rows.forEach(function (row) {
        if (algs.indexOf(row[3]) < 0) algs.push(row[3]);
        if (procs.indexOf(row[1]) < 0) procs.push(row[1]);
        ys.push(Math.log10(row[4])); xs.push(Math.log2(Math.max(1, row[2])));
      });
      procs.sort(function (a, c) { return a - c; });
      var yr = [Math.floor(Math.min.apply(null, ys)), Math.ceil(Math.max.apply(null, ys))];
      var xr = [Math.min.apply(null, xs), Math.max.apply(null, xs)];
      algs.forEach(function (a) { plots.appendChild(benchPlot(pick.value, a, rows.filter(function (row) { return row[3] === a; }), procs, yr, xr)); });
    }
    pick.addEventListener("change", draw);
    body.appendChild(el("p", { text: "Median latency of each algorithm (µs, log scale) against size, one line per process count (colour, line style, marker and an end label tell them apart). Same axes within a collective, so plots compare directly. Measured by `collectivize bench` beside the MPI library's own collective (the 'mpi' plot)." }));
    body.appendChild(el("div", { class: "controls" }, el("label", {}, "collective", pick)));
    body.appendChild(plots);
    draw();
  });
})();
