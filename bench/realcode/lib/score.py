"""Score one program's detection reports against its ground-truth labels.

usage: score.py OUT PROGRAM     (reads expect/PROGRAM.json, OUT/PROGRAM/*/report-*.json)

Every match of a report is put in one class:
  TP          kind, communicator, group and root of a required label, sites inside its sites
              (a match that is not confirmed may have the kind among its other_kinds: the
              report says the same messages fit it as well)
  ACCEPTABLE  the same against an acceptable label (a defensible reading, neither TP nor FP)
  WRONG-KIND  sites and group of a required label, another kind            (a false positive)
  FP          sites inside a negative label (a labelled non-collective pattern) or unlabelled
A label's site "file:A-B" stands for lines A to B of the file.
A required label no match satisfies is a MISS; one satisfied by partial matches only is
"found partial".  Writes OUT/PROGRAM/score.json and prints a readable account.
"""
import json, os, re, sys

REALCODE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def site_key(site, build_dir):
    f = site.get("file") or ("#" + site["id"])
    if f.startswith(build_dir + "/"):
        f = f[len(build_dir) + 1:]
    else:
        # A redetect.sh copy: binaries name the run they were built in
        # (OTHER_RUN/PROGRAM/build/...), the program's directory is the same.
        tail = "/" + os.path.basename(os.path.dirname(build_dir)) + "/build/"
        if tail in f:
            f = f[f.index(tail) + len(tail):]
    return f"{f}:{site.get('line', '?')}"


def label_applies(label, np):
    return "np" not in label or np in label["np"]


def group_of(label, np):
    r = label.get("ranks")
    if r == "world":
        return list(range(np))
    return r


def classify(match, labels, np, build_dir):
    sites = {site_key(s, build_dir) for s in match["sites"]}
    comm = match["communicator"]["name"]
    partial = match["status"] != "confirmed"
    kinds = [match["kind"]] + (match.get("other_kinds", []) if partial else [])
    best, best_rank, tp_labels = None, None, []
    for lid, L in labels.items():
        if not label_applies(L, np) or not sites or not sites <= set(L["sites"]):
            continue
        if L.get("comm") and L["comm"] != comm:
            continue
        group = group_of(L, np)
        if group is not None:
            same = match["ranks"] == group
            if not same and not (partial and set(match["ranks"]) < set(group)):
                continue
        if L["status"] == "negative":
            cand = ("FP", lid)
        elif not any(k in L["kinds"] for k in kinds):
            cand = ("WRONG-KIND", lid) if L["status"] == "required" else None
        elif L.get("root") is not None and match.get("root_world") != L["root"]:
            cand = None
        elif L.get("op") and match.get("op") and match["op"] != L["op"]:
            cand = ("WRONG-KIND", lid) if L["status"] == "required" else None   # right kind, wrong operation
        else:
            cand = ("TP", lid) if L["status"] == "required" else ("ACCEPTABLE", lid)
            if cand[0] == "TP":
                tp_labels.append(lid)
        # Better class first; among equals the label whose group fits the
        # match most tightly (a row's label before the whole grid's).
        order = {"TP": 0, "ACCEPTABLE": 1, "WRONG-KIND": 2, "FP": 3}
        if cand:
            rank = (order[cand[0]], len(group) if group is not None else 10**6, len(L["sites"]))
            if best is None or rank < best_rank:
                best, best_rank = cand, rank
    return (best or ("FP", None)) + (tp_labels,)


def literal_flags(patch_dir, patch):
    """Integer literals of the replacement that the replaced code does not contain."""
    if not patch.get("diff"):
        return []
    text = open(os.path.join(patch_dir, patch["diff"])).read().splitlines()
    removed = " ".join(l[1:] for l in text if l.startswith("-") and not l.startswith("---"))
    added = " ".join(l[1:] for l in text if l.startswith("+") and not l.startswith("+++"))
    call = " ".join(re.findall(r"MPI_\w+\([^;]*\)", added))
    have = set(re.findall(r"\b\d+\b", removed))
    flags = sorted({f"literal {n} not in the replaced code" for n in re.findall(r"\b\d+\b", call) if n not in have})
    if re.search(r"taken from the trace|as observed", patch.get("reason", "") + open(
            os.path.join(patch_dir, patch["rationale"])).read() if patch.get("rationale") else ""):
        flags.append("the rewriter says a value comes from the trace")
    return flags


def match_signature(m, build_dir):
    root = m.get("root_world")
    return (m["kind"], m["status"], tuple(m["ranks"]), -1 if root is None else root,
            tuple(sorted(site_key(s, build_dir) for s in m["sites"])))


def score_report(report_path, labels, case_labels, np, build_dir, verdicts):
    rep = json.load(open(report_path))
    active = {l: labels[l] for l in case_labels if label_applies(labels[l], np)}
    out = {"matches": [], "required": {}, "patches": []}
    for i, m in enumerate(rep["matches"]):
        cls, lid, tp_labels = classify(m, active, np, build_dir)
        out["matches"].append({"index": i, "class": cls, "label": lid, "tp_labels": tp_labels, "kind": m["kind"],
                               "status": m["status"], "ranks": m["ranks"], "root": m.get("root_world"),
                               "comm": m["communicator"]["name"], "instances": m["instances"],
                               "sites": sorted({site_key(s, build_dir) for s in m["sites"]}),
                               "equivalent": m.get("equivalent", "")})
    for lid, L in active.items():
        if L["status"] != "required":
            continue
        hits = [x for x in out["matches"] if lid in x["tp_labels"]]
        state = ("confirmed" if any(h["status"] == "confirmed" for h in hits)
                 else "partial" if hits else "missed")
        out["required"][lid] = state
    pdir = report_path.replace("report-", "patches-").rsplit(".json", 1)[0]
    pj = os.path.join(pdir, "patches.json")
    if os.path.exists(pj):
        for p in json.load(open(pj))["patches"]:
            mm = out["matches"][p["match"]] if p["match"] < len(out["matches"]) else {}
            entry = {"id": p["id"], "status": p["status"], "reason": p.get("reason", ""),
                     "replacement": p.get("replacement") or "", "match_class": mm.get("class"),
                     "flags": literal_flags(pdir, p) if p["status"] != "none" else []}
            for v in verdicts:
                # A verdict on one replacement (e.g. a root frozen to 0) says
                # nothing of a later, different one at the same sites.
                if v.get("replacement_matches") and not re.search(v["replacement_matches"],
                                                                 entry["replacement"]):
                    continue
                if sorted(v["sites"]) == mm.get("sites") and p["status"] != "none":
                    entry["verdict"] = v["verdict"]
            if p["status"] == "proposed" and mm.get("class") not in ("TP", "ACCEPTABLE"):
                entry.setdefault("verdict", "wrong: a proposed patch for a false positive")
            out["patches"].append(entry)
    out["signature"] = sorted(map(list, (match_signature(m, build_dir) for m in rep["matches"])))
    out["instances"] = sorted([list(match_signature(m, build_dir)), m["instances"]] for m in rep["matches"])
    return out


def summarize(r):
    ms = r["matches"]
    req = r["required"].values()
    pat = r["patches"]
    return {
        "expected": len(r["required"]),
        "found_confirmed": sum(1 for s in req if s == "confirmed"),
        "found_partial": sum(1 for s in req if s == "partial"),
        "missed": sum(1 for s in req if s == "missed"),
        "fp_confirmed": sum(1 for m in ms if m["class"] in ("FP", "WRONG-KIND") and m["status"] == "confirmed"),
        "fp_partial": sum(1 for m in ms if m["class"] in ("FP", "WRONG-KIND") and m["status"] != "confirmed"),
        "wrong_kind": sum(1 for m in ms if m["class"] == "WRONG-KIND"),
        "acceptable": sum(1 for m in ms if m["class"] == "ACCEPTABLE"),
        "tp_matches": sum(1 for m in ms if m["class"] == "TP"),
        "proposed": sum(1 for p in pat if p["status"] == "proposed"),
        "review": sum(1 for p in pat if p["status"] == "review"),
        "none": sum(1 for p in pat if p["status"] == "none"),
        "patch_problems": sum(1 for p in pat if p.get("verdict", "").startswith("wrong") or p["flags"]),
    }


def expand_sites(sites):
    """A label's sites, "file:A-B" standing for every line from A to B."""
    out = []
    for site in sites:
        f, _, lines = site.rpartition(":")
        m = re.fullmatch(r"(\d+)-(\d+)", lines)
        out += [f"{f}:{n}" for n in range(int(m[1]), int(m[2]) + 1)] if m else [site]
    return out


def main():
    out_root, program = sys.argv[1], sys.argv[2]
    exp = json.load(open(os.path.join(REALCODE, "expect", program + ".json")))
    pdir = os.path.join(out_root, program)
    build_dir = os.path.join(os.path.abspath(pdir), "build")
    labels, verdicts = exp["labels"], exp.get("patch_verdicts", [])
    for L in labels.values():
        L["sites"] = expand_sites(L["sites"])
    result = {"program": program, "repository": exp.get("repository"), "cases": {}}
    for case, case_labels in exp["cases"].items():
        cdir = os.path.join(pdir, case)
        if not os.path.isdir(cdir):
            print(f"== {case}: not run")
            continue
        tags = sorted((f[len("report-"):-5] for f in os.listdir(cdir)
                       if f.startswith("report-") and f.endswith(".json")),
                      key=lambda t: (int(re.match(r"np(\d+)", t).group(1)), t))
        for tag in tags:
            np = int(re.match(r"np(\d+)", tag).group(1))
            r = score_report(os.path.join(cdir, f"report-{tag}.json"), labels, case_labels, np,
                             build_dir, [v for v in verdicts if v["case"] == case])
            r["summary"] = summarize(r)
            base = re.sub(r"-r\d+$", "", tag)
            if base != tag and base in result["cases"].get(case, {}):
                r["stable_with"] = base
                first = result["cases"][case][base]
                r["stable"] = r["signature"] == first["signature"]
                r["same_instances"] = r["instances"] == first["instances"]
            result["cases"].setdefault(case, {})[tag] = r
            s = r["summary"]
            print(f"== {case} {tag}: expected {s['expected']}, found confirmed {s['found_confirmed']}, "
                  f"partial {s['found_partial']}, missed {s['missed']}; FP confirmed {s['fp_confirmed']}, "
                  f"FP partial {s['fp_partial']} (wrong kind {s['wrong_kind']}); acceptable {s['acceptable']}; "
                  f"patches {s['proposed']}/{s['review']}/{s['none']} (proposed/review/none)"
                  + (f"; same matches as {base}: {r['stable']}, same instance counts: {r['same_instances']}"
                     if "stable" in r else ""))
            for lid, st in r["required"].items():
                if st != "confirmed":
                    print(f"   {st.upper():9} {lid}: {labels[lid]['what']}")
            for m in r["matches"]:
                if m["class"] != "TP":
                    print(f"   {m['class']:10} #{m['index'] + 1} {m['status']} {m['kind']} {m['comm']} "
                          f"ranks {m['ranks']} root {m['root']} x{m['instances']} "
                          f"[{', '.join(m['sites'])}]" + (f" (label {m['label']})" if m["label"] else ""))
            for p in r["patches"]:
                if p["status"] != "none":
                    print(f"   patch {p['id']} {p['status']} ({p['match_class']}): {' '.join(p['replacement'].split())[:140]}"
                          + "".join(f"\n      ! {f}" for f in p["flags"])
                          + (f"\n      verdict: {p['verdict']}" if "verdict" in p else ""))
    json.dump(result, open(os.path.join(pdir, "score.json"), "w"), indent=1)


if __name__ == "__main__":
    main()
