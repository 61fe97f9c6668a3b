// common.js: helpers shared by the report's scripts: element builders,
// number formats, the page data and a visible error path (a failing part
// says so on the page instead of leaving it blank).
"use strict";
var CZ = {};
CZ.NS = "http://www.w3.org/2000/svg";
// Okabe-Ito: distinguishable with colour-vision deficiencies.
CZ.palette = ["#0072b2", "#e69f00", "#009e73", "#cc79a7", "#56b4e9", "#d55e00", "#f0e442", "#000000"];
CZ.el = function (tag, attrs) {
  var e = document.createElement(tag);
  CZ.fill(e, attrs, Array.prototype.slice.call(arguments, 2));
  return e;
};
CZ.svg = function (tag, attrs) {
  var e = document.createElementNS(CZ.NS, tag);
  CZ.fill(e, attrs, Array.prototype.slice.call(arguments, 2));
  return e;
};
CZ.fill = function (e, attrs, kids) {
  for (var k in attrs || {}) {
    if (attrs[k] === null || attrs[k] === undefined) continue;
    if (k === "text") e.textContent = attrs[k];
    else if (k.slice(0, 2) === "on") e.addEventListener(k.slice(2), attrs[k]);
    else e.setAttribute(k, attrs[k]);
  }
  kids.forEach(function add(c) {
    if (c === null || c === undefined) return;
    if (Array.isArray(c)) { c.forEach(add); return; }
    e.appendChild(typeof c === "string" ? document.createTextNode(c) : c);
  });
};
CZ.missing = function (text) { return CZ.el("p", { class: "missing", text: text }); };
CZ.bytes = function (b) {
  if (b === null || b === undefined || isNaN(b)) return "?";
  var u = ["B", "KiB", "MiB", "GiB"], i = 0;
  while (b >= 1024 && i < u.length - 1) { b /= 1024; i++; }
  return (i ? b.toFixed(b < 10 ? 1 : 0) : b) + " " + u[i];
};
CZ.seconds = function (s) {
  if (s === null || s === undefined || isNaN(s)) return "?";
  var a = Math.abs(s);
  if (a >= 1) return s.toFixed(2) + " s";
  if (a >= 1e-3) return (s * 1e3).toFixed(2) + " ms";
  return (s * 1e6).toFixed(1) + " µs";
};
CZ.showError = function (where, err) {
  var box = document.getElementById("script-errors");
  if (box) box.appendChild(CZ.el("p", { text: "Part of this page could not be drawn (" + where + "): " + (err && err.message || err) + ". The rest is shown." }));
};
window.addEventListener("error", function (ev) { CZ.showError("script", ev.message); });
// Runs one part of the page; a failure is reported, the others still run.
CZ.part = function (where, fn) {
  try { fn(); } catch (e) { CZ.showError(where, e); if (window.console) console.error(e); }
};
CZ.data = (function () {
  try { return JSON.parse(document.getElementById("cz-data").textContent); }
  catch (e) { CZ.showError("page data", e); return {}; }
})();
// What the Inputs table says about one input ("" when it is fine).
CZ.inputProblem = function (name) {
  var hit = (CZ.data.inputs || []).filter(function (i) { return i.name === name && i.status !== "ok"; })[0];
  return hit ? hit.status + ": " + hit.message : "";
};
