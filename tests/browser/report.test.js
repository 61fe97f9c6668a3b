// report.test.js: opens reports made by `collectivize report` in chromium
// (playwright-core) and checks them against their inputs: the overview and
// match sections against the detection report, the explorer's block
// positions after every step against the runtime's own data movement
// (step_export), the decision view's link into the explorer, and pages made
// from bad inputs. Run by run.sh; screenshots in OUT/shots.
"use strict";
const fs = require("fs");
const path = require("path");
const { chromium } = require("playwright-core");

const out = process.argv[2];
const failures = [];
let checks = 0;
function check(cond, what) {
  checks++;
  if (!cond) { failures.push(what); console.log("FAIL: " + what); }
}
const readJson = (f) => JSON.parse(fs.readFileSync(path.join(out, f), "utf8"));
// The page draws a match's first instances (report/src/timeline.cpp,
// kInstancesShown); the messages expected are those instances' share.
const INSTANCES_SHOWN = 3;
const shownMessages = (m) => Math.min(m.instances, INSTANCES_SHOWN) * Math.round(m.messages / Math.max(1, m.instances));

async function openPage(browser, file) {
  const page = await browser.newPage({ viewport: { width: 1366, height: 900 } });
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
  page.on("request", (r) => { if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) errors.push("network request: " + r.url()); });
  await page.goto("file://" + path.join(out, file));
  return { page, errors };
}

// The explorer's grid as step_export writes states: "s,d" / "s" / "".
const gridOf = (page) => page.$$eval("#explorer-grid .rank-row", (rows) =>
  rows.map((r) => Array.from(r.querySelectorAll(".slot")).map((s) => s.dataset.block)));
const exportGrid = (ranks) => ranks.map((row) => row.map((b) => b === null ? "" : Array.isArray(b) ? b.join(",") : String(b)));

async function setExplorer(page, algId, p, radix) {
  await page.selectOption("#explorer-algorithm", algId);
  if (radix) await page.fill("#explorer-radix", String(radix)), await page.dispatchEvent("#explorer-radix", "change");
  await page.fill("#explorer-procs", String(p));
  await page.dispatchEvent("#explorer-procs", "change");
  await page.click("#explorer-reset");
}

// The same through the page's own DOM (any driver, and fast).
function setExplorerInPage(page, algId, p, radix) {
  return page.evaluate((a) => {
    const set = (id, v) => { const e = document.getElementById(id); e.value = String(v); e.dispatchEvent(new Event("change")); };
    set("explorer-algorithm", a.algId);
    if (a.radix) set("explorer-radix", a.radix);
    set("explorer-procs", a.p);
    document.getElementById("explorer-reset").click();
  }, { algId, p, radix: radix || 0 });
}

// Clicks through every step and returns each step's runtime step and
// blocks. With `shots`, through playwright (a screenshot per step); else by
// clicking the button inside the page, which is much faster.
async function clickThrough(page, shots) {
  if (!shots)
    return page.evaluate(() => {
      const states = [], grid = document.getElementById("explorer-grid"), step = document.getElementById("explorer-step");
      for (;;) {
        states.push({ rs: grid.dataset.runtimeStep, blocks: Array.from(grid.querySelectorAll(".rank-row")).map((r) => Array.from(r.querySelectorAll(".slot")).map((x) => x.dataset.block)) });
        if (step.disabled) return states;
        step.click();
      }
    });
  const states = [];
  for (let k = 0; ; k++) {
    states.push({ rs: await page.getAttribute("#explorer-grid", "data-runtime-step"), blocks: await gridOf(page) });
    await (await page.$("#explorer")).screenshot({ path: path.join(out, "shots", `${shots}-step-${k}.png`) });
    if (await page.isDisabled("#explorer-step")) return states;
    await page.click("#explorer-step");
  }
}

// Every picture the runtime also reports must equal it. Returns the runtime
// steps seen.
async function walk(page, exported, name, shots) {
  const seen = new Set(), states = await clickThrough(page, shots);
  states.forEach((st, k) => {
    if (st.rs === "") return;
    const s = Number(st.rs), want = exported.steps[s];
    check(want !== undefined, `${name}: explorer step ${k} claims runtime step ${s}, which the runtime did not report`);
    if (!want) return;
    const exp = exportGrid(want.ranks);
    check(JSON.stringify(st.blocks) === JSON.stringify(exp),
      `${name}: after explorer step ${k} (runtime step ${s}, ${want.phase}) blocks differ from the runtime:\n  explorer ${JSON.stringify(st.blocks)}\n  runtime  ${JSON.stringify(exp)}`);
    seen.add(s);
  });
  // The explorer's final picture is the runtime's final picture.
  const last = exported.steps[exported.steps.length - 1];
  check(JSON.stringify(states[states.length - 1].blocks) === JSON.stringify(exportGrid(last.ranks)), `${name}: final blocks differ from the runtime's`);
  return seen;
}

const exportIds = { "bruck": ["alltoall:bruck"], "bruck:3": ["alltoall:bruck:r", 3], "bruck:4": ["alltoall:bruck:r", 4],
  "spread_out": ["alltoall:spread_out"], "pairwise": ["alltoall:pairwise"], "gather_bcast": ["allgather:gather_bcast"],
  "recursive_doubling": ["allgather:recursive_doubling"], "ring": ["allgather:ring"] };

async function reviewPage(browser) {
  const det = readJson("report.json");
  const { page, errors } = await openPage(browser, "report.html");
  const m = det.matches;
  check(m.length >= 2, "the example's detection report has several matches (" + m.length + ")");
  // Overview: one row per match, facts as in the report, sorted by gain.
  const rows = await page.$$eval("#overview-table tbody tr", (trs) => trs.map((tr) => {
    const f = {}; tr.querySelectorAll("[data-field]").forEach((td) => { f[td.dataset.field] = td.textContent; });
    f.match = Number(tr.dataset.match); return f;
  }));
  check(rows.length === m.length, `overview has ${rows.length} rows for ${m.length} matches`);
  rows.forEach((r) => {
    const x = m[r.match];
    check(x && r.kind === x.kind, `overview row ${r.match}: kind ${r.kind} vs ${x && x.kind}`);
    check(x && r.instances === String(x.instances), `overview row ${r.match}: instances ${r.instances} vs ${x && x.instances}`);
    check(x && r.root === (x.root === null ? "—" : String(x.root)), `overview row ${r.match}: root ${r.root} vs ${x && x.root}`);
    check(x && r.group.startsWith(x.ranks.length + " ranks"), `overview row ${r.match}: group ${r.group}`);
  });
  check(rows[0] && rows[0].match === 0 && /verified/.test(rows[0].verdict) && /×1\.22/.test(rows[0].gain),
    "the verified patch (match 0, x1.22) is first with its verdict and measured gain: " + JSON.stringify(rows[0]));
  check(rows[0] && !/spread/.test(rows[0].gain), "run times apart (0.60-0.63 s against 0.49-0.52 s) are a gain, not spread: " + (rows[0] || {}).gain);
  // Then the predicted gains (the page's Hockney model, hockney.csv beside
  // the bench CSV), largest first, then the rest by time in messages.
  const predictions = await page.evaluate(() => CZ.data.predictions);
  check(Array.isArray(predictions) && predictions.length === m.length, "one prediction entry per match: " + JSON.stringify(predictions));
  const predicted = (r) => predictions[r.match] && typeof predictions[r.match].gain_seconds === "number";
  const rest = rows.slice(1), withModel = rest.filter(predicted), without = rest.filter((r) => !predicted(r));
  check(withModel.length >= 1, "some unverified match has a predicted gain: " + JSON.stringify(predictions));
  check(JSON.stringify(rest) === JSON.stringify(withModel.concat(without)), "predicted gains come before potential ones");
  const pg = withModel.map((r) => predictions[r.match].gain_seconds), ps = without.map((r) => m[r.match].seconds_in_messages);
  check(pg.every((s, i) => i === 0 || pg[i - 1] >= s), "predicted gains sorted: " + pg);
  check(ps.every((s, i) => i === 0 || ps[i - 1] >= s), "the rest sorted by time in messages: " + ps);
  withModel.forEach((r) => check(/predicted$/.test(r.gain), `row ${r.match} says its gain is predicted: ${r.gain}`));
  without.forEach((r) => check(/potential/.test(r.gain), `row ${r.match} says its gain is potential: ${r.gain}`));
  check(/no patch/.test((rows.find((r) => r.match === 1) || {}).verdict || ""), "match 1 says it has no patch");

  for (let i = 0; i < m.length; i++) {
    const sec = `#match-${i}`;
    // Source: the highlighted lines are the sites' lines.
    const want = [...new Set(m[i].sites.filter((s) => s.line).map((s) => s.line))].sort((a, b) => a - b);
    const hits = await page.$$eval(`${sec} .src .line.hit`, (ls) => ls.map((l) => Number(l.dataset.line)));
    check(JSON.stringify([...new Set(hits)].sort((a, b) => a - b)) === JSON.stringify(want), `match ${i}: highlighted lines ${hits} vs sites ${want}`);
    // Timeline and matrix: the match's messages in the instances drawn.
    const own = await page.$$eval(`${sec} svg.timeline .msg-own`, (l) => l.length);
    check(own === shownMessages(m[i]), `match ${i}: ${own} timeline arrows of the match vs ${shownMessages(m[i])} messages in its first ${INSTANCES_SHOWN} instances (${m[i].messages} in all)`);
    const cells = await page.$$eval(`${sec} table.matrix td`, (tds) => tds.map((td) => [Number(td.dataset.from), Number(td.dataset.to), Number(td.textContent) || 0]));
    const total = cells.reduce((a, c) => a + c[2], 0);
    check(total === shownMessages(m[i]), `match ${i}: matrix counts ${total} messages vs ${shownMessages(m[i])}`);
    if (m[i].kind === "bcast") {
      // One root, or one root per instance when it rotates (roots_world).
      const roots = m[i].root_world !== null ? [m[i].root_world] : m[i].roots_world.slice(0, INSTANCES_SHOWN);
      check(roots.length > 0 && cells.every((c) => c[2] === 0 || roots.includes(c[0])), `match ${i}: a linear broadcast's messages all leave its root(s) ${roots}`);
    }
    // Facts: the predicted gain with its numbers and basis, or why none.
    const pr = predictions[i], said = await page.textContent(`${sec} [data-field="prediction"]`);
    if (pr && typeof pr.mpi_us === "number")
      check(said.startsWith("a prediction:") && said.includes(pr.mpi_us.toFixed(1) + " µs from " + pr.basis), `match ${i}: the prediction's numbers and basis: ${said}`);
    else
      check(pr && said === "not predicted: " + pr.none, `match ${i}: why there is no prediction: ${said}`);
    const edges = await page.$$eval(`${sec} svg.graph .edge`, (e) => e.length);
    check(edges === cells.filter((c) => c[2] > 0).length, `match ${i}: graph has ${edges} edges`);
  }
  const added = await page.$$eval("#match-0 .diff span.add", (s) => s.map((x) => x.textContent));
  check(added.some((l) => l.includes("MPI_Bcast(row, 12, MPI_INT, k, MPI_COMM_WORLD)")), "match 0 shows the patch's added line: " + added);
  check(/verified/.test(await page.textContent("#match-0")), "match 0 shows the verification verdict");

  // Benchmarks: one plot per algorithm of the chosen collective, a line per P.
  const csv = fs.readFileSync(path.join(process.env.CZ_SRC || path.join(__dirname, "../.."), "bench/results/2026-11-23-dev-machine/grid/bench.csv"), "utf8").trim().split("\n").slice(1).map((l) => l.split(","));
  const algs = new Set(csv.filter((r) => r[0] === "alltoall").map((r) => r[3]));
  const plots = await page.$$eval("#bench-plots svg.plot", (s) => s.map((x) => x.dataset.algorithm));
  check(plots.length === algs.size && plots.every((a) => algs.has(a)), `bench plots ${plots} vs CSV algorithms ${[...algs]}`);

  // Decision view: an area opens its algorithm in the explorer.
  const spread = await page.$("#decision rect[data-algorithm='spread_out']");
  check(!!spread, "the decision view shows the built-in table's spread_out area");
  if (spread) {
    const p = Number(await spread.getAttribute("data-procs"));
    await spread.click();
    check(await page.inputValue("#explorer-algorithm") === "alltoall:spread_out", "clicking spread_out opens it in the explorer");
    check(Number(await page.inputValue("#explorer-procs")) === Math.min(32, p), "the explorer takes the area's process count");
  }
  await page.screenshot({ path: path.join(out, "shots", "report.png"), fullPage: true });
  await (await page.$("#decision")).screenshot({ path: path.join(out, "shots", "decision.png") });
  await (await page.$("#match-0")).screenshot({ path: path.join(out, "shots", "match-0.png") });

  // The explorer against the runtime: Bruck P=8 step by step (screenshots),
  // then every exported algorithm at P=8 and P=5 (2 elements per block).
  for (const file of ["steps-8.json", "steps-5.json"]) {
    const ex = readJson(file);
    for (const a of ex.algorithms) {
      const [id, radix] = exportIds[a.algorithm];
      const shots = a.algorithm === "bruck" && ex.procs === 8 ? "bruck-p8" : null;
      // Bruck P=8 through playwright's own clicks and fills, the rest in-page.
      if (shots) await setExplorer(page, id, ex.procs, radix);
      else await setExplorerInPage(page, id, ex.procs, radix);
      const name = `${a.collective} ${a.algorithm} P=${ex.procs}`;
      const seen = await walk(page, a, name, shots);
      if (a.algorithm.startsWith("bruck") || a.algorithm === "pairwise" || a.algorithm === "ring")
        check(seen.size === a.steps.length, `${name}: every runtime step has its picture (${seen.size} of ${a.steps.length})`);
    }
  }
  // Controls: undo, reset, play and stop.
  await setExplorer(page, "alltoall:bruck", 8);
  const ex8 = readJson("steps-8.json").algorithms[0];
  await page.click("#explorer-step"); await page.click("#explorer-step");
  const at2 = await gridOf(page);
  await page.click("#explorer-step");
  await page.click("#explorer-undo");
  check(JSON.stringify(await gridOf(page)) === JSON.stringify(at2) && await page.getAttribute("#explorer-grid", "data-step") === "2", "undo returns to the previous step");
  check(JSON.stringify(at2) === JSON.stringify(exportGrid(ex8.steps[1].ranks)), "after two steps Bruck P=8 shows the runtime's first round");
  await page.click("#explorer-reset");
  check(await page.getAttribute("#explorer-grid", "data-step") === "0", "reset returns to step 0");
  await page.click("#explorer-play");
  await page.waitForFunction(() => document.getElementById("explorer-grid").dataset.step !== "0", null, { timeout: 5000 });
  await page.click("#explorer-stop");
  const stopped = await page.getAttribute("#explorer-grid", "data-step");
  await page.waitForTimeout(1300);
  check(await page.getAttribute("#explorer-grid", "data-step") === stopped && Number(stopped) > 0, "play advances, stop holds");
  const counters = await page.textContent("#explorer-counters");
  check(/Blocks sent this step: \d+/.test(counters) && /in total: \d+ blocks/.test(counters), "the explorer counts blocks per step and in total: " + counters);
  check(errors.length === 0, "no script errors or network requests on the review page: " + errors.join("; "));
  check((await page.textContent("#script-errors")) === "", "nothing reported in the page's error box");
  await page.close();
}

// A verified patch whose run times overlap the original's.
async function spreadPage(browser) {
  const { page, errors } = await openPage(browser, "spread.html");
  const gain = await page.textContent('#overview-table tbody tr[data-match="0"] [data-field="gain"]');
  check(/^within run-to-run spread: .*×1\.02/.test(gain), "overlapping run times are called spread in the overview: " + gain);
  const facts = await page.textContent("#match-0");
  check(/run times overlap \(original 600\.00 ms–630\.00 ms, patched 590\.00 ms–620\.00 ms\)/.test(facts),
    "the match section gives both ranges: " + (facts.match(/Run time[^\n]*/) || [""])[0]);
  check(errors.length === 0, "no script errors on the spread page: " + errors.join("; "));
  await page.close();
}

async function badPages(browser) {
  const { page, errors } = await openPage(browser, "bad.html");
  const inputs = await page.$$eval("#inputs tbody tr", (trs) => trs.map((tr) => Array.from(tr.cells).map((c) => c.textContent)));
  const state = (name) => (inputs.find((r) => r[0] === name) || [])[1] || "";
  check(/malformed/.test(state("detection report")), "a truncated report is named malformed: " + state("detection report"));
  check(/malformed/.test(state("patches")), "a patches.json of a newer version is named: " + state("patches"));
  check(/malformed/.test(state("benchmark CSV")), "a CSV that is not bench output is named: " + state("benchmark CSV"));
  check(/malformed/.test(state("decision table")), "a bad decision table is named: " + state("decision table"));
  check(/line|column/.test(inputs.find((r) => r[0] === "detection report")[3]), "the JSON error says where");
  check(/No detection report: it could not be read \(malformed: .*not valid JSON/.test(await page.textContent("#overview")), "the overview says why there are no matches");
  check(/4 inputs could not be used fully/.test(await page.textContent("#input-problems")), "the overview names the unusable inputs up front");
  check((await page.$$("#explorer-grid .slot")).length === 64, "the explorer still works (8x8 blocks)");
  check((await page.$$("#decision svg.area")).length === 3, "the built-in decision table is still drawn");
  check(errors.length === 0, "no script errors on the bad-input page: " + errors.join("; "));
  await page.screenshot({ path: path.join(out, "shots", "bad-inputs.png"), fullPage: true });
  await page.close();

  const o = await openPage(browser, "odd.html");
  check((await o.page.$$("#overview-table tbody tr")).length === 3, "a report with odd matches still lists all 3");
  check((await o.page.$$("section.match")).length === 3, "and draws a section for each");
  check(o.errors.length === 0 && (await o.page.textContent("#script-errors")) === "", "odd matches cause no script errors: " + o.errors.join("; ") + (await o.page.textContent("#script-errors")));
  await o.page.screenshot({ path: path.join(out, "shots", "odd.png"), fullPage: true });
  await o.page.close();

  const e = await openPage(browser, "empty.html");
  const text = await e.page.textContent("body");
  check(/not given/.test(text) && /No benchmark data/.test(text) && /No detection report/.test(text), "a report of no inputs says what each part needs");
  check(e.errors.length === 0, "no script errors on the empty page: " + e.errors.join("; "));
  await e.page.screenshot({ path: path.join(out, "shots", "empty.png"), fullPage: true });
  await e.page.close();
}

// Firefox (Debian's firefox-esr over WebDriver BiDi with puppeteer-core;
// playwright drives only its own patched Firefox): the page draws without
// errors, and the explorer agrees with the runtime here too.
async function firefoxPass() {
  const firefox = process.env.CZ_FIREFOX;
  if (!firefox) { console.log("firefox: not run (no CZ_FIREFOX)"); return; }
  const puppeteer = require("puppeteer-core");
  // The window is sized at launch: a per-page setViewport needs a BiDi
  // emulation command that older firefox-esr releases (Debian 12 without
  // its security updates: 140) do not know.
  const browser = await puppeteer.launch({ browser: "firefox", executablePath: firefox, headless: true,
    defaultViewport: null, args: ["--width=1366", "--height=900"], // a laptop screen
    extraPrefsFirefox: { "network.proxy.type": 0 } });
  try {
    for (const file of ["report.html", "bad.html"]) {
      const page = await browser.newPage();
      const errors = [];
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto("file://" + path.join(out, file));
      const det = file === "report.html" ? readJson("report.json") : null;
      const rows = await page.$$eval("#overview-table tbody tr", (r) => r.length);
      check(rows === (det ? det.matches.length : 0), `firefox ${file}: ${rows} overview rows`);
      check(await page.$eval("#script-errors", (e) => e.textContent) === "", `firefox ${file}: nothing in the page's error box`);
      if (det) {
        const arrows = await page.$$eval("#match-0 svg.timeline .msg-own", (l) => l.length);
        check(arrows === shownMessages(det.matches[0]), `firefox: match 0 timeline arrows ${arrows}`);
        for (const f of ["steps-8.json", "steps-5.json"]) {
          const ex = readJson(f);
          for (const a of ex.algorithms) {
            const [id, radix] = exportIds[a.algorithm];
            await setExplorerInPage(page, id, ex.procs, radix);
            await walk(page, a, `firefox ${a.collective} ${a.algorithm} P=${ex.procs}`, null);
          }
        }
        await setExplorerInPage(page, "alltoall:bruck", 8);
        await page.evaluate(() => { for (let i = 0; i < 3; i++) document.getElementById("explorer-step").click(); });
        await page.screenshot({ path: path.join(out, "shots", "firefox-report.png"), fullPage: true });
      }
      check(errors.length === 0, `firefox ${file}: no script errors: ${errors.join("; ")}`);
      await page.close();
    }
  } finally {
    await browser.close();
  }
}

(async () => {
  const browser = await chromium.launch({
    executablePath: process.env.CZ_CHROMIUM || "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
  try {
    await reviewPage(browser);
    await spreadPage(browser);
    await badPages(browser);
  } finally {
    await browser.close();
  }
  await firefoxPass();
  console.log(`${checks - failures.length} of ${checks} checks passed; screenshots in ${path.join(out, "shots")}`);
  process.exit(failures.length ? 1 : 0);
})().catch((e) => { console.error("report_browser: " + (e.stack || e)); process.exit(1); });
