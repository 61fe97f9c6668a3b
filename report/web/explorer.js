// explorer.js: steps through the runtime's alltoall and allgather
// algorithms for P = 2..32 ranks. Each algorithm is simulated here exactly
// as its C file moves data (same buffers, same positions, same step
// boundaries); a state with `runtime` = s is the picture the runtime
// reports after its step s (collectivize_steps.h), which the browser test
// checks against report/tools/step_export.c.
"use strict";
var CZX = (function () {
  function mod(a, p) { return ((a % p) + p) % p; }
  function copy(ranks) { return ranks.map(function (r) { return r.slice(); }); }
  function empty(p) { var a = []; for (var r = 0; r < p; r++) { a.push([]); for (var i = 0; i < p; i++) a[r].push(null); } return a; }
  function same(a, b) { return JSON.stringify(a) === JSON.stringify(b); }
  // A step: the new buffers, the messages (one per sender/receiver pair) and
  // which slots changed.
  function step(prev, next, moves, o) {
    var changed = [];
    for (var r = 0; r < next.length; r++)
      for (var i = 0; i < next[r].length; i++)
        if (!same(prev[r][i], next[r][i])) changed.push([r, i]);
    var blocks = 0;
    moves.forEach(function (m) { blocks += m.blocks.length; });
    return { phase: o.phase, runtime: o.runtime, buffer: o.buffer, explain: o.explain, ranks: next, moves: moves, changed: changed, blocks: blocks };
  }
  function start(p, alltoall, buffer) {
    var ranks = empty(p);
    for (var r = 0; r < p; r++)
      for (var i = 0; i < p; i++) ranks[r][i] = alltoall ? [r, i] : (i === r ? r : null);
    return { phase: "start", runtime: null, buffer: buffer, ranks: ranks, moves: [], changed: [], blocks: 0,
      explain: alltoall ? "Each rank p holds P blocks: block (p,d) is for rank d." : "Each rank p holds one block, p; everyone needs all P blocks." };
  }
  function emptyStart(p, alltoall) {
    var s = start(p, alltoall, "send buffers");
    s.explain += " Shown below: the receive buffers, empty for now (hatched).";
    s.ranks = empty(p);
    return s;
  }

  // alltoall_bruck.c, radix r: rotate, one round per base-r digit, rotate back.
  function bruck(p, radix) {
    var states = [start(p, true, "send buffers")];
    var work = empty(p);
    for (var me = 0; me < p; me++) for (var i = 0; i < p; i++) work[me][i] = [me, (me + i) % p];
    states.push(step(states[0].ranks, work, [], { phase: "rotate", runtime: 0, buffer: "working buffer (rotated)",
      explain: "Rotation phase: rank p puts its block for rank p+i at position i (local copy, no message). Position i now means 'travels i ranks forward'." }));
    var round = 0, k = 0;
    for (var w = 1; w < p; w *= radix, k++) {
      var next = copy(work), moves = [], parts = [];
      for (var d = 1; d < radix && d * w < p; d++) {
        var idx = [];
        for (var i2 = 1; i2 < p; i2++) if (Math.floor(i2 / w) % radix === d) idx.push(i2);
        for (var me2 = 0; me2 < p; me2++) {
          var to = (me2 + d * w) % p, from = mod(me2 - d * w, p);
          idx.forEach(function (i3) { next[me2][i3] = work[from][i3]; });
          moves.push({ from: me2, to: to, positions: idx.slice(), blocks: idx.map(function (i3) { return work[me2][i3]; }) });
        }
        parts.push(radix === 2 ? "blocks at positions whose bit " + k + " is 1 (" + idx.join(", ") + ") go to rank p+" + w + " (2^" + k + ")"
                               : "blocks whose base-" + radix + " digit " + k + " is " + d + " (positions " + idx.join(", ") + ") go to rank p+" + (d * w));
      }
      round++;
      states.push(step(work, next, moves, { phase: "round " + round, runtime: round, buffer: "working buffer (rotated)",
        explain: "Round " + round + ": " + parts.join("; ") + ". Every rank sends " + (radix - 1 > 1 ? "up to " + (radix - 1) + " messages" : "one message") + " at once; received blocks keep their positions." }));
      work = next;
    }
    var recv = empty(p);
    for (var me3 = 0; me3 < p; me3++) for (var i4 = 0; i4 < p; i4++) recv[me3][mod(me3 - i4, p)] = work[me3][i4];
    states.push(step(work, recv, [], { phase: "inverse rotation", runtime: round + 1, buffer: "receive buffers",
      explain: "Inverse rotation phase: position i came from rank p−i, so it goes to receive block p−i (local copy). Done: block (s,p) sits at position s on every rank p." }));
    return states;
  }

  function localCopy(states, p, alltoall, only0) {
    var next = empty(p);
    for (var r = 0; r < p; r++) if (!only0 || r === 0) next[r][r] = alltoall ? [r, r] : r;
    states.push(step(states[states.length - 1].ranks, next, [], { phase: "local copy", runtime: 0, buffer: "receive buffers",
      explain: only0 ? "Rank 0, the gathering rank, copies its own block into place." : "Every rank copies its own block into place (no message)." }));
    return next;
  }

  // alltoall_spread_out.c: all P-1 exchanges in flight at once.
  function spreadOut(p) {
    var states = [emptyStart(p, true)], cur = localCopy(states, p, true);
    for (var i = 1; i < p; i++) {
      var next = copy(cur), moves = [];
      for (var me = 0; me < p; me++) {
        var from = mod(me - i, p);
        next[me][from] = [from, me];
        moves.push({ from: me, to: (me + i) % p, positions: [(me + i) % p], blocks: [[me, (me + i) % p]] });
      }
      states.push(step(cur, next, moves, { phase: "offset " + i, runtime: i === p - 1 ? 1 : null, buffer: "receive buffers",
        explain: "Offset " + i + ": rank p sends block (p,p+" + i + ") to rank p+" + i + " and receives from p−" + i + ". All offsets are posted at once and complete together (one runtime step); they are shown one at a time to show the staggering that keeps any receiver from being flooded." }));
      cur = next;
    }
    return states;
  }

  // alltoall_pairwise.c: P-1 sendrecv steps, XOR partners for powers of two.
  function pairwise(p) {
    var states = [emptyStart(p, true)], cur = localCopy(states, p, true), pow2 = (p & (p - 1)) === 0;
    for (var k = 1; k < p; k++) {
      var next = copy(cur), moves = [];
      for (var me = 0; me < p; me++) {
        var to = pow2 ? me ^ k : (me + k) % p, from = pow2 ? me ^ k : mod(me - k, p);
        next[me][from] = [from, me];
        moves.push({ from: me, to: to, positions: [to], blocks: [[me, to]] });
      }
      states.push(step(cur, next, moves, { phase: "exchange " + k, runtime: k, buffer: "receive buffers",
        explain: pow2 ? "Step " + k + ": rank p swaps one block with rank p XOR " + k + " (pairs, both directions at once)."
                      : "Step " + k + ": rank p sends to p+" + k + " and receives from p−" + k + " (one sendrecv)." }));
      cur = next;
    }
    return states;
  }

  // allgather_ring.c: pass the newest block to the right P-1 times.
  function ring(p) {
    var states = [emptyStart(p, false)], cur = localCopy(states, p, false);
    for (var k = 0; k < p - 1; k++) {
      var next = copy(cur), moves = [];
      for (var me = 0; me < p; me++) {
        var left = mod(me - 1, p), inb = mod(me - k - 1, p);
        next[me][inb] = cur[left][inb];
        moves.push({ from: me, to: (me + 1) % p, positions: [mod(me - k, p)], blocks: [mod(me - k, p)] });
      }
      states.push(step(cur, next, moves, { phase: "pass " + (k + 1), runtime: k + 1, buffer: "receive buffers",
        explain: "Step " + (k + 1) + ": rank p passes block p−" + k + " to its right neighbour p+1 and takes block p−" + (k + 1) + " from its left one." }));
      cur = next;
    }
    return states;
  }

  // allgather_recursive_doubling.c: fold the extra ranks, double, unfold.
  function recursiveDoubling(p) {
    var states = [emptyStart(p, false)], cur = localCopy(states, p, false);
    var q = 1, rounds = 0;
    while (q * 2 <= p) { q *= 2; rounds++; }
    var extra = p - q;
    if (extra > 0) {
      var f = copy(cur), fm = [];
      for (var j = 0; j < extra; j++) { f[j][j + q] = j + q; fm.push({ from: j + q, to: j, positions: [j + q], blocks: [j + q] }); }
      states.push(step(cur, f, fm, { phase: "fold", runtime: 1, buffer: "receive buffers",
        explain: "Fold: P=" + p + " is not a power of two; the " + extra + " extra rank(s) " + q + "…" + (p - 1) + " hand their block to rank p−" + q + " and wait." }));
      cur = f;
    }
    for (var d = 1, s = 2; d < q; d *= 2, s++) {
      var next = copy(cur), moves = [];
      for (var v = 0; v < q; v++) {
        var partner = v ^ d, theirs = partner & ~(d - 1), mine = v & ~(d - 1), blocks = [];
        for (var b = theirs; b < theirs + d; b++) next[v][b] = cur[partner][b];
        for (var b2 = theirs + q; b2 < theirs + q + d && b2 < p; b2++) next[v][b2] = cur[partner][b2];
        for (var b3 = mine; b3 < mine + d; b3++) blocks.push(b3);
        for (var b4 = mine + q; b4 < mine + q + d && b4 < p; b4++) blocks.push(b4);
        moves.push({ from: v, to: partner, positions: blocks.slice(), blocks: blocks });
      }
      states.push(step(cur, next, moves, { phase: "doubling " + (s - 1), runtime: s, buffer: "receive buffers",
        explain: "Step " + (s - 1) + ": rank p swaps everything it has with rank p XOR " + d + " (bit " + (s - 2) + "); each then holds " + (2 * d) + " of the " + q + " groups' blocks." }));
      cur = next;
    }
    if (extra > 0) {
      var u = copy(cur), um = [];
      for (var j2 = 0; j2 < extra; j2++) { u[j2 + q] = cur[j2].slice(); um.push({ from: j2, to: j2 + q, positions: [], blocks: cur[j2].slice() }); }
      states.push(step(cur, u, um, { phase: "unfold", runtime: rounds + 2, buffer: "receive buffers",
        explain: "Unfold: ranks 0…" + (extra - 1) + " send the complete result to their extra rank p+" + q + "." }));
    }
    return states;
  }

  // allgather_gather_bcast.c: gather at rank 0, then a binomial broadcast.
  function gatherBcast(p) {
    var states = [emptyStart(p, false)], cur = localCopy(states, p, false, true);
    var g = copy(cur), gm = [];
    for (var r = 1; r < p; r++) { g[0][r] = r; gm.push({ from: r, to: 0, positions: [r], blocks: [r] }); }
    states.push(step(cur, g, gm, { phase: "gather", runtime: 1, buffer: "receive buffers",
      explain: "Gather: every rank sends its block to rank 0 (P−1 messages into one rank, received at once)." }));
    cur = g;
    var k = 0;
    while ((1 << k) < p) k++;
    for (var j = 1; j <= k; j++) {
      var m = 1 << (k - j), next = copy(cur), moves = [];
      for (var v = 0; v + m < p; v += 2 * m) { next[v + m] = cur[v].slice(); moves.push({ from: v, to: v + m, positions: [], blocks: cur[v].slice() }); }
      states.push(step(cur, next, moves, { phase: "bcast round " + j, runtime: j === k ? 2 : null, buffer: "receive buffers",
        explain: "Broadcast round " + j + " (binomial tree): every rank that has the whole buffer and whose number is a multiple of " + (2 * m) + " sends all P blocks to rank p+" + m + "." }));
      cur = next;
    }
    return states;
  }

  var algorithms = [
    { id: "alltoall:bruck", coll: "alltoall", name: "Bruck (radix 2)", build: function (p) { return bruck(p, 2); } },
    { id: "alltoall:bruck:r", coll: "alltoall", name: "Bruck, radix r", radix: true, build: function (p, r) { return bruck(p, r); } },
    { id: "alltoall:spread_out", coll: "alltoall", name: "spread-out", build: spreadOut },
    { id: "alltoall:pairwise", coll: "alltoall", name: "pairwise", build: pairwise },
    { id: "allgather:gather_bcast", coll: "allgather", name: "gather + bcast", build: gatherBcast },
    { id: "allgather:recursive_doubling", coll: "allgather", name: "recursive doubling", build: recursiveDoubling },
    { id: "allgather:ring", coll: "allgather", name: "ring", build: ring }
  ];
  return { algorithms: algorithms, mod: mod };
})();

(function () {
  var el = CZ.el, A = CZX.algorithms;
  var st = { alg: A[0], p: 8, radix: 4, n: 1, states: [], at: 0, timer: null };
  var ui = {};

  function colour(src) { return CZ.palette[src % CZ.palette.length]; }
  function labelText(b, alltoall) { return b === null || b === undefined ? "" : alltoall ? b[0] + "→" + b[1] : String(b); }

  function rebuild() {
    st.states = st.alg.build(st.p, Math.min(st.radix, st.p));
    st.at = 0;
    stop();
  }
  function render() {
    var s = st.states[st.at], alltoall = st.alg.coll === "alltoall", total = 0;
    for (var k = 1; k <= st.at; k++) total += st.states[k].blocks;
    ui.status.textContent = "Step " + st.at + " of " + (st.states.length - 1) + ": " + s.phase + " — showing " + s.buffer;
    ui.counters.textContent = "Blocks sent this step: " + s.blocks + " (" + s.blocks * st.n + " elements, " + s.moves.length + " messages) · in total: " + total + " blocks (" + total * st.n + " elements)";
    ui.explain.textContent = s.explain;
    ui.grid.setAttribute("data-algorithm", st.alg.id);
    ui.grid.setAttribute("data-step", st.at);
    ui.grid.setAttribute("data-runtime-step", s.runtime === null || s.runtime === undefined ? "" : s.runtime);
    ui.grid.textContent = "";
    var changed = {};
    s.changed.forEach(function (c) { changed[c[0] + ":" + c[1]] = true; });
    s.ranks.forEach(function (row, r) {
      var line = el("div", { class: "rank-row", "data-rank": r }, el("span", { class: "rank-label", text: "rank " + r }));
      row.forEach(function (b, i) {
        var moved = changed[r + ":" + i], src = b === null ? 0 : alltoall ? b[0] : b;
        var elems = el("span", { class: "elems" });
        for (var e = 0; e < st.n; e++) elems.appendChild(el("i"));
        var slot = el("div", { class: "slot" + (b === null ? " empty" : "") + (moved ? " moved" : ""), "data-rank": r, "data-pos": i,
          "data-block": b === null ? "" : alltoall ? b[0] + "," + b[1] : String(b),
          title: "rank " + r + ", position " + i + ": " + (b === null ? "empty" : "block " + labelText(b, alltoall) + (moved ? " (arrived this step)" : "")),
          style: b === null ? null : "background:" + colour(src) + "30;border-color:" + colour(src) });
        if (b !== null) { slot.appendChild(el("span", { text: labelText(b, alltoall) })); slot.appendChild(elems); }
        line.appendChild(slot);
      });
      ui.grid.appendChild(line);
    });
    drawArrows(s);
    ui.moves.textContent = "";
    s.moves.slice(0, 64).forEach(function (m) {
      ui.moves.appendChild(el("li", { text: "rank " + m.from + " → rank " + m.to + ": " + m.blocks.length + " block(s) " + m.blocks.map(function (b) { return "[" + labelText(b, alltoall) + "]"; }).join(" ") }));
    });
    if (s.moves.length > 64) ui.moves.appendChild(el("li", { text: "… " + (s.moves.length - 64) + " more messages" }));
    ui.step.disabled = st.at >= st.states.length - 1;
    ui.play.disabled = st.at >= st.states.length - 1 || !!st.timer;
    ui.stop.disabled = !st.timer;
    ui.undo.disabled = st.at === 0;
  }
  // Messages of the step as arrows between rank rows (one per message,
  // the sender's colour); local phases (rotations) get a circular mark.
  function drawArrows(s) {
    var rowH = 33, W = 70, H = st.p * rowH, svg = ui.arrows;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("width", W); svg.setAttribute("height", H); svg.setAttribute("viewBox", "0 0 " + W + " " + H);
    var defs = CZ.svg("defs");
    CZ.palette.forEach(function (c, k) {
      defs.appendChild(CZ.svg("marker", { id: "xa" + k, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" }, CZ.svg("path", { d: "M0,0 L10,5 L0,10 z", fill: c })));
    });
    svg.appendChild(defs);
    var y = function (r) { return r * rowH + 15; };
    if (!s.moves.length && s.phase !== "start") {
      for (var r = 0; r < st.p; r++) svg.appendChild(CZ.svg("text", { x: W - 18, y: y(r) + 5, text: "⟲", "font-size": 16 }, CZ.svg("title", { text: "local copy within rank " + r })));
      return;
    }
    s.moves.forEach(function (m) {
      var k = m.from % CZ.palette.length, a = y(m.from), b = y(m.to), bend = Math.min(W - 8, 8 + Math.abs(b - a) / rowH * 7);
      var path = CZ.svg("path", { d: "M" + (W - 2) + "," + a + " C" + (W - 2 - bend) + "," + a + " " + (W - 2 - bend) + "," + b + " " + (W - 2) + "," + b,
        fill: "none", stroke: CZ.palette[k], "stroke-width": 1.5, "marker-end": "url(#xa" + k + ")" });
      path.appendChild(CZ.svg("title", { text: "rank " + m.from + " → rank " + m.to + ": " + m.blocks.length + " block(s)" }));
      svg.appendChild(path);
    });
  }
  function forward() { if (st.at < st.states.length - 1) { st.at++; render(); } if (st.at >= st.states.length - 1) stop(); }
  function stop() { if (st.timer) { clearInterval(st.timer); st.timer = null; } if (st.states.length) render(); }
  function play() { if (st.timer) return; st.timer = setInterval(forward, 900); render(); }

  CZ.openAlgorithm = function (id, p) {
    for (var k = 0; k < A.length; k++) if (A[k].id === id || (id.indexOf("alltoall:bruck:") === 0 && A[k].id === "alltoall:bruck:r")) {
      st.alg = A[k];
      if (A[k].radix) st.radix = Math.max(2, parseInt(id.split(":")[2], 10) || 4);
      if (p) st.p = Math.max(2, Math.min(32, p));
      ui.alg.value = A[k].id; ui.p.value = st.p; ui.radix.value = st.radix;
      ui.radixLabel.hidden = !A[k].radix;
      rebuild();
      document.getElementById("explorer").scrollIntoView();
      return true;
    }
    return false;
  };

  CZ.part("explorer", function () {
    var body = document.getElementById("explorer-body");
    body.appendChild(el("p", { text: "Step through the runtime's algorithms as they run on P ranks: each row is one rank's buffer, each box one block (alltoall: source→destination; allgather: its source), coloured and labelled by source. A thick outline marks blocks that arrived in this step; hatched boxes are empty." }));
    ui.alg = el("select", { id: "explorer-algorithm", onchange: function () { st.alg = A.filter(function (a) { return a.id === ui.alg.value; })[0]; ui.radixLabel.hidden = !st.alg.radix; rebuild(); } });
    A.forEach(function (a) { ui.alg.appendChild(el("option", { value: a.id, text: a.coll + ": " + a.name })); });
    ui.p = el("input", { id: "explorer-procs", type: "number", min: 2, max: 32, value: st.p, onchange: function () { var v = parseInt(ui.p.value, 10); st.p = isNaN(v) ? 8 : Math.max(2, Math.min(32, v)); ui.p.value = st.p; rebuild(); } });
    ui.radix = el("input", { id: "explorer-radix", type: "number", min: 2, max: 32, value: st.radix, onchange: function () { var v = parseInt(ui.radix.value, 10); st.radix = isNaN(v) ? 4 : Math.max(2, Math.min(32, v)); ui.radix.value = st.radix; rebuild(); } });
    ui.n = el("select", { id: "explorer-elements", onchange: function () { st.n = parseInt(ui.n.value, 10); render(); } });
    [1, 2, 3, 4].forEach(function (n) { ui.n.appendChild(el("option", { value: n, text: String(n) })); });
    ui.radixLabel = el("label", { hidden: "" }, "radix r", ui.radix);
    ui.step = el("button", { id: "explorer-step", type: "button", text: "Step ▶", onclick: forward });
    ui.play = el("button", { id: "explorer-play", type: "button", text: "Play ▶▶", onclick: play });
    ui.stop = el("button", { id: "explorer-stop", type: "button", text: "Stop ■", onclick: stop });
    ui.undo = el("button", { id: "explorer-undo", type: "button", text: "◀ Undo", onclick: function () { stop(); if (st.at > 0) { st.at--; render(); } } });
    ui.reset = el("button", { id: "explorer-reset", type: "button", text: "Reset ⟲", onclick: function () { stop(); st.at = 0; render(); } });
    body.appendChild(el("div", { class: "controls" },
      el("label", {}, "algorithm", ui.alg), el("label", {}, "processes P", ui.p), ui.radixLabel,
      el("label", {}, "elements per block", ui.n), ui.step, ui.play, ui.stop, ui.undo, ui.reset));
    ui.status = el("p", { id: "explorer-status", "aria-live": "polite" });
    ui.counters = el("p", { id: "explorer-counters", class: "counters" });
    ui.explain = el("div", { id: "explorer-explain", class: "explain" });
    ui.grid = el("div", { id: "explorer-grid", class: "buffers", role: "img", "aria-label": "buffers of every rank" });
    ui.arrows = CZ.svg("svg", { class: "step-arrows", "aria-hidden": "true" });
    ui.moves = el("ul", { id: "explorer-moves", class: "moves", "aria-label": "messages of this step" });
    [ui.status, ui.counters, ui.explain, el("div", { class: "grid-wrap" }, ui.arrows, ui.grid), el("p", { class: "small", text: "Messages of this step:" }), ui.moves].forEach(function (e) { body.appendChild(e); });
    // Arrow keys step and undo while the explorer has focus (not in a field).
    body.addEventListener("keydown", function (ev) {
      if (/^(INPUT|SELECT)$/.test(ev.target.tagName)) return;
      if (ev.key === "ArrowRight") { ev.preventDefault(); stop(); forward(); }
      else if (ev.key === "ArrowLeft") { ev.preventDefault(); ui.undo.click(); }
    });
    body.appendChild(el("p", { class: "small", text: "Keys: → step, ← undo (with a button of the explorer focused)." }));
    rebuild();
  });
})();
