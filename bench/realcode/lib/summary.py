"""Collect every program's score.json under OUT into one Markdown summary.

usage: summary.py OUT > OUT/SUMMARY.md
"""
import collections, json, os, re, sys

REALCODE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
KEYS = ["expected", "found_confirmed", "found_partial", "fp_confirmed", "fp_partial", "missed",
        "proposed", "review", "none", "patch_problems"]


def commits():
    out = {}
    for line in open(os.path.join(REALCODE, "SOURCES.tsv")).read().splitlines()[1:]:
        name, repo, commit, _ = line.split("\t")
        out[repo] = commit
    return out


def main():
    out_root = sys.argv[1]
    order = open(os.path.join(REALCODE, "programs", "ORDER")).read().split()
    shas = commits()
    rows, case_rows, stability, notes = [], [], [], []
    patch_lines, none_reasons = [], collections.Counter()
    for prog in order:
        path = os.path.join(out_root, prog, "score.json")
        if not os.path.exists(path):
            notes.append(f"- {prog}: no score (not run, or its build or scoring failed; see {prog}/build.log)")
            continue
        s = json.load(open(path))
        per_np = collections.defaultdict(lambda: collections.Counter())
        ncases = collections.Counter()
        for case, tags in s["cases"].items():
            for tag, r in tags.items():
                np = int(re.match(r"np(\d+)", tag).group(1))
                if "stable" in r:
                    ans = ("same matches" if r["stable"] else "DIFFERENT matches") + ", " + (
                        "same instance counts" if r.get("same_instances") else "different instance counts")
                    stability.append(f"| {prog} | {case} | {np} | {ans} |")
                    continue
                per_np[np].update({k: r["summary"][k] for k in KEYS})
                for p in r["patches"]:
                    if p["status"] == "none":
                        reason = re.sub(r"/\S+/build/", "", p["reason"])
                        reason = re.sub(r"\b\d+\b", "N", reason)
                        none_reasons[(prog, reason[:160])] += 1
                    else:
                        patch_lines.append(
                            f"| {prog} | {case} | {tag} | {p['id']} | {p['status']} | {p['match_class']} | "
                            f"`{' '.join(p['replacement'].split())[:90]}` | "
                            f"{(p.get('verdict') or '; '.join(p['flags']) or 'not judged').replace('|', '/')} |")
                ncases[np] += 1
                sm = r["summary"]
                case_rows.append(f"| {prog} | {case} | {tag} | " + " | ".join(str(sm[k]) for k in KEYS[:6]) +
                                 f" | {sm['proposed']}/{sm['review']}/{sm['none']} | {sm['patch_problems']} |")
        for np in sorted(per_np):
            c = per_np[np]
            rows.append(f"| {prog} | {s['repository']} | {shas.get(s['repository'], '?')[:10]} | {np} | {ncases[np]} | "
                        + " | ".join(str(c[k]) for k in KEYS[:6])
                        + f" | {c['proposed']}/{c['review']}/{c['none']} | {c['patch_problems']} |")
        wrap = os.path.join(out_root, prog, "build-wrapper-messages.txt")
        if os.path.exists(wrap) and os.path.getsize(wrap):
            for line in sorted(set(open(wrap).read().splitlines()))[:5]:
                notes.append(f"- {prog} build: `{line.strip()}`")
    head = ("| program | repository | commit | P | cases | expected | found confirmed | found partial "
            "| FP confirmed | FP partial | missed | patches proposed/review/none | patch problems |")
    print("# Real-code suite: summary\n")
    print(f"Install scored: see each program's build.stamp; labels: {REALCODE}/labels, expectations: {REALCODE}/expect.\n")
    print("Per program and process count (repeated runs excluded; 'expected' counts required labels,"
          " FP includes wrong kinds, 'patch problems' counts patches with a wrong verdict or a literal flag).\n")
    print(head)
    print("|" + "---|" * (head.count("|") - 1))
    print("\n".join(rows))
    print("\n## Per case\n")
    h2 = ("| program | case | run | expected | found confirmed | found partial | FP confirmed | FP partial "
          "| missed | patches p/r/n | patch problems |")
    print(h2)
    print("|" + "---|" * (h2.count("|") - 1))
    print("\n".join(case_rows))
    print("\n## Same input traced twice\n")
    print("| program | case | P | answer |\n|---|---|---|---|")
    print("\n".join(stability))
    print("\n## Patches with a diff (proposed or review)\n")
    print("| program | case | run | patch | status | match class | replacement | verdict |\n|---|---|---|---|---|---|---|---|")
    print("\n".join(patch_lines))
    print("\n## Reasons for no patch (count over runs)\n")
    print("| program | reason | runs |\n|---|---|---|")
    for (prog, reason), n in sorted(none_reasons.items()):
        print(f"| {prog} | {reason.replace('|', '/')} | {n} |")
    if notes:
        print("\n## Notes\n")
        print("\n".join(notes))


if __name__ == "__main__":
    main()
